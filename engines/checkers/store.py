"""The six-piece database on disk: the same slices, indices and values as the smaller files, in blocks.

The files up to 5 pieces (``wld-N.npz``) hold each slice as two whole arrays, loaded at
once. Six pieces are 2.56 billion indices: loaded whole they would take 3.2 GB. So
``wld-6.egdb`` keeps each slice's arrays cut into blocks of :data:`BLOCK` indices, each
block compressed on its own (zstandard), and a probe inflates only the block it needs
(the blocks last used are kept, up to :data:`CACHE_BYTES`).

What each block holds is what the ``.npz`` arrays hold, with one difference:

* ``values``: the 2-bit values, packed 4 a byte (win 1, loss 2, draw 3), as ``v_a_c_b_d``;
* ``distances``: the distance byte of each **lost position without a jump** (plies to
  the end of the game under best play, capped at 255); 0 for the others, whose
  distance follows from their successors: a position with a jump from its jumps (into
  5 pieces or fewer), a won one from its fastest lost successor (one ply on, where the
  distance is kept). That halves what the distances take on disk
  (:meth:`engines.checkers.database.EndgameDatabase.probe` follows them).

Layout: 8 bytes ``MAGIC``, the header's length (8 bytes, little-endian), the header
(JSON: block size, and for each slice its size, counts and where its two sections
start), then the sections. A section is ``blocks + 1`` offsets (little-endian 64-bit,
from the section's start) followed by the compressed blocks.
"""

from __future__ import annotations

import json
import mmap
import struct
import threading
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import zstandard

BLOCK = 1 << 14
"""Indices a block: 4 KB of packed values, 16 KB of distances before compression."""
MAGIC = b"CKRSDB02"
LEVEL = 3
"""zstandard level for the blocks (level 3 writes about 300 MB/s; higher levels gain little here)."""
CACHE_BYTES = 64 << 20
"""Inflated blocks kept for probes."""

U8 = npt.NDArray[np.uint8]


class StoreError(OSError):
    """A block file that is missing, truncated, or not one of ours."""


def key(s: tuple[int, int, int, int]) -> str:
    return "_".join(str(x) for x in s)


def _section(array: U8, block: int, compressor: zstandard.ZstdCompressor) -> Iterator[bytes]:
    """The section of one array (strided views too): offsets, then each block compressed."""
    blocks = [compressor.compress(array[lo:lo + block].tobytes()) for lo in range(0, len(array), block)]
    offsets = np.zeros(len(blocks) + 1, dtype="<u8")
    np.cumsum([len(b) for b in blocks], out=offsets[1:])
    offsets += offsets.nbytes
    yield offsets.tobytes()
    yield from blocks


