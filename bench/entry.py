"""Entering a record by taps: how often the scoresheet's move is among the entry board's candidates,
what that costs in taps, and how long one candidate list takes (issue 21).

    python bench/entry.py [--games N] [--nodes N] [--compare] [--game chess|checkers|both] [--tap-seconds S]

The games are real, not random: the 500 production lichess games of scalachess's test fixtures
(``tests/data/lichess-prod500.txt``, see tests/data/README.md), and the standard-chess games of the
python-chess sample corpus when it is built (``data/corpus/python-chess``, .ci/install.d/40-pgn-corpus.sh).

Each ply is entered as a TD would from the start, and the candidates are the product's own:
:class:`engines.chess.entry.Candidates` (the server's ``GET /claims/candidates``): moves returning to an
earlier position of the record first, then the opening book (Debian's gnuchess-book when installed),
then Stockfish MultiPV at ``--nodes`` nodes, then the heuristic.

The tap model:

- the move is candidate i and i is within the first K shown (K = ``SHOWN`` = 8 on the board): 1 tap;
- otherwise 2 taps: the piece, then its square (castling: the king's two squares);
- a promotion that is not among the candidates: +1 tap (the promotion dialog's piece);
- "two taps alone" is the same game with no candidates at all: 2 taps a ply, +1 per promotion.

Typing SAN on a phone's keyboard costs about 3.5 keystrokes a ply, plus keyboard switches. The goal is
at most 1.3 taps a ply. Milliseconds per candidate list are the server's time to rank one position
(book, engine, heuristic), without the HTTP round trip. ``--compare`` also prints the heuristic alone,
the engine alone and the book alone, measured on the same plies.
The machine may be shared: the timings then are an upper bound.

Model B (issue 37; bench/entry_model.py): the candidate row scanned at 0.15 s a place until the move is
found, then one tap, against the board's taps alone; the rank of the move in the row is printed beside
it. For chess it is printed twice: on the row best first (as it was) and on the split row the entry board
now shows (``adjudicator.chess.candidates.row_order``: the likeliest first, then by piece and square, a
search that skips the groups of other pieces), with model B's floor (every move at place 1).
Then destination-first entry (bench/entry_model.py: the destination tapped, the origin too when several
legal moves end there), alone and after a look at the row's place 1, and the top three drawn as arrows
(not built), against the board's taps.
``--game checkers`` (or ``both``, the default) prints the same for checkers, by bench/entry_checkers.py
(the page's own ranking under node) on its games, ``--games`` of each file.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

import chess
import chess.pgn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.chess.candidates import SHOWN, Candidate, rank, row_key, row_order  # noqa: E402
from adjudicator.chess.replay import RepetitionKey, repetition_key  # noqa: E402
from bench import entry_checkers  # noqa: E402
from bench.entry_model import ARROWS, TAP_SECONDS, destination_lines, model_lines, split_row_places  # noqa: E402
from engines.chess.entry import Candidates  # noqa: E402

LICHESS = ROOT / "tests" / "data" / "lichess-prod500.txt"
CORPUS = ROOT / "data" / "corpus" / "python-chess"
CORPUS_FILES = ("kasparov-deep-blue-1997.pgn", "molinari-bordais-1979.pgn", "nepomniachtchi-liren-game1.pgn",
                "anastasian-lewis.pgn")
"""The corpus's files of standard chess between people (the rest are variants, engine games or fuzz)."""

Ranker = Callable[[chess.Board, list[RepetitionKey], chess.Move | None], list[chess.Move]]


def games(limit: int | None) -> Iterator[tuple[str, list[chess.Move]]]:
    """(source, moves) of the real games, lichess first."""
    count = 0
    for number, line in enumerate(LICHESS.read_text().splitlines(), start=1):
        if limit is not None and count >= limit:
            return
        board = chess.Board()
        yield f"lichess #{number}", [board.push_san(token) for token in line.split()]
        count += 1
    for name in CORPUS_FILES:
        path = CORPUS / name
        if not path.exists():
            continue
        with path.open(encoding="utf-8-sig") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                if limit is not None and count >= limit:
                    return
                if game.headers.get("Variant", "Standard").lower() not in ("standard", "chess") or game.errors:
                    continue
                if "FEN" in game.headers:
                    continue
                players = f"{game.headers.get('White', '?')}-{game.headers.get('Black', '?')}"
                yield f"{name} {players}", list(game.mainline_moves())
                count += 1


def taps(rank_of_move: int | None, move: chess.Move, shown: int = SHOWN) -> int:
    """The tap model of the module's docstring."""
    if rank_of_move is not None and rank_of_move < shown:
        return 1
    return 2 + (1 if move.promotion else 0)


def origins(board: chess.Board, move: chess.Move) -> int:
    """The squares the legal moves ending on ``move``'s square start from: the pieces the entry board asks
    to choose among when that square is tapped first (castling: the king's square, as python-chess's)."""
    return len({m.from_square for m in board.legal_moves if m.to_square == move.to_square})


