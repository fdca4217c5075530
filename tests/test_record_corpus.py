"""The reader on real collections: at least 99.9% of the games replay without error.

Corpus: ``data/corpus/`` (the set-up step ``.ci/install.d/40-pgn-corpus.sh`` puts
python-chess's PGN test files there, from PyPI) and ``$ADJUDICATOR_PGN_CORPUS`` (a
folder of .pgn files). Nothing beside the project is read. At most ``$ADJUDICATOR_CORPUS_LIMIT``
games (default 3000), spread evenly over the corpus; ``bench/corpus.py`` runs it all.
Where python-chess also reads a game cleanly, both must end in the same position.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import chess.pgn
import pytest

from adjudicator.chess.movetext import RawGame, split_games
from adjudicator.chess.replay import UnsupportedVariant, replay_game
from adjudicator.contract import ContractError

ROOT = Path(__file__).resolve().parent.parent


def corpus_files() -> list[Path]:
    roots = [ROOT / "data" / "corpus"]
    env = os.environ.get("ADJUDICATOR_PGN_CORPUS")
    if env:
        roots.insert(0, Path(env))
    files: list[Path] = []
    for root in roots:
        if root.is_dir():
            files.extend(sorted(root.rglob("*.pgn")))
    return files


def sample(files: list[Path], limit: int) -> list[tuple[str, RawGame, str]]:
    games = []
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        games.extend((path.name, game, text) for game in split_games(text) if game.moves)
    step = max(1, len(games) // limit)
    return games[::step][:limit]


@pytest.mark.slow
def test_the_reader_replays_at_least_999_per_mille_of_the_corpus() -> None:
    files = corpus_files()
    if not files:
        pytest.fail("no PGN corpus in data/corpus: run bash .ci/install.d/40-pgn-corpus.sh", pytrace=False)
    games = sample(files, int(os.environ.get("ADJUDICATOR_CORPUS_LIMIT", "3000")))
    replayed = counted = compared = 0
    failures = []
    for name, game, text in games:
        try:
            replay = replay_game(game)
        except UnsupportedVariant:
            continue
        except ContractError as exc:
            counted += 1
            failures.append(f"{name}: {exc.message}")
            continue
        counted += 1
        if replay.unreadable:
            failures.append(f"{name}: {replay.unreadable[0]}")
            continue
        replayed += 1
        end = text.find("\n[Event ", game.offset + 1)
        theirs = chess.pgn.read_game(io.StringIO(text[game.offset: end if end > 0 else None]))
        if theirs is not None and not theirs.errors and len(list(theirs.mainline_moves())) == len(replay.plies):
            compared += 1
            assert theirs.end().board().board_fen() == replay.final_board.board_fen(), name
    assert counted > 0
    assert replayed / counted >= 0.999, (replayed, counted, failures[:10])
    assert compared >= 0.9 * replayed