def write_part(path: Path, values: U8, distances: U8, level: int = LEVEL) -> dict[str, int]:
    """One slice's two sections to ``path`` (written aside, then renamed); returns their lengths."""
    compressor = zstandard.ZstdCompressor(level=level)
    partial = path.with_suffix(path.suffix + ".tmp")
    lengths = {}
    with partial.open("wb") as out:
        for name, array, block in (("values", values, BLOCK // 4), ("distances", distances, BLOCK)):
            written = 0
            for chunk in _section(array, block, compressor):
                out.write(chunk)
                written += len(chunk)
            lengths[name] = written
    partial.replace(path)
    return lengths


def assemble(target: Path, parts: dict[str, tuple[Path, dict[str, Any]]], pieces: int) -> int:
    """Join the slices' parts into one file (written aside, then renamed); returns its size in bytes.

    ``parts`` maps a slice key to its part file and its header entry (size, counts, and the
    ``values`` and ``distances`` lengths :func:`write_part` returned).
    """
    header: dict[str, Any] = {"format": 2, "pieces": pieces, "block": BLOCK, "codec": "zstd",
                              "distances": "lost positions without a jump", "slices": {}}
    # offsets depend on the header's length: lay out with a placeholder, then fix the length
    entries = {k: dict(e) for k, (_, e) in sorted(parts.items())}
    start = 0
    while True:
        at = start
        for k in sorted(entries):
            entry = entries[k]
            entry["values_at"] = at
            at += int(entry["values"])
            entry["distances_at"] = at
            at += int(entry["distances"])
        encoded = json.dumps(header | {"slices": entries}, sort_keys=True).encode()
        if len(MAGIC) + 8 + len(encoded) == start:
            break
        start = len(MAGIC) + 8 + len(encoded)
    partial = target.with_suffix(target.suffix + ".tmp")
    with partial.open("wb") as out:
        out.write(MAGIC + struct.pack("<Q", len(encoded)) + encoded)
        for k in sorted(entries):
            with parts[k][0].open("rb") as part:
                while chunk := part.read(1 << 24):
                    out.write(chunk)
    partial.replace(target)
    return target.stat().st_size


class BlockFile:
    """A ``.egdb`` file opened for probes: blocks inflated on demand, the last used kept."""

    def __init__(self, path: Path, cache_bytes: int = CACHE_BYTES) -> None:
        self.path = path
        try:
            self._file = path.open("rb")
            self._map = mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as exc:
            raise StoreError(f"cannot open {path}: {exc}") from None
        if self._map[:len(MAGIC)] != MAGIC:
            raise StoreError(f"{path} is not a checkers database block file")
        (length,) = struct.unpack_from("<Q", self._map, len(MAGIC))
        try:
            self.header: dict[str, Any] = json.loads(self._map[len(MAGIC) + 8:len(MAGIC) + 8 + length])
        except ValueError as exc:
            raise StoreError(f"{path}: unreadable header: {exc}") from None
        self.block = int(self.header["block"])
        self.slices: dict[str, dict[str, Any]] = self.header["slices"]
        self._cache: OrderedDict[tuple[str, str, int], U8] = OrderedDict()
        self._cached = 0
        self._cache_bytes = cache_bytes
        self._lock = threading.Lock()
        self._decompressor = threading.local()

    def close(self) -> None:
        self._map.close()
        self._file.close()

    def _inflater(self) -> zstandard.ZstdDecompressor:
        inflater = getattr(self._decompressor, "d", None)
        if inflater is None:
            inflater = self._decompressor.d = zstandard.ZstdDecompressor()
        return inflater

    def _raw_block(self, k: str, section: str, b: int) -> bytes:
        entry = self.slices[k]
        at = int(entry[f"{section}_at"])
        lo, hi = struct.unpack_from("<QQ", self._map, at + 8 * b)
        return self._inflater().decompress(self._map[at + lo:at + hi])

    def _block(self, k: str, section: str, b: int) -> U8:
        cache_key = (k, section, b)
        with self._lock:
            found = self._cache.get(cache_key)
            if found is not None:
                self._cache.move_to_end(cache_key)
                return found
        block = np.frombuffer(self._raw_block(k, section, b), dtype=np.uint8)
        with self._lock:
            self._cache[cache_key] = block
            self._cached += block.nbytes
            while self._cached > self._cache_bytes and self._cache:
                _, dropped = self._cache.popitem(last=False)
                self._cached -= dropped.nbytes
        return block

    def value(self, k: str, index: int) -> int:
        """The 2-bit value at ``index`` of slice ``k``."""
        block = self._block(k, "values", index // self.block)
        within = index % self.block
        return (int(block[within >> 2]) >> ((within & 3) * 2)) & 3

    def distance(self, k: str, index: int) -> int:
        """The distance byte kept at ``index`` of slice ``k`` (0 where it is not kept)."""
        return int(self._block(k, "distances", index // self.block)[index % self.block])

    def arrays(self, k: str) -> tuple[U8, U8]:
        """A whole slice: (packed values, kept distances), inflated (for the builder and the check)."""
        entry = self.slices[k]
        size = int(entry["size"])
        blocks = (size + self.block - 1) // self.block
        values = np.empty((size + 3) // 4, dtype=np.uint8)
        distances = np.empty(size, dtype=np.uint8)
        for b in range(blocks):
            raw = self._raw_block(k, "values", b)
            values[b * self.block // 4:b * self.block // 4 + len(raw)] = np.frombuffer(raw, dtype=np.uint8)
            raw = self._raw_block(k, "distances", b)
            distances[b * self.block:b * self.block + len(raw)] = np.frombuffer(raw, dtype=np.uint8)
        return values, distances
