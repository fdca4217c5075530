"""A UCI engine slow to start: it says it is up (a file named by its argument appears), waits two seconds, then
completes the handshake and answers like a real one. The pool can be closed while it is still starting."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _uci import say, serve


def answer() -> None:
    say("info depth 1 nodes 10 score cp 0")
    say("bestmove e2e4")


if __name__ == "__main__":
    Path(sys.argv[1]).touch()
    time.sleep(2.0)
    serve(answer)
