"""A UCI engine that dies as soon as it is asked to search."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _uci import serve


def crash() -> None:
    os._exit(3)


if __name__ == "__main__":
    serve(crash)