class Tally:
    def __init__(self) -> None:
        self.plies = 0
        self.taps = 0
        self.two_taps = 0
        self.within = {1: 0, 3: 0, 6: 0, SHOWN: 0}
        self.ms: list[float] = []
        self.ranks: list[int | None] = []
        self.board_taps: list[int] = []
        self.split: list[tuple[int, bool]] = []
        self.origins: list[int] = []
        self.promotions: list[bool] = []
        self.arrow_squares: list[bool] = []

    def add(self, ranked: list[chess.Move], move: chess.Move, ms: float, board: chess.Board) -> None:
        position = ranked.index(move) if move in ranked else None
        laid_out = row_order([Candidate(m, board.san(m), "heuristic") for m in ranked[:SHOWN]])
        self.split.append(split_row_places([row_key(c.san, c.move.uci()) for c in laid_out],
                                           row_key(board.san(move), move.uci()), SHOWN))
        self.ranks.append(position)
        self.origins.append(origins(board, move))
        self.promotions.append(move.promotion is not None)
        self.arrow_squares.append(any(m.to_square == move.to_square and m.from_square != move.from_square
                                      for m in ranked[:ARROWS]))
        self.board_taps.append(2 + (1 if move.promotion else 0))
        self.plies += 1
        self.taps += taps(position, move)
        self.two_taps += 2 + (1 if move.promotion else 0)
        for k in self.within:
            self.within[k] += position is not None and position < k
        self.ms.append(ms)

    def lines(self, name: str, tap: float = TAP_SECONDS) -> list[str]:
        n = max(1, self.plies)
        shares = ", ".join(f"first {k}: {100 * v / n:.1f} %" for k, v in sorted(self.within.items()))
        ms = sorted(self.ms) or [0.0]
        return [
            f"{name}",
            f"  taps per ply with candidates: {self.taps / n:.3f}   with two taps alone: {self.two_taps / n:.3f}",
            f"  plies whose move is among the candidates: {shares}",
            f"  ms per candidate list: median {statistics.median(ms):.1f}, p90 {ms[int(0.9 * (len(ms) - 1))]:.1f}, "
            f"mean {statistics.fmean(ms):.1f}",
            *model_lines(self.ranks, self.board_taps, SHOWN, tap, split=self.split),
            *destination_lines(self.ranks, self.origins, self.promotions, self.board_taps, tap,
                              arrow_squares=self.arrow_squares),
        ]


def walk(game: list[chess.Move], rankers: dict[str, Ranker], tallies: dict[str, Tally]) -> None:
    """Enter one game ply by ply; every ranker ranks every position."""
    board = chess.Board()
    history: list[RepetitionKey] = [repetition_key(board)]
    last: chess.Move | None = None
    for move in game:
        earlier = history[:-1]  # since the last capture or pawn move (a key holds the side to move)
        for name, ranker in rankers.items():
            started = time.perf_counter()
            ranked = ranker(board, earlier, last)
            tallies[name].add(ranked, move, (time.perf_counter() - started) * 1000, board)
        if board.is_zeroing(move):
            history = []
        board.push(move)
        history.append(repetition_key(board))
        last = move


def moves_of(candidates: tuple[Candidate, ...]) -> list[chess.Move]:
    return [c.move for c in candidates]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=None, help="at most this many games (default: all)")
    parser.add_argument("--nodes", type=int, default=None, help="the engine's nodes per list (default: the app's)")
    parser.add_argument("--compare", action="store_true", help="also the heuristic, the engine and the book alone")
    parser.add_argument("--game", choices=("chess", "checkers", "both"), default="both")
    parser.add_argument("--tap-seconds", type=float, default=TAP_SECONDS, help="model B's seconds a tap")
    args = parser.parse_args()
    if args.game in ("chess", "both"):
        chess_figures(args)
    if args.game in ("checkers", "both"):
        print("\ncheckers (the page's own ranking, 6 candidates shown)")
        entry_checkers.report("both", args.games, tap=args.tap_seconds)


def chess_figures(args: argparse.Namespace) -> None:
    """The chess figures of the module's docstring."""
    config = tomllib.loads((ROOT / "config.toml").read_text())
    if args.nodes is not None:
        config.setdefault("entry", {})["engine_nodes"] = args.nodes
    service = Candidates.from_config(config)
    try:
        if service.engine is not None:
            service.engine.top_moves(chess.Board(), service.nodes)  # the process starts outside the timings
        rankers: dict[str, Ranker] = {
            "product": lambda b, earlier, last: moves_of(service.rank(b, earlier, last)),
        }
        if args.compare:
            book = service.book
            rankers["heuristic alone (repetitions first)"] = lambda b, e, last: moves_of(rank(b, e, (), (), last))
            if (alone := service.engine) is not None:
                rankers["engine alone (repetitions first)"] = lambda b, e, last: moves_of(
                    rank(b, e, (), alone.top_moves(b, service.nodes), last))
            if book is not None:
                rankers["book, then heuristic"] = lambda b, e, last: moves_of(rank(b, e, book.moves(b), (), last))
            rankers["no repetition rule (book, engine, heuristic)"] = lambda b, e, last: moves_of(
                service.rank(b, [], last))
        tallies = {name: Tally() for name in rankers}
        count, sources = 0, set()
        for source, game in games(args.games):
            walk(game, rankers, tallies)
            count += 1
            sources.add(source.split(" ")[0])
        described = f"Stockfish, {service.nodes} nodes, MultiPV {SHOWN}" if service.engine else "none"
        print(f"{count} real games ({', '.join(sorted(sources))}), {tallies['product'].plies} plies; "
              f"{SHOWN} candidates shown; book: {service.book.path if service.book else 'none'}; engine: {described}")
        for name, tally in tallies.items():
            print("\n".join(tally.lines(name, args.tap_seconds)))
    finally:
        service.close()


if __name__ == "__main__":
    main()
