"""Endgame databases for the checkers tests.

``checkers_db``: up to 4 pieces, the one the set-up built (capped at 4 pieces where a
5-piece file is built there too, so "beyond the database" means 5 pieces), else built
once here. ``checkers_db5``: up to 5 pieces, where it is built (``adjudicator build-db
--pieces 5``) in the data folder or in the folder ``ADJUDICATOR_CHECKERS_DB5`` names;
the tests that need it fail in CI without it and are skipped elsewhere (:mod:`tests.parts`).
``checkers_db6``: up to 6 pieces, where it is built (CI's set-up builds it; elsewhere
``CHECKERS_DB_PIECES=6`` at set-up, or ``adjudicator build-db --pieces 6``) in the data folder
or in the folder ``ADJUDICATOR_CHECKERS_DB6`` names; a failure in CI without it, skipped elsewhere.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from engines.checkers.database import EndgameDatabase, available_pieces, build_database
from tests.parts import missing

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def checkers_db_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    built = ROOT / "data" / "checkers-db"
    if available_pieces(built) >= 4:
        yield built
        return
    folder = tmp_path_factory.mktemp("checkers-db")
    build_database(folder, 4)
    yield folder


@pytest.fixture(scope="session")
def checkers_db(checkers_db_folder: Path) -> EndgameDatabase:
    return EndgameDatabase.open(checkers_db_folder, max_pieces=4)


@pytest.fixture(scope="session")
def checkers_db5(checkers_db_folder: Path) -> EndgameDatabase:
    for folder in (checkers_db_folder, Path(os.environ.get("ADJUDICATOR_CHECKERS_DB5", checkers_db_folder))):
        if available_pieces(folder) >= 5:
            return EndgameDatabase.open(folder, max_pieces=5)
    missing("the 5-piece checkers database", "adjudicator build-db --pieces 5 (.ci/install.d)")


@pytest.fixture(scope="session")
def checkers_db6(checkers_db_folder: Path) -> EndgameDatabase:
    for folder in (checkers_db_folder, Path(os.environ.get("ADJUDICATOR_CHECKERS_DB6", checkers_db_folder))):
        if available_pieces(folder) >= 6:
            return EndgameDatabase.open(folder, max_pieces=6)
    missing("the 6-piece checkers database", "CI builds it (.ci/install.d/30-checkers-db.sh with CI set); elsewhere "
            "CHECKERS_DB_PIECES=6 bash .ci/install.d/30-checkers-db.sh, or adjudicator build-db --pieces 6")
