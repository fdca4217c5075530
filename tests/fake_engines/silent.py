"""A program that never completes the UCI handshake (a wrong binary, or one stuck at start-up)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _uci import serve

if __name__ == "__main__":
    serve(lambda: None, answer_uci=False)
