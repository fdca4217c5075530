"""The checkers endgame database on disk: saving, loading, probing, and winning lines.

Files in the data folder (``[checkers] database`` in ``config.toml``, default
``data/checkers-db/``), one per number of pieces:

* ``wld-N.npz``: for each slice ``a_c_b_d`` the values packed 4 a byte (2 bits a
  position: win, loss, draw for the side to move) as ``v_a_c_b_d``, and the
  distance in plies to the end of the game under best play (capped at 255) as
  ``d_a_c_b_d``; compressed (the values come to about 0.3-0.4 bits a position, the
  distances, which only serve to show a winning line, to about 2.5-3.5);
* ``wld-6.egdb``: six pieces, the same slices, indices and values, kept in compressed
  blocks read on demand, with the distances of lost positions without a jump only (the
  others follow from their successors; :mod:`engines.checkers.store`); built with the
  compiled kernel (:mod:`engines.checkers.compiled`);
* ``manifest.json``: which piece counts are complete, positions, build times.

A probe answers for the side to move; positions with more pieces than the database
holds, or with a man on its own crowning row, are not in it (``None``).
"""

from __future__ import annotations

import json
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from adjudicator.checkers.board import RED_KING_ROW, WHITE_KING_ROW, Move, Position
from engines.checkers import build as numpy_build
from engines.checkers import compiled
from engines.checkers.build import DRAW, LOSS, WIN, Solved, build, unpack_at
from engines.checkers.index import Slice, canonical, enumerate_slice, slices
from engines.checkers.store import BlockFile, StoreError

VALUE_NAMES = {WIN: "win", LOSS: "loss", DRAW: "draw"}
FORMAT = 1


class DatabaseError(OSError):
    """The endgame database folder is missing, incomplete, or unreadable."""


@dataclass(frozen=True)
class Probe:
    """A database value for the side to move."""

    value: str
    """``win``, ``loss`` or ``draw`` for the side to move."""
    plies: int
    """Plies to the end of the game under best play (0 for a draw; 255 means at least 255)."""

    @property
    def is_win(self) -> bool:
        return self.value == "win"

    @property
    def is_loss(self) -> bool:
        return self.value == "loss"

    @property
    def is_draw(self) -> bool:
        return self.value == "draw"


def _canonical(position: Position) -> tuple[Slice, int]:
    """:func:`engines.checkers.index.canonical`, by the compiled kernel where it is built."""
    if compiled.kernel is not None:
        found: tuple[Slice, int] = compiled.kernel.canonical(*position)
        return found
    return canonical(position)


def _key(s: Slice) -> str:
    return "_".join(str(x) for x in s)


def save(solved: Solved, folder: Path, pieces: int, seconds: float) -> None:
    """Write the slices with ``pieces`` pieces, and update the manifest."""
    folder.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = {}
    for s in slices(pieces):
        arrays[f"v_{_key(s)}"] = solved.values[s]
        arrays[f"d_{_key(s)}"] = solved.distances[s]
    target = folder / f"wld-{pieces}.npz"
    partial = folder / f"wld-{pieces}.partial.npz"
    np.savez_compressed(partial, **arrays)
    partial.replace(target)
    with zipfile.ZipFile(target) as archive:
        members = archive.infolist()
    manifest = read_manifest(folder)
    manifest.setdefault("pieces", {})[str(pieces)] = {
        "file": target.name,
        "bytes": target.stat().st_size,
        "wld_bytes": sum(m.compress_size for m in members if m.filename.startswith("v_")),
        "distance_bytes": sum(m.compress_size for m in members if m.filename.startswith("d_")),
        "seconds": round(seconds, 1),
        "slices": len(slices(pieces)),
    }
    manifest["format"] = FORMAT
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True))


def read_manifest(folder: Path) -> dict[str, Any]:
    path = folder / "manifest.json"
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise DatabaseError(f"cannot read {path}: {exc}") from None
    return data if isinstance(data, dict) else {}


def file_name(pieces: int) -> str:
    """The file a piece count is built into: whole arrays up to 5 pieces, blocks from 6 on."""
    return f"wld-{pieces}.egdb" if pieces >= compiled.STORED_PIECES else f"wld-{pieces}.npz"


def _files(folder: Path) -> dict[int, Path]:
    """The file of each piece count the manifest records as built."""
    built = read_manifest(folder).get("pieces", {})
    return {int(n): folder / str(entry.get("file", file_name(int(n)))) for n, entry in built.items()}


