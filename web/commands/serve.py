"""``adjudicator serve``: the web app behind a production WSGI server (waitress).

Behind a reverse proxy (``[security] proxy_hops`` above 0) waitress is told to leave the
``X-Forwarded-*`` headers alone (by default it removes every one it was not told to trust), so
the app's ProxyFix (:mod:`web.security`) reads the client's address, scheme, host and port from
exactly ``proxy_hops`` proxies, as under any other WSGI server; with ``proxy_hops = 0`` waitress
removes them and no client can forge them.
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

from adjudicator.contract import ContractError


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 0 < int(text) < 65536:
        raise ContractError("invalid_field", f"--port must be a port number 1 to 65535, not {text!r}", "port")
    return int(text)


def _threads(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 0 < int(text) <= 256:
        raise ContractError("invalid_field", f"--threads must be a whole number 1 to 256, not {text!r}", "threads")
    return int(text)


def register(sub: Any) -> None:
    parser = sub.add_parser("serve", help="start the web app")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", default="8000")
    parser.add_argument("--threads", default="8")
    parser.set_defaults(func=run)


def waitress_options(app: Any) -> dict[str, Any]:
    """What waitress is told beyond host, port and threads: poll(2), not select(2), which fails on a
    descriptor numbered 1024 or above (a busy server, or one in a process with many files open); keep the
    forwarded headers for ProxyFix when the app trusts proxies (``[security] proxy_hops``), else its
    default (remove them)."""
    from web.security import settings  # deferred on purpose: every command's module loads on each run

    options: dict[str, Any] = {"asyncore_use_poll": True}
    if settings(app).get("proxy_hops", 0):
        options["clear_untrusted_proxy_headers"] = False
    return options


def run(args: argparse.Namespace) -> int:
    import waitress  # deferred on purpose: every command's module loads on each run

    from web.app import create_app  # deferred on purpose: every command's module loads on each run

    port, threads = _port(str(args.port)), _threads(str(args.threads))
    app = create_app()
    logging.basicConfig()  # as waitress.serve does (idempotent if logging is set up already)
    server = waitress.create_server(app, host=args.host, port=port, threads=threads, **waitress_options(app))
    app.extensions["adjudicator"].take_up()  # bound first: a second server started by mistake takes nothing
    sys.stderr.write(f"adjudicator: serving on http://{args.host}:{port}/\n")
    sys.stderr.flush()
    server.run()
    return 0
