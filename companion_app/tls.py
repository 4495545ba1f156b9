"""HTTPS in front of waitress, for phones whose browsers only open the camera on a secure page.

Waitress speaks plain HTTP only, so `serve --cert --key` runs it on a loopback port and puts this small
TLS terminator on the public one: each connection is decrypted with the user's certificate and its bytes
are passed to waitress and back, on one thread per connection (a table holds a handful of phones).
"""

from __future__ import annotations

import select
import socket
import ssl
import threading
from pathlib import Path

HANDSHAKE_TIMEOUT_S = 10.0
CHUNK = 64 * 1024


class CertificateError(ValueError):
    """The certificate or key file cannot be used; the message names the file and the reason."""


def server_context(cert: Path, key: Path) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(cert, key)
    except FileNotFoundError as error:
        raise CertificateError(f"{error.filename}: no such file") from None
    except ssl.SSLError as error:
        raise CertificateError(
            f"{cert} / {key}: not a matching PEM certificate and key ({error.reason})"
        ) from None
    return context


class TLSTerminator:
    """Accepts TLS connections on `listener` and relays each one to the plain HTTP server at `backend`."""

    def __init__(self, listener: socket.socket, context: ssl.SSLContext, backend: tuple[str, int]) -> None:
        self.listener = listener
        self.context = context
        self.backend = backend
        self._closed = threading.Event()

    @property
    def port(self) -> int:
        port: int = self.listener.getsockname()[1]
        return port

    def run(self) -> None:
        while not self._closed.is_set():
            try:
                raw, _address = self.listener.accept()
            except OSError:
                return  # the listener was closed
            threading.Thread(target=self._relay, args=(raw,), daemon=True).start()

    def close(self) -> None:
        self._closed.set()
        self.listener.close()

    def _relay(self, raw: socket.socket) -> None:
        raw.settimeout(HANDSHAKE_TIMEOUT_S)
        try:
            phone = self.context.wrap_socket(raw, server_side=True)
        except OSError:  # ssl.SSLError included
            raw.close()  # a plain-HTTP visitor or a failed handshake: nothing to relay
            return
        phone.settimeout(None)
        try:
            with phone, socket.create_connection(self.backend) as server:
                _pipe(phone, server)
        except OSError:
            return


def _pipe(phone: ssl.SSLSocket, server: socket.socket) -> None:
    """Copy bytes both ways until either side closes; TLS records already decrypted are read first."""
    while True:
        ready = [phone] if phone.pending() else select.select([phone, server], [], [])[0]
        for source in ready:
            target = server if source is phone else phone
            data = source.recv(CHUNK)
            if not data:
                return
            target.sendall(data)