def available_pieces(folder: Path) -> int:
    """The largest N such that every count 2..N is built in ``folder`` (0 if none)."""
    files = _files(folder)
    n = 1
    while n + 1 in files and files[n + 1].exists():
        n += 1
    return n if n >= 2 else 0


def build_database(
    folder: Path, pieces: int, log: Callable[[str], None] | None = None, rebuild: bool = False, workers: int = 1,
    use_kernel: bool | None = None,
) -> dict[str, Any]:
    """Build (or complete) the database up to ``pieces`` pieces in ``folder``; returns the manifest.

    Piece counts already built are loaded, not rebuilt, unless ``rebuild``. ``workers``
    processes solve the independent slices of a piece count side by side. The compiled
    kernel solves them where it is built (``use_kernel``: None, where built; False, the
    NumPy builder, which gives the same files up to 5 pieces); six pieces need it.

    :raises compiled.KernelMissing: six pieces asked for without the compiled kernel.
    """
    kernel = compiled.COMPILED if use_kernel is None else use_kernel
    if pieces >= compiled.STORED_PIECES and not compiled.COMPILED:
        raise compiled.KernelMissing("six pieces need the compiled checkers kernel, which is not built here "
                                     "(run .ci/install with a C compiler)")
    have = 0 if rebuild else available_pieces(folder)
    if have >= pieces:
        return read_manifest(folder)
    solved = Solved()
    if have:
        load_into(solved, folder, min(have, compiled.STORED_PIECES - 1))
    for n in range(max(2, have + 1), pieces + 1):
        started = time.perf_counter()
        if n >= compiled.STORED_PIECES:
            figures = compiled.build_six(folder, solved, log, workers, n)
            save_stored(folder, n, figures, time.perf_counter() - started)
        else:
            (compiled.build_count if kernel else numpy_build.build_count)(solved, n, log, workers)
            save(solved, folder, n, time.perf_counter() - started)
        if log is not None:
            log(f"{n} pieces: done in {time.perf_counter() - started:.1f} s")
    return read_manifest(folder)


def save_stored(folder: Path, pieces: int, figures: dict[str, Any], seconds: float) -> None:
    """Record a block file (``wld-N.egdb``) in the manifest, with its counts by slice."""
    by_slice = figures["slices"]
    manifest = read_manifest(folder)
    manifest.setdefault("pieces", {})[str(pieces)] = {
        "file": f"wld-{pieces}.egdb",
        "bytes": int(figures["bytes"]),
        "wld_bytes": sum(int(e["values"]) for e in by_slice.values()),
        "distance_bytes": sum(int(e["distances"]) for e in by_slice.values()),
        "seconds": round(seconds, 1),
        "cpu_seconds": round(float(figures["cpu"]), 1),
        "slices": len(by_slice),
        "positions": sum(int(e["positions"]) for e in by_slice.values()),
        "counts": {k: {f: int(e[f]) for f in ("wins", "losses", "draws", "positions")}
                   for k, e in sorted(by_slice.items())},
    }
    manifest["format"] = FORMAT
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True))


def load_into(solved: Solved, folder: Path, pieces: int) -> None:
    """Every slice up to ``pieces`` (at most 5: the block files are read on demand) into ``solved``."""
    for n in range(2, pieces + 1):
        path = folder / f"wld-{n}.npz"
        try:
            with np.load(path) as data:
                for s in slices(n):
                    solved.values[s] = data[f"v_{_key(s)}"]
                    solved.distances[s] = data[f"d_{_key(s)}"]
        except (OSError, KeyError, ValueError) as exc:
            raise DatabaseError(f"cannot read {path}: {exc}") from None


_INFLATED: dict[Path, tuple[tuple[int, int], dict[Slice, tuple[np.ndarray, np.ndarray]]]] = {}
"""The slices of each ``.npz`` file read in this process, with the file's (mtime, size) when it was read."""


