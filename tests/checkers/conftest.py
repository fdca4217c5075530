"""A ≤4-piece endgame database for the checkers tests: the one the set-up built, else built once here."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engines.checkers.database import EndgameDatabase, available_pieces, build_database

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
    return EndgameDatabase.open(checkers_db_folder)
