"""``python -m adjudicator``: the contract's command line, which lives in :mod:`web.cli` (the I/O side).

This file is the program's door, not part of the domain: Python runs it as ``__main__`` and no module
imports it, so the domain (every other module of ``adjudicator/``) still imports nothing of ``web``.
tests/test_layers.py holds both: this is the domain's only import of ``web``, and nothing imports it.
"""

from web.cli import entry

raise SystemExit(entry())
