"""The two ways of reading a collection, held to the same output (tests/test_bulk_*.py).

The lenient reader alone: :func:`adjudicator.chess.movetext.split_games`, then
:func:`adjudicator.chess.replay.replay_game` (``adjudicator replay``) or
:func:`adjudicator.chess.collection.check_chess` (``check-games``). The bulk path:
:func:`adjudicator.chess.bulk.games.split_mixed`, then for a clean game
:func:`adjudicator.chess.bulk.games.read` / :func:`adjudicator.chess.bulk.check.check_clean`,
and where those decline, the lenient reader on the game the splitter gives.

A comparison first asserts that the bulk splitter gives the lenient splitter's games
(``RawGame`` equality: tags, move tokens with their offsets and clocks, result, notes),
then compares the output of every game the compiled reader answered for itself (a game it
declines goes to the same lenient code on the same game, so its output is the same).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.chess.bulk.check import check_clean
from adjudicator.chess.bulk.games import CleanGame, read, split_mixed
from adjudicator.chess.collection import check_chess
from adjudicator.chess.movetext import RawGame, split_games
from adjudicator.chess.replay import replay_game
from adjudicator.contract import ContractError
from adjudicator.rulesets import ChessRuleset
from adjudicator.services import MateOracle, Services


@dataclass
class Compared:
    """How many games were compared, and how many of them the compiled reader answered itself."""

    games: int = 0
    fast: int = 0

    def __iadd__(self, other: Compared) -> Compared:
        self.games += other.games
        self.fast += other.fast
        return self


def lenient_replay(game: RawGame, start_fen: str | None = None, language: str | None = None) -> dict[str, Any]:
    try:
        return replay_game(game, start_fen, language).to_json()
    except ContractError as exc:
        return exc.to_json()


def split_both(text: str, language: str | None = None) -> list[tuple[RawGame | CleanGame, RawGame]]:
    """Each game of the bulk splitter with the lenient splitter's, asserted the same game."""
    mixed = list(split_mixed(text, language))
    lenient = list(split_games(text))
    raws = [game.raw() if isinstance(game, CleanGame) else game for game in mixed]
    assert raws == lenient, f"the bulk splitter splits otherwise:\n{text[:3000]!r}"
    assert [game.offset for game in mixed] == [game.offset for game in lenient], "offsets differ"
    return list(zip(mixed, raws, strict=True))


def compare_replays(text: str, start_fen: str | None = None, language: str | None = None) -> Compared:
    """``adjudicator replay``'s lines both ways (asserted equal)."""
    done = Compared()
    for game, raw in split_both(text, language):
        done.games += 1
        if not isinstance(game, CleanGame):
            continue
        bulk = read(game, start_fen, language)
        if bulk is None:
            continue
        done.fast += 1
        expected = lenient_replay(raw, start_fen, language)
        assert bulk.to_json() == expected, (
            f"replay differs (start_fen={start_fen!r}, language={language!r}):\n"
            f"{game.text[game.scanned.start:game.scanned.end][:3000]}\nbulk:    {bulk.to_json()}\nlenient: {expected}"
        )
    return done


def compare_checks(text: str, ruleset: ChessRuleset, services: Services, screen: MateOracle | None) -> Compared:
    """``check-games``' findings both ways (asserted equal)."""
    done = Compared()
    for game, raw in split_both(text, ruleset.record.language or None):
        done.games += 1
        if not isinstance(game, CleanGame):
            continue
        bulk = check_clean(game, ruleset, services, screen)
        if bulk is None:
            continue
        done.fast += 1
        expected = check_chess(raw, ruleset, services, screen).to_json(0)
        assert bulk.to_json(0) == expected, (
            f"check differs ({ruleset.id}):\n{game.text[game.scanned.start:game.scanned.end][:3000]}\n"
            f"bulk:    {bulk.to_json(0)}\nlenient: {expected}"
        )
    return done