def inflated(path: Path, pieces: int) -> dict[Slice, tuple[np.ndarray, np.ndarray]]:
    """Every slice of the ``pieces``-piece file ``path``: (values, distances), read-only.

    Inflated once per process and file (five pieces are some 180 MB that take seconds to inflate, and each
    committee case opens the database anew); read again when the file changes (a rebuild).

    :raises DatabaseError: the file is missing or unreadable.
    """
    try:
        stat = path.stat()
    except OSError as exc:
        raise DatabaseError(f"cannot read {path}: {exc}") from None
    stamp = (stat.st_mtime_ns, stat.st_size)
    key = path.resolve()
    cached = _INFLATED.get(key)
    if cached is not None and cached[0] == stamp and all(s in cached[1] for s in slices(pieces)):
        return cached[1]
    found: dict[Slice, tuple[np.ndarray, np.ndarray]] = {}
    try:
        with np.load(path) as data:
            for s in slices(pieces):
                values, distances = data[f"v_{_key(s)}"], data[f"d_{_key(s)}"]
                values.flags.writeable = distances.flags.writeable = False  # shared by every database opened
                found[s] = (values, distances)
    except (OSError, KeyError, ValueError) as exc:
        raise DatabaseError(f"cannot read {path}: {exc}") from None
    _INFLATED[key] = (stamp, found)
    return found


