"""The common part of the fake engines: a UCI handshake and a loop over commands."""

from __future__ import annotations

import sys
from collections.abc import Callable


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def serve(on_go: Callable[[], None], *, answer_uci: bool = True) -> None:
    for raw in sys.stdin:
        command = raw.strip()
        if command == "uci":
            if not answer_uci:
                continue
            say("id name FakeEngine 0.1")
            say("option name Threads type spin default 1 min 1 max 8")
            say("option name Hash type spin default 16 min 1 max 1024")
            say("option name UCI_ShowWDL type check default false")
            say("uciok")
        elif command == "isready":
            say("readyok")
        elif command.startswith("go"):
            on_go()
        elif command == "quit":
            return
