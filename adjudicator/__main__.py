"""``python -m adjudicator``: the contract's command line (lives in ``web.cli``, the I/O side)."""

from web.cli import main

raise SystemExit(main())