class EndgameDatabase:
    """Probes for every position with up to :attr:`max_pieces` pieces; slices load on first use."""

    def __init__(
        self, solved: Solved, max_pieces: int, source: str = "memory", folder: Path | None = None
    ) -> None:
        self._solved = solved
        self._cache: dict[tuple[int, int, int, bool], Probe] = {}
        self.max_pieces = max_pieces
        self.source = source
        self._folder = folder
        self._loaded: set[int] = set(range(2, max_pieces + 1)) if folder is None else set()
        self._stores: dict[int, BlockFile] = {}

    def _ensure(self, pieces: int) -> None:
        """Load the file for ``pieces`` pieces on first use (a 5-piece file takes seconds to inflate;
        a block file is only opened: its blocks are read as probes need them)."""
        if pieces in self._loaded or self._folder is None:
            return
        path = _files(self._folder).get(pieces, self._folder / file_name(pieces))
        if path.suffix == ".egdb":
            try:
                self._stores[pieces] = BlockFile(path)
            except StoreError as exc:
                raise DatabaseError(str(exc)) from None
            self._loaded.add(pieces)
            return
        for s, (values, distances) in inflated(path, pieces).items():
            self._solved.values[s] = values
            self._solved.distances[s] = distances
        self._loaded.add(pieces)

    @classmethod
    def open(cls, folder: Path, max_pieces: int | None = None) -> EndgameDatabase:
        """The database built in ``folder`` (only up to ``max_pieces`` pieces, if given).

        :raises DatabaseError: nothing is built there.
        """
        pieces = available_pieces(folder)
        if not pieces:
            raise DatabaseError(f"no checkers endgame database in {folder} (run: adjudicator build-db --pieces 4)")
        if max_pieces is not None:
            pieces = min(pieces, max_pieces)
        return cls(Solved(), pieces, str(folder), folder)

    @classmethod
    def build_in_memory(cls, pieces: int) -> EndgameDatabase:
        return cls(build(pieces), pieces)

    @property
    def solved(self) -> Solved:
        """Every slice kept as whole arrays (up to 5 pieces), loaded (for the consistency pass)."""
        for pieces in range(2, self.max_pieces + 1):
            self._ensure(pieces)
        return self._solved

    @property
    def whole_pieces(self) -> int:
        """The largest piece count kept as whole arrays (the counts above it are block files)."""
        for pieces in range(2, self.max_pieces + 1):
            self._ensure(pieces)
        return max([n for n in range(1, self.max_pieces + 1) if n not in self._stores])

    def store(self, pieces: int) -> BlockFile | None:
        """The block file of a piece count kept in blocks."""
        self._ensure(pieces)
        return self._stores.get(pieces)

    def contains(self, position: Position) -> bool:
        """Whether the position is one the database answers for."""
        if position.piece_count > self.max_pieces or not position.red or not position.white:
            return False
        men = ~position.kings
        return not (position.red & men & RED_KING_ROW or position.white & men & WHITE_KING_ROW)

    def probe(self, position: Position) -> Probe | None:
        """Win, loss or draw for the side to move, with plies to the end; ``None`` if not in the database.

        A side with no piece, or no move, has lost (ACF: a player who cannot move loses).
        """
        if not position.mover:
            return Probe("loss", 0)
        if not position.opponent and position.piece_count <= self.max_pieces:
            return Probe("win", 0)
        if not self.contains(position):
            return None
        cached = self._cache.get(position.key)
        if cached is not None:
            return cached
        value = self._value(position)
        if value == DRAW:
            probe = Probe("draw", 0)
        elif position.piece_count in self._stores:
            probe = Probe(VALUE_NAMES[value], self._followed_plies(position, value))
        else:
            s, index = _canonical(position)
            probe = Probe(VALUE_NAMES[value], int(self._solved.distances[s][index]))
        if len(self._cache) > 2_000_000:
            self._cache.clear()
        self._cache[position.key] = probe
        return probe

    def value_of(self, position: Position) -> str | None:
        """``win``, ``loss`` or ``draw`` for the side to move, without the distance (a search's leaves need only
        this; the distance of a 6-piece position may take its successors); None if not in the database."""
        if not position.mover:
            return "loss"
        if not position.opponent and position.piece_count <= self.max_pieces:
            return "win"
        if not self.contains(position):
            return None
        cached = self._cache.get(position.key)
        if cached is not None:
            return cached.value
        return VALUE_NAMES[self._value(position)]

    def _value(self, position: Position) -> int:
        """WIN, LOSS or DRAW of a position in the database (both sides on the board)."""
        s, index = _canonical(position)
        pieces = position.piece_count
        self._ensure(pieces)
        store = self._stores.get(pieces)
        if store is not None:
            return store.value(_key(s), index)
        return (int(self._solved.values[s][index >> 2]) >> ((index & 3) * 2)) & 3

    def _followed_plies(self, position: Position, value: int) -> int:
        """The distance of a won or lost position in a block file: kept for a lost one without a jump,
        else from its successors (a jump's successors have fewer pieces; a won position's lost successor
        is one kept or one with a jump), as the builder computed it."""
        moves = position.legal_moves()
        if value == LOSS and (not moves or not moves[0].is_capture):
            store = self._stores[position.piece_count]
            s, index = _canonical(position)
            return store.distance(_key(s), index)
        after = [position.push(m) for m in moves]
        if value == WIN:
            lost = [a for a in after if self._is_lost(a)]
            plies = 1 + min(self._plies(a) for a in lost)
        else:
            plies = 1 + max(self._plies(a) for a in after)
        return min(plies, 255)

    def _is_lost(self, position: Position) -> bool:
        if not position.mover:
            return True
        return bool(position.opponent) and self._value(position) == LOSS

    def _plies(self, position: Position) -> int:
        probe = self.probe(position)
        assert probe is not None, position.fen()
        return probe.plies

    def best_move(self, position: Position) -> tuple[Move, Probe] | None:
        """A move keeping the value: the fastest win, the longest loss, or a drawing move."""
        own = self.probe(position)
        moves = position.legal_moves()
        if own is None or not moves:
            return None
        scored: list[tuple[tuple[int, int], Move, Probe]] = []
        for move in moves:
            after = self.probe(position.push(move))
            if after is None:
                return None
            if after.is_loss:
                key = (0, after.plies)  # a win for us: fastest first
            elif after.is_draw:
                key = (1, 0)
            else:
                key = (2, -after.plies)  # a loss for us: longest first
            scored.append((key, move, after))
        scored.sort(key=lambda item: item[0])
        return scored[0][1], scored[0][2]

    def line(self, position: Position, max_plies: int = 120) -> list[Move]:
        """The principal line under best play from ``position`` (to the end of a won game, if short enough)."""
        out: list[Move] = []
        seen: set[tuple[int, int, int, bool]] = set()
        while len(out) < max_plies and position.key not in seen:
            seen.add(position.key)
            chosen = self.best_move(position)
            if chosen is None:
                break
            move, after = chosen
            out.append(move)
            position = position.push(move)
            if after.is_draw:
                break
        return out

    def counts(self, pieces: int) -> dict[str, int]:
        """Wins, losses and draws for the side to move among the positions with exactly ``pieces`` pieces."""
        totals = np.zeros(4, dtype=np.int64)
        self._ensure(pieces)
        store = self._stores.get(pieces)
        if store is not None:  # counted by the builder, per slice, into the file's header
            entries = store.slices.values()
            return {name: sum(int(e[field]) for e in entries)
                    for name, field in (("win", "wins"), ("loss", "losses"), ("draw", "draws"))}
        for s in slices(pieces):
            valid = enumerate_slice(s)[4]
            totals += np.bincount(unpack_at(self._solved.values[s], np.nonzero(valid)[0]), minlength=4)
        return {"win": int(totals[WIN]), "loss": int(totals[LOSS]), "draw": int(totals[DRAW])}

    def identity(self) -> dict[str, Any]:
        return {"name": "adjudicator checkers WLD database", "pieces": self.max_pieces, "source": self.source}
