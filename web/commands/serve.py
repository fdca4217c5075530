"""``adjudicator serve``: the web app behind a production WSGI server (waitress)."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(sub: Any) -> None:
    parser = sub.add_parser("serve", help="start the web app")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--threads", type=int, default=8)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import waitress

    from web import create_app

    app = create_app()
    sys.stderr.write(f"adjudicator: serving on http://{args.host}:{args.port}/\n")
    waitress.serve(app, host=args.host, port=args.port, threads=args.threads)
    return 0
