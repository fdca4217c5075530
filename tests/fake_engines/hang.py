"""A UCI engine that starts normally but never answers ``go``: it hangs in every search."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _uci import say, serve


def hang() -> None:
    say("info depth 1 nodes 10 score cp 0")
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    serve(hang)
