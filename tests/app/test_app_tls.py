"""HTTPS for `serve --cert --key`: the TLS terminator relays pages, uploads and live streams to waitress."""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from companion_app.commands.serve import make_server, serve
from companion_app.tls import CertificateError, TLSTerminator, server_context
from tests.app.browser import stop_serving
from tests.app.conftest import CSRF, FINISHED_WINDOW, start_game

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command")
TRUSTING = ssl.create_default_context()
TRUSTING.check_hostname = False
TRUSTING.verify_mode = ssl.CERT_NONE  # the test's own self-signed certificate


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    command = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
    subprocess.run(
        [*command, "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    return cert, key


@pytest.fixture
def https_url(app: Flask, certificate: tuple[Path, Path]) -> Iterator[str]:
    server = make_server(app, "127.0.0.1", 0, threads=8)
    terminator = TLSTerminator(
        socket.create_server(("127.0.0.1", 0)),
        server_context(*certificate),
        ("127.0.0.1", server.socket.getsockname()[1]),
    )
    for run in (server.run, terminator.run):
        threading.Thread(target=run, daemon=True).start()
    yield f"https://127.0.0.1:{terminator.port}"
    terminator.close()
    stop_serving(server)


def fetch(url: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, context=TRUSTING, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_pages_come_through_https(https_url: str) -> None:
    status, body = fetch(https_url)
    assert status == 200 and b"Start a game" in body


def test_a_plain_http_visitor_is_dropped_and_https_carries_on(https_url: str) -> None:
    port = int(https_url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as plain:
        plain.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        try:
            reply = plain.recv(100)
        except ConnectionResetError:
            reply = b""
        assert reply == b""  # closed without an answer
    assert fetch(https_url)[0] == 200


def multipart(fields: dict[str, str], photo: bytes, boundary: str = "tablesight-test") -> tuple[bytes, str]:
    parts = [
        f'Content-Disposition: form-data; name="{name}"\r\n\r\n{value}'.encode()
        for name, value in fields.items()
    ]
    parts.append(b'Content-Disposition: form-data; name="photo"; filename="t.png"\r\n\r\n' + photo)
    separator = f"--{boundary}\r\n".encode()
    body = b"".join(separator + part + b"\r\n" for part in parts) + f"--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def test_a_photo_upload_and_the_live_stream_cross_the_relay(
    app: Flask, client: FlaskClient, https_url: str
) -> None:
    app.config["LIVE_STREAM_SECONDS"] = 30.0
    game = start_game(client)
    stream = urllib.request.urlopen(f"{https_url}{game}/events", context=TRUSTING, timeout=10)
    assert stream.readline().startswith(b"retry:")
    noise = np.random.default_rng(0).integers(0, 256, size=(900, 1200, 3), dtype=np.uint8)
    photo = cv2.imencode(".png", noise)[1].tobytes()  # about 3 MB, many TLS records
    fields = {"csrf_token": CSRF, "submission": "k" * 24, "player": "1", "window": FINISHED_WINDOW}
    body, content_type = multipart(fields, photo)
    cookie = client.get_cookie("session")
    assert cookie is not None
    headers = {"Content-Type": content_type, "Cookie": f"session={cookie.value}"}
    assert fetch(f"{https_url}{game}/captures", data=body, headers=headers)[0] == 200  # redirect followed
    line = b"\n"
    while line and not line.startswith(b"data:"):
        line = stream.readline()
    stream.close()
    assert b"Ana sent a photo and its window" in line


def test_unusable_certificates_are_named(tmp_path: Path, certificate: tuple[Path, Path]) -> None:
    cert, _ = certificate
    with pytest.raises(CertificateError, match="no such file"):
        server_context(tmp_path / "missing.pem", tmp_path / "missing-key.pem")
    other_key = tmp_path / "other.pem"
    subprocess.run(["openssl", "genrsa", "-out", str(other_key), "2048"], check=True, capture_output=True)
    with pytest.raises(CertificateError, match="not a matching PEM certificate and key"):
        server_context(cert, other_key)


def test_serve_wants_both_certificate_and_key(certificate: tuple[Path, Path], tmp_path: Path) -> None:
    cert, _ = certificate
    result = CliRunner().invoke(serve, ["--port", "0", "--cert", str(cert)])
    assert result.exit_code == 2 and "--cert and --key go together" in result.output
    result = CliRunner().invoke(serve, ["--port", "0", "--cert", str(cert), "--key", str(tmp_path / "k")])
    assert result.exit_code == 2 and "no such file" in result.output
