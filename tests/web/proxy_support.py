"""A small reverse proxy for the tests (issue 23): what nginx does in front of ``adjudicator serve``,
in the standard library.

It forwards each request to the backend and adds ``X-Forwarded-For`` (the client's address appended
to whatever the client sent, as nginx's ``$proxy_add_x_forwarded_for``), ``X-Forwarded-Proto``
(``https`` when it serves TLS), ``X-Forwarded-Host`` and ``X-Forwarded-Port``; it serves plain HTTP,
or HTTPS with the test certificate of ``tests/data/tls``.
"""

from __future__ import annotations

import http.client
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

TLS = Path(__file__).resolve().parents[1] / "data" / "tls"
HOP_BY_HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailers",
              "transfer-encoding", "upgrade", "content-length"}


class ReverseProxy:
    """Listens on 127.0.0.1 (every 127.x client address reaches it) and forwards to ``backend_port``."""

    def __init__(self, backend_port: int, *, tls: bool = False) -> None:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                pass

            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
                forwarded = self.headers.get("X-Forwarded-For")
                client = self.client_address[0]
                headers["X-Forwarded-For"] = f"{forwarded}, {client}" if forwarded else client
                headers["X-Forwarded-Proto"] = "https" if tls else "http"
                headers["X-Forwarded-Host"] = self.headers.get("Host", f"127.0.0.1:{proxy.port}")
                headers["X-Forwarded-Port"] = str(proxy.port)
                upstream = http.client.HTTPConnection("127.0.0.1", backend_port, timeout=60)
                try:
                    upstream.request(self.command, self.path, body=body, headers=headers)
                    answer = upstream.getresponse()
                    data = answer.read()
                    self.send_response(answer.status, answer.reason)
                    for name, value in answer.getheaders():
                        if name.lower() not in HOP_BY_HOP:
                            self.send_header(name, value)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                finally:
                    upstream.close()

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = _forward

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(TLS / "cert.pem", TLS / "key.pem")
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.port = int(self.server.server_address[1])
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> ReverseProxy:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def client_context() -> ssl.SSLContext:
    """A TLS client that trusts the test certificate (and only it)."""
    context = ssl.create_default_context(cafile=str(TLS / "cert.pem"))
    return context
