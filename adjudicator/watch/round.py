"""One copy of a live round, read against the previous one: the alerts raised and withdrawn, and the new state.

A copy is the source's files as read this time (a DGT LiveChess export: one PGN per round or per board,
rewritten in place; a PGN/PDN URL: one file). Only what changed is read again: a file whose text is the same
as last time is skipped whole, and within a changed file only the games whose text changed are replayed.

A game is the same game from one copy to the next by :func:`adjudicator.live.boards.game_key` (``GameId``,
else round and players), so a game that moved to another board keeps its alerts and raises ``board-moved``.
Its board is :func:`adjudicator.live.boards.board_of` (``[Board]``, else the ``b`` of ``[Round "r.b"]``).

- A game without its termination marker (``*`` while in play, or the result) was caught half-written: the last
  whole copy of it stands, and ``half-written`` is raised for the file; it is withdrawn when the file reads
  whole again.
- A copy whose moves are not the last copy's moves followed by new ones is a take-back (a DGT correction
  rewrites the last plies): ``take-back`` is raised at the first rewritten ply, and every alert that rested on
  the rewritten plies is withdrawn. More generally an alert is withdrawn when the game's new record no longer
  shows it (its kind, ply and action), so no alert stands on moves the source has taken back.

The watch informs; it never changes a record or a result.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from adjudicator.checkers import pdn
from adjudicator.chess.movetext import RawGame, split_games
from adjudicator.live.boards import LastClocks, board_of, board_sort_key, game_key, last_clocks, round_of, tag
from adjudicator.rulesets import CheckersRuleset, ChessRuleset
from adjudicator.services import MateOracle
from adjudicator.watch import checkers_game, chess_game
from adjudicator.watch.alerts import EVENTS, Alert, Finding

Game = Literal["chess", "checkers"]


@dataclass(frozen=True)
class SourceFile:
    """One file of the source as read this time."""

    name: str
    text: str


@dataclass(frozen=True)
class GameState:
    """A live game as last read whole: where it is, what it shows, and its standing alerts."""

    identity: str
    board: int | None
    round: int | None
    players: tuple[str | None, str | None]
    text: str
    moves: tuple[str, ...]
    alerts: tuple[Alert, ...] = ()
    last_move: str | None = None
    clocks: LastClocks = LastClocks(None, None)
    result: str | None = None
    file: str = ""


@dataclass(frozen=True)
class WatchState:
    """What the watch knows after a copy (treat as immutable: each copy gives a new one)."""

    games: Mapping[str, GameState] = field(default_factory=dict)
    files: Mapping[str, str] = field(default_factory=dict)
    """Each file's text as last read (a file read the same is skipped whole)."""
    half_written: Mapping[str, Alert] = field(default_factory=dict)
    """Standing ``half-written`` alerts, by file."""

    def boards(self) -> list[GameState]:
        """The games in board order (2 before 10; games without a board last)."""
        return sorted(self.games.values(), key=lambda g: board_sort_key(g.board, g.identity))

    def standing(self) -> list[Alert]:
        """Every alert standing now, in board order."""
        return [a for g in self.boards() for a in g.alerts]


