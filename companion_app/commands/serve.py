"""`tablesight serve`: run the web companion on this computer for the phones at the table (and, with
`--camera N`, watch a camera plugged into it; with `--cert` and `--key`, over HTTPS).

Waitress serves it; each phone watching a game holds one thread for its live stream, so the pool is sized
for a table of phones plus their page loads and uploads.
"""

from __future__ import annotations

import io
import socket
import threading
from pathlib import Path

import click
import qrcode
from flask import Flask
from waitress.server import BaseWSGIServer, MultiSocketServer, create_server

from companion_app import create_app
from companion_app.camera import CameraUnavailable, TableCamera, attach, camera_frames
from companion_app.tls import CertificateError, TLSTerminator, server_context

DEFAULT_THREADS = 32
LOOKAHEAD = 4  # lets waitress notice a phone that left while its live stream is open


def lan_address() -> str:
    """This computer's address on the local network (the one a default route leaves by); no packet is sent."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 1))
        address: str = probe.getsockname()[0]
    except OSError:
        address = "127.0.0.1"
    finally:
        probe.close()
    return address


def make_server(app: Flask, host: str, port: int, threads: int = DEFAULT_THREADS) -> BaseWSGIServer:
    """A waitress server bound now (port 0 picks a free one), to `run()` in the caller's thread."""
    server = create_server(
        app, host=host, port=port, threads=threads, ident="TableSight", channel_request_lookahead=LOOKAHEAD
    )
    if isinstance(server, MultiSocketServer):
        raise click.UsageError(f"--host {host} resolves to several addresses; give one address")
    return server


def terminal_qr(text: str) -> str:
    code = qrcode.QRCode(border=1)
    code.add_data(text)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


@click.command()
@click.option(
    "--host", default="0.0.0.0", show_default=True, help="Address to listen on (0.0.0.0: every network)."
)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--db",
    "database",
    type=click.Path(dir_okay=False, path_type=Path),
    help="SQLite file holding the games (default: tablesight.sqlite in the instance folder).",
)
@click.option("--threads", default=DEFAULT_THREADS, show_default=True, type=click.IntRange(4, 512))
@click.option(
    "--camera",
    type=click.IntRange(0),
    help="Also watch this computer's camera N; a game page then aims it at a player's window.",
)
@click.option(
    "--cert",
    type=click.Path(dir_okay=False, path_type=Path),
    help="PEM certificate: serve HTTPS, so phones may open the live camera view (needs --key).",
)
@click.option("--key", type=click.Path(dir_okay=False, path_type=Path), help="PEM private key of --cert.")
def serve(
    host: str,
    port: int,
    database: Path | None,
    threads: int,
    camera: int | None,
    cert: Path | None,
    key: Path | None,
) -> None:
    """Serve the companion on the local network and print the address and QR code for phones to open."""
    if (cert is None) != (key is None):
        raise click.UsageError("--cert and --key go together: give both, or neither for plain HTTP")
    context = None
    if cert is not None and key is not None:
        try:
            context = server_context(cert, key)
        except CertificateError as error:
            raise click.UsageError(f"--cert/--key: {error}") from None
    overrides = {"DATABASE": str(database.resolve())} if database is not None else None
    app = create_app(overrides)
    table_camera = None
    if camera is not None:
        try:
            table_camera = TableCamera(app, camera_frames(camera))
        except CameraUnavailable as error:
            raise click.UsageError(f"--camera {camera}: {error}") from None
        attach(app, table_camera)
        table_camera.start()
    if context is None:
        server = make_server(app, host, port, threads)
        terminator = None
        public_port = server.socket.getsockname()[1]
    else:
        server = make_server(app, "127.0.0.1", 0, threads)
        terminator = TLSTerminator(
            socket.create_server((host, port)), context, ("127.0.0.1", server.socket.getsockname()[1])
        )
        threading.Thread(target=terminator.run, name="tls", daemon=True).start()
        public_port = terminator.port
    shown_host = lan_address() if host in ("0.0.0.0", "") else host
    url = f"{'https' if context else 'http'}://{shown_host}:{public_port}"
    app.config["PUBLIC_URL"] = url
    click.echo(f"TableSight is serving on {url}  (store: {app.config['DATABASE']})")
    click.echo("Open it on a phone on the same network, or scan:")
    click.echo(terminal_qr(url))
    if table_camera is not None:
        click.echo(f"Watching camera {camera}: aim it at a player's window from a game page.")
    click.echo("Press Ctrl+C to stop.")
    try:
        server.run()
    except KeyboardInterrupt:
        click.echo("Stopped.")
    finally:
        server.close()
        if terminator is not None:
            terminator.close()
        if table_camera is not None:
            table_camera.stop()
