# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The endgame database's compiled inner loops (``egdb.h``): the pair solver, the successor check.

Built by ``setup.py`` when a C compiler is there (an optional extension); without it the
NumPy builder (:mod:`engines.checkers.build`) builds up to 5 pieces and six pieces are
out of reach (:data:`engines.checkers.fast.COMPILED` says which is there).

Slices are handed over as :class:`Tables`: for each material signature the packed
values and the distance bytes of a solved slice (numpy arrays, kept alive here).
"""

import numpy as np

from libc.stdint cimport int64_t, uint8_t, uint32_t
from libc.string cimport memset


cdef extern from "egdb.h":
    ctypedef uint8_t u8
    ctypedef int64_t i64

    ctypedef struct Ref:
        const u8 *values
        const u8 *dists
        int partial
        i64 nw, nrk, nwk

    ctypedef struct Codec:
        Ref ref
        i64 size

    ctypedef struct Cell:
        u8 s
        u8 d

    ctypedef struct Check:
        i64 positions, bad_values, bad_distances
        i64 counts[4]
        i64 first_bad[5]
        int nbad
        int error

    void egdb_init()
    void ref_init(Ref *r, int a, int c, int b, int d)
    int codec_init(Codec *cd, int a, int c, int b, int d)
    void codec_free(Codec *cd)
    i64 count_positions(const Codec *cd) nogil
    int solve_pair(const int *s, int sides, const Ref *table, Cell *cell, u8 **packed, i64 *counts) nogil
    void check_range(const Codec *cd, const Ref *own, const Ref *table, i64 lo, i64 hi, Check *out) nogil
    int full_range(const Codec *cd, const Ref *table, i64 lo, i64 hi, u8 *out) nogil
    i64 locate(uint32_t red, uint32_t white, uint32_t kings, int red_to_move, int *sig)
    int expand(uint32_t red, uint32_t white, uint32_t kings, int red_to_move, uint32_t *out, int *moves, int *jump)


COMPILED = True
egdb_init()

_ERRORS = {
    1: "out of memory",
    2: "a successor lies in a slice that is not loaded",
    3: "more jumps from one position than the kernel holds",
}


class KernelError(RuntimeError):
    """The compiled solver or check could not finish (a slice missing, memory)."""


cdef int _code(tuple s):
    return (s[0] << 9) | (s[1] << 6) | (s[2] << 3) | s[3]


cdef class Tables:
    """Solved slices the kernel may look positions up in, by material signature."""

    cdef Ref refs[4096]
    cdef list _keep

    def __cinit__(self):
        egdb_init()
        memset(self.refs, 0, sizeof(self.refs))
        self._keep = []

    def add(self, tuple s, values, dists, bint partial=False):
        """Slice ``s``: packed values and a distance byte a position (``partial``: lost quiet ones only)."""
        cdef const u8[::1] v = values
        cdef const u8[::1] d = dists
        cdef int code = _code(s)
        ref_init(&self.refs[code], s[0], s[1], s[2], s[3])
        self.refs[code].values = &v[0]
        self.refs[code].dists = &d[0]
        self.refs[code].partial = partial
        self._keep.append((values, dists))

    def has(self, tuple s):
        return self.refs[_code(s)].values != NULL

    def copy(self):
        """Another table with the same slices (slices added to it are not added here)."""
        cdef Tables other = Tables()
        other.refs = self.refs
        other._keep = list(self._keep)
        return other


def solve(Tables tables, tuple s, tuple partner):
    """Solve ``s`` with its colour-swapped partner (the same slice for a symmetric one).

    Returns, per slice (``s`` first): (packed values, full distances, distances kept on disk,
    (wins, losses, draws, positions)). The distances are views of one array of byte pairs
    (kept, full), 2 bytes an index, the solver's working memory. Every capture and crowning
    must lead into ``tables``.
    """
    cdef int sides = 1 if s == partner else 2
    cdef int sig[4]
    cdef Codec c0, c1
    for i in range(4):
        sig[i] = s[i]
    codec_init(&c0, s[0], s[1], s[2], s[3])
    codec_init(&c1, partner[0], partner[1], partner[2], partner[3])
    sizes = [c0.size, c1.size][:sides]
    codec_free(&c0)
    codec_free(&c1)
    n = sum(sizes)
    work = np.empty(2 * n, dtype=np.uint8)
    packed = [np.empty((size + 3) // 4, dtype=np.uint8) for size in sizes]
    counts = np.zeros(8, dtype=np.int64)
    cdef u8[::1] w = work
    cdef u8[::1] p0 = packed[0]
    cdef u8[::1] p1 = packed[len(packed) - 1]
    cdef i64[::1] cn = counts
    cdef u8 *outs[2]
    outs[0] = &p0[0]
    outs[1] = &p1[0]
    cdef int err
    with nogil:
        err = solve_pair(sig, sides, tables.refs, <Cell *>&w[0], outs, &cn[0])
    if err:
        raise KernelError(f"solving {s}: {_ERRORS.get(err, err)}")
    kept, full = work[0::2], work[1::2]
    out = []
    lo = 0
    for k, size in enumerate(sizes):
        out.append((packed[k], full[lo:lo + size], kept[lo:lo + size],
                    tuple(int(x) for x in counts[4 * k:4 * k + 4])))
        lo += size
    return out


def check(Tables tables, tuple s, i64 lo, i64 hi):
    """Every position of indices [lo, hi) of slice ``s`` (in ``tables``) against its successors.

    Returns (positions, bad values, bad distances, counts by value (win, loss, draw), first bad indices).
    """
    cdef Codec cd
    cdef Check out
    memset(&out, 0, sizeof(out))
    codec_init(&cd, s[0], s[1], s[2], s[3])
    hi = min(hi, cd.size)
    cdef const Ref *own = &tables.refs[_code(s)]
    if own.values == NULL:
        codec_free(&cd)
        raise KernelError(f"slice {s} is not loaded")
    with nogil:
        check_range(&cd, own, tables.refs, lo, hi, &out)
    codec_free(&cd)
    if out.error:
        raise KernelError(f"checking {s}: {_ERRORS.get(out.error, out.error)}")
    return (out.positions, out.bad_values, out.bad_distances, (out.counts[1], out.counts[2], out.counts[3]),
            [out.first_bad[i] for i in range(out.nbad)])


def full_distances(Tables tables, tuple s, i64 lo, i64 hi, out):
    """The distances of indices [lo, hi) of ``s`` (kept partially in ``tables``), followed where not kept."""
    cdef Codec cd
    cdef u8[::1] o = out
    codec_init(&cd, s[0], s[1], s[2], s[3])
    cdef int err
    with nogil:
        err = full_range(&cd, tables.refs, lo, hi, &o[0])
    codec_free(&cd)
    if err:
        raise KernelError(f"distances of {s}: {_ERRORS.get(err, err)}")


def positions(tuple s):
    """The positions of slice ``s``: its indices whose Red and White men do not overlap."""
    cdef Codec cd
    codec_init(&cd, s[0], s[1], s[2], s[3])
    n = count_positions(&cd)
    codec_free(&cd)
    return n


def children(uint32_t red, uint32_t white, uint32_t kings, bint red_to_move):
    """The positions after each legal move (one a jump path) of a game position, in absolute colours:
    a list of ((red, white, kings, red_to_move), its number of legal moves, whether they are jumps)."""
    cdef uint32_t out[4 * 256]
    cdef int moves[256]
    cdef int jump[256]
    cdef int n = expand(red, white, kings, red_to_move, out, moves, jump)
    if n < 0:
        raise KernelError("more jumps from one position than the kernel holds")
    return [((out[4 * i], out[4 * i + 1], out[4 * i + 2], bool(out[4 * i + 3])), moves[i], bool(jump[i]))
            for i in range(n)]


def canonical(uint32_t red, uint32_t white, uint32_t kings, bint red_to_move):
    """:func:`engines.checkers.index.canonical` of a game position: ((a, c, b, d), index), Red to move."""
    cdef int sig[4]
    cdef i64 index = locate(red, white, kings, red_to_move, sig)
    return (sig[0], sig[1], sig[2], sig[3]), index
