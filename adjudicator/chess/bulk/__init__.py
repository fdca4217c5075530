"""Reading chess records in bulk (``check-games``, ``replay``): a compiled reader, the same output.

A collection's games are read by :mod:`.scan` (compiled to C by ``setup.py``, as the
helpmate kernel is) wherever a game stays on its ground: plain tags and SAN in one
language's letters, every move legal, nothing for the reader to note. Every other game,
and every game of a text the compiled reader does not lex, goes to the lenient reader
(:mod:`adjudicator.chess.movetext`, :mod:`adjudicator.chess.replay`), so the output is
the same, game for game (tested on every game of the seeded corpus, the messy-record,
languages and python-chess samples, and on a random-seeded sample each run).

- :mod:`.games`: the games of a text, each clean (read here) or left to the lenient
  splitter; the language of a clean game's letters (FIDE C.3, by the rule of
  :func:`adjudicator.chess.language_choice.choose`); its replay as the contract prints it;
- :mod:`.check`: a clean game's recorded result against the laws, as
  :func:`adjudicator.chess.collection.check_chess` checks it.

:data:`scanner` is the compiled module when it was built from the source now beside it
(``setup.py`` records the source's CRC-32 in ``scan_build.txt``), else ``scan.py`` as plain
Python (the same results, slower: the bulk path is then not used, :data:`COMPILED`).
"""

from __future__ import annotations

import importlib.util
import threading
import warnings
import zlib
from pathlib import Path
from types import ModuleType

from . import scan as _loaded

_HERE = Path(__file__).parent


def source_digest() -> str:
    """The CRC-32 of the reader's source and declarations, in hex (setup.py writes it to scan_build.txt)."""
    return f"{zlib.crc32((_HERE / 'scan.py').read_bytes() + (_HERE / 'scan.pxd').read_bytes()):08x}"


def plain_scanner() -> ModuleType:
    """scan.py loaded from its source as plain Python, even where the compiled module is installed."""
    spec = importlib.util.spec_from_file_location("adjudicator.chess.bulk._scan_source", _HERE / "scan.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _scanner() -> ModuleType:
    if not _loaded.COMPILED:
        return _loaded
    try:
        built = (_HERE / "scan_build.txt").read_text(encoding="utf-8").strip()
    except OSError:
        built = ""
    if built == source_digest():
        return _loaded
    warnings.warn("the compiled record reader is older than scan.py: using scan.py as plain Python "
                  "(run .ci/install to rebuild it)", RuntimeWarning, stacklevel=2)
    return plain_scanner()


scanner = _scanner()

COMPILED: bool = bool(scanner.COMPILED)
"""The reader runs as C (the extension built by setup.py from the source beside it), not as plain Python."""

LOCK = threading.Lock()
"""The reader keeps its board, and the text it reads (``scan.hold``), in module state: one text at a time in a
process (every call of ``scanner.scan`` and ``scanner.record_cuts`` holds it)."""
