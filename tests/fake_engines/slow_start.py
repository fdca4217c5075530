"""A UCI engine still starting when its pool closes: it says it is up (the file named by its first argument
appears), then holds its handshake until the test lets it go on (the file named by its second argument
appears), and then answers like a real one. The failure it stands for: an app shutting down while one of its
jobs is starting an engine."""

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
    up, go_on = Path(sys.argv[1]), Path(sys.argv[2])
    up.touch()
    while not go_on.exists():  # polled: the test creates it once the pool is closed (the pool's start limit
        time.sleep(0.01)       # ends a wait that never ends)
    serve(answer)