@dataclass(frozen=True)
class Watcher:
    """The rules a round is watched under and the analysis available (dead positions: FIDE 5.2.2)."""

    ruleset: ChessRuleset | CheckersRuleset
    mate: MateOracle | None = None

    @property
    def game(self) -> Game:
        return "checkers" if isinstance(self.ruleset, CheckersRuleset) else "chess"

    def watch(self, files: Sequence[SourceFile], state: WatchState) -> tuple[list[Alert], WatchState]:
        """The alerts this copy raises or withdraws, in board order, and the state after it."""
        games = dict(state.games)
        half = dict(state.half_written)
        texts = dict(state.files)
        out: list[Alert] = []
        clocks_expected = any("%clk" in f.text for f in files)
        used: set[str] = set()
        for source in files:
            if state.files.get(source.name) == source.text and source.name not in half:
                used.update(g.identity for g in state.games.values() if g.file == source.name)
                continue
            whole = True
            for index, (text, tags, is_whole) in enumerate(self._split(source.text)):
                identity = _identity(tags, source.name, index, used, self.game)
                used.add(identity)
                previous = games.get(identity)
                if not is_whole:
                    whole = False
                    if source.name not in half:
                        board = board_of(tags)
                        alert = Alert(
                            board, round_of(tags), identity, _players(tags, self.game), "half-written",
                            "check-board", len(previous.moves) if previous else 0, (),
                            f"{source.name} was caught half-written (the game has no end marker): the last whole "
                            "copy stands until the file reads whole again.",
                        )
                        half[source.name] = alert
                        out.append(alert)
                    continue
                if previous is not None and previous.text == text:
                    continue
                new, alerts = self._read(text, tags, identity, source.name, previous, clocks_expected)
                games[identity] = new
                out.extend(alerts)
            if whole:
                texts[source.name] = source.text
                gone = half.pop(source.name, None)
                if gone is not None:
                    out.append(gone.withdrawn_copy(f"{source.name} reads whole again."))
        out.sort(key=lambda a: (board_sort_key(a.board, a.game), a.ply))
        return out, WatchState(games, texts, half)

    def _split(self, text: str) -> Iterable[tuple[str, list[tuple[str, str]], bool]]:
        """Each game's text, tags, and whether it is whole (it has its termination marker)."""
        if self.game == "checkers":
            for part in pdn.split_games(text):
                read = pdn.read_game(part)
                yield part, list(read.tags), read.result is not None
            return
        raws: list[RawGame] = list(split_games(text))
        for i, raw in enumerate(raws):
            end = raws[i + 1].offset if i + 1 < len(raws) else len(text)
            yield text[raw.offset:end], list(raw.tags), raw.result is not None

    def _read(
        self, text: str, tags: list[tuple[str, str]], identity: str, file: str, previous: GameState | None,
        clocks_expected: bool,
    ) -> tuple[GameState, list[Alert]]:
        board, round_, players = board_of(tags), round_of(tags), _players(tags, self.game)
        moves, found, last_move, clocks, result = self._facts(text, clocks_expected)
        events: list[Alert] = []
        standing: list[Alert] = []
        if previous is not None:
            standing = [a for a in previous.alerts if a.kind in EVENTS]
            if previous.board is not None and board is not None and previous.board != board:
                events.append(Alert(board, round_, identity, players, "board-moved", "check-board", len(moves), (),
                                    f"The game moved from board {previous.board} to board {board} (matched by "
                                    f"{'GameId' if identity.startswith('id:') else 'round and players'})."))
            common = _common_prefix(previous.moves, moves)
            if common < len(previous.moves):
                taken = len(previous.moves) - common
                events.append(Alert(
                    board, round_, identity, players, "take-back", "check-board", common + 1, (),
                    f"The source rewrote the last {taken} plies from ply {common + 1}: a take-back or a correction on "
                    "the board. The alerts that rested on them are withdrawn.",
                ))
        current = [Alert.of(f, board, round_, identity, players) for f in found]
        keys = {a.key for a in current}
        raised: list[Alert] = [*events]
        old = {a.key: a for a in (previous.alerts if previous is not None else ()) if a.kind not in EVENTS}
        for key, alert in old.items():
            if key not in keys:
                why = "the source took back the moves it rested on" if alert.ply > _common_prefix(
                    previous.moves if previous else (), moves) else "the game's new record no longer shows it"
                raised.append(replace(alert.withdrawn_copy(f"Withdrawn: {why}."), board=board))
        for alert in current:
            if alert.key not in old:
                raised.append(alert)
        kept = [*standing, *events, *current]
        new = GameState(identity, board, round_, players, text, moves, tuple(kept), last_move, clocks, result, file)
        return new, raised

    def _facts(
        self, text: str, clocks_expected: bool
    ) -> tuple[tuple[str, ...], list[Finding], str | None, LastClocks, str | None]:
        if isinstance(self.ruleset, CheckersRuleset):
            read = pdn.read_game(text)
            creplay, cfound = checkers_game.findings(read, self.ruleset, clocks_expected)
            moves = tuple(m.text for m in read.moves)
            cclocks = last_clocks([checkers_game.clock_of(m.comment) for m in read.moves])
            last = creplay.plies[-1].label if creplay is not None and creplay.plies else None
            return moves, cfound, last, cclocks, pdn.RESULTS.get(read.result or "")
        raw = next(iter(split_games(text)), RawGame())
        replay, found = chess_game.findings(raw, self.ruleset, self.mate, clocks_expected)
        moves = tuple(m.text for m in raw.moves)
        clocks = last_clocks([m.clock for m in raw.moves])
        label = replay.label(len(replay.plies)) if replay is not None and replay.plies else None
        return moves, found, label, clocks, chess_game.result_of(raw)


def _players(tags: Sequence[tuple[str, str]], game: Game) -> tuple[str | None, str | None]:
    first, second = ("Black", "White") if game == "checkers" else ("White", "Black")
    return tag(tags, first), tag(tags, second)


def _identity(tags: Sequence[tuple[str, str]], file: str, index: int, used: set[str], game: Game) -> str:
    """The game's identity in this copy: GameId, else round and players, else its file and place."""
    first, second = ("Black", "White") if game == "checkers" else ("White", "Black")
    key = game_key(tags, first, second)
    if key.game_id is not None:
        identity = f"id:{key.game_id}"
    elif key.is_known:
        identity = f"r{key.round}:{key.players[0] or '?'}|{key.players[1] or '?'}"
    else:
        board = board_of(tags)
        identity = f"{file}#b{board}" if board is not None else f"{file}#{index + 1}"
    return identity if identity not in used else f"{identity}@{file}#{index + 1}"


def _common_prefix(a: Sequence[str], b: Sequence[str]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n
