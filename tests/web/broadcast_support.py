"""A broadcast for the tests: a real HTTP server on 127.0.0.1 serving one PGN, as a lichess
broadcast round does, that the test rewrites (moves appended) while it runs; it answers
``304`` to a request whose ``If-None-Match`` is the PGN's ETag, can be made slow, and can be
stopped (a source that is down)."""

from __future__ import annotations

import contextlib
import hashlib
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CLOCKS = [f"0:{59 - i // 2:02d}:{50 - (i % 2) * 5:02d}" for i in range(60)]
"""``[%clk]`` readings for the plies, as a DGT board writes them."""


def pgn_game(board: int, white: str, black: str, moves: list[str], result: str = "*", round_: str = "3",
             board_tag: bool = True) -> str:
    """One game of a round's PGN, each move with its clock comment; without ``board_tag`` the board is only in
    ``[Round "r.b"]``, as DGT LiveChess writes it."""
    body = []
    for i, move in enumerate(moves):
        number = f"{i // 2 + 1}. " if i % 2 == 0 else ""
        body.append(f"{number}{move} {{[%clk {CLOCKS[i]}]}}")
    board_line = f'[Board "{board}"]\n' if board_tag else ""
    tags = (f'[Event "Club Open"]\n[Round "{round_}.{board}"]\n{board_line}[White "{white}"]\n'
            f'[Black "{black}"]\n[Result "{result}"]\n')
    return f"{tags}\n{' '.join(body)} {result}\n"


LOOPBACK = {"allowed_networks": ["127.0.0.0/8"]}
"""The broadcast settings that let the server read a source on this machine (the tests' sources are on
127.0.0.1; a real server reads public addresses only: ``web.broadcast.guard``)."""


class PgnServer:
    """``http://127.0.0.1:<port>/round-3.pgn``: ``text`` as it is when asked."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.delay = 0.0
        self.asked = 0
        """Requests received (counted before the delay; ``statuses`` has the answers given)."""
        self.statuses: list[int] = []
        self.redirect: str | None = None
        """Answer every request with a 302 to this URL instead (a source that moved, or one that tries to
        send the server into its own network)."""
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                server.asked += 1
                if server.redirect is not None:
                    server.statuses.append(302)
                    self.send_response(302)
                    self.send_header("Location", server.redirect)
                    self.end_headers()
                    return
                if server.delay:
                    time.sleep(server.delay)
                with server._lock:
                    data = server.text.encode("utf-8")
                etag = '"' + hashlib.sha256(data).hexdigest()[:16] + '"'
                if self.headers.get("If-None-Match") == etag:
                    server.statuses.append(304)
                    self.send_response(304)
                    self.send_header("ETag", etag)
                    self.end_headers()
                    return
                server.statuses.append(200)
                self.send_response(200)
                self.send_header("Content-Type", "application/x-chess-pgn; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("ETag", etag)
                self.end_headers()
                # the reader may have given up (a slow source past its timeout), as a real server sees it
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_port}/round-3.pgn"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def write(self, text: str) -> None:
        with self._lock:
            self.text = text

    def stop(self) -> None:
        """The source goes down: nothing listens on its port any more."""
        self._server.shutdown()
        self._server.server_close()
