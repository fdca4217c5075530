/* The checkers endgame database's inner loops in C: moves, indices, the retrograde solver, the checks.
 *
 * The same rules, indexing and values as the NumPy builder (engines/checkers/build.py,
 * index.py, moves.py), which this code reproduces bit for bit (tests/checkers/test_checkers_kernel.py):
 *
 * - positions are Red to move, four 32-bit boards (Red men, Red kings, White men, White
 *   kings), bit s-1 is square s; a successor is turned back to Red to move by rotating the
 *   board (bit i -> 31-i) and swapping the colours;
 * - ACF Standard Laws: jumps are compulsory and a multiple jump is completed; men move and
 *   jump forward only (directions 0 and 1 for Red, towards the higher squares), kings in the
 *   four directions; a man reaching the king row is crowned and its move ends, mid-jump too;
 *   a side with no move (or no piece) has lost;
 * - a slice (a, c, b, d) is a count of Red men, Red kings, White men, White kings; its index
 *   is the colex rank of the Red men among squares 1-28, of the White men among 5-32, then
 *   of the Red kings among the squares the men leave free, then of the White kings among
 *   what is left;
 * - values are 2 bits (1 win, 2 loss, 3 draw for the side to move), distances are plies to
 *   the end of the game under best play, capped at 255.
 *
 * The solver keeps 2 bytes a position (a state byte and a distance byte) and a bitmap per
 * distance layer of which 64-position blocks hold positions of that layer.
 */
#ifndef EGDB_H
#define EGDB_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t i64;

enum { V_UNKNOWN = 0, V_WIN = 1, V_LOSS = 2, V_DRAW = 3 };

#define KING_ROW 0xF0000000u   /* squares 29-32: where a Red man is crowned */
#define NONWIN 0x80u           /* unknown: a crowning move leads to a position not lost for the mover */
#define EXITWIN 0x40u          /* unknown, with NONWIN: a crowning move wins (distance byte: that win's) */
#define DUE (NONWIN | EXITWIN)  /* both bits: a winning crowning move (EXITWIN alone is a bit of the count) */
#define JUMPED 0x04u           /* settled: the position has a jump (its distance follows from the jumps) */
#define COUNT_SHIFT 2
#define COUNT_MASK 0x7Cu       /* unknown, without NONWIN: quiet moves to positions not yet won */
#define MAX_SUCC 256
#define CODE(a, c, b, d) (((a) << 9) | ((c) << 6) | ((b) << 3) | (d))
#define NCODES 4096

static i64 COMB[33][8];
static u32 COLEX8[4][256][8];  /* [byte][bits of the byte][bits below it]: that byte's part of a colex rank */
static int egdb_ready = 0;

static void egdb_init(void) {
    if (egdb_ready) return;
    for (int n = 0; n <= 32; n++)
        for (int k = 0; k < 8; k++)
            COMB[n][k] = k == 0 ? 1 : (n == 0 ? 0 : COMB[n - 1][k - 1] + COMB[n - 1][k]);
    for (int k = 0; k < 4; k++)
        for (int m = 0; m < 256; m++)
            for (int below = 0; below < 8; below++) {
                i64 r = 0;
                int o = below;
                for (int b = 0; b < 8; b++)
                    if (m >> b & 1) { o++; r += o < 8 ? COMB[8 * k + b][o] : 0; }
                COLEX8[k][m][below] = (u32)r;
            }
    egdb_ready = 1;
}

#if defined(__POPCNT__)
static inline int popc(u32 x) { return __builtin_popcount(x); }
#else
static inline int popc(u32 x) {  /* without the instruction, GCC would call a library function */
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
#endif
static inline int ctz(u32 x) { return __builtin_ctz(x); }

static inline u32 step0(u32 b) { return ((b & 0x0F0F0F0Fu) << 4) | ((b & 0x00E0E0E0u) << 3); }
static inline u32 step1(u32 b) { return ((b & 0x07070707u) << 5) | ((b & 0x00F0F0F0u) << 4); }
static inline u32 step2(u32 b) { return ((b & 0x0F0F0F00u) >> 4) | ((b & 0xE0E0E0E0u) >> 5); }
static inline u32 step3(u32 b) { return ((b & 0x07070700u) >> 3) | ((b & 0xF0F0F0F0u) >> 4); }

/* one step in direction d: 0 down-left, 1 down-right (Red's forward), 2 up-left, 3 up-right */
static inline u32 stepd(u32 b, int d) {
    switch (d) {
    case 0: return step0(b);
    case 1: return step1(b);
    case 2: return step2(b);
    default: return step3(b);
    }
}

static inline u32 flip32(u32 x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
    x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
    return (x >> 16) | (x << 16);
}

typedef struct { u32 rm, rk, wm, wk; } Pos;

/* after Red's move: White to move, turned into a Red-to-move position */
static inline Pos turned(u32 rm, u32 rk, u32 wm, u32 wk) {
    Pos p = {flip32(wm), flip32(wk), flip32(rm), flip32(rk)};
    return p;
}

/* ---------------------------------------------------------------- slices and indices */

typedef struct {
    const u8 *values;  /* packed 2-bit values (NULL: the slice is not loaded) */
    const u8 *dists;   /* a distance byte a position */
    int partial;       /* distances kept only for lost positions without a jump (the rest follow) */
    i64 nw, nrk, nwk;  /* C(28, b), C(32 - a - b, c), C(32 - a - b - c, d) */
} Ref;

static void ref_init(Ref *r, int a, int c, int b, int d) {
    r->nw = COMB[28][b];
    r->nrk = COMB[32 - a - b][c];
    r->nwk = COMB[32 - a - b - c][d];
}

/* colex rank of the bits of x (at most 7 bits), a byte at a time */
static inline i64 colex(u32 x) {
    u32 b0 = x & 255, b1 = (x >> 8) & 255, b2 = (x >> 16) & 255, b3 = x >> 24;
    int c1 = popc(b0), c2 = c1 + popc(b1), c3 = c2 + popc(b2);
    return (i64)COLEX8[0][b0][0] + COLEX8[1][b1][c1 & 7] + COLEX8[2][b2][c2 & 7] + COLEX8[3][b3][c3 & 7];
}

/* colex rank of the bits of x, the squares of occ below each bit not counted */
static inline i64 colex_in(u32 x, u32 occ) {
    i64 r = 0;
    int i = 0;
    while (x) {
        int sq = ctz(x);
        r += COMB[sq - popc(occ & ((x & -x) - 1))][++i];
        x &= x - 1;
    }
    return r;
}

static inline i64 rank_in(const Ref *r, Pos p) {
    u32 men = p.rm | p.wm;
    i64 idx = colex(p.rm) * r->nw + colex(p.wm >> 4);
    idx = idx * r->nrk + colex_in(p.rk, men);
    return idx * r->nwk + colex_in(p.wk, men | p.rk);
}

static inline int code_of(Pos p) { return CODE(popc(p.rm), popc(p.rk), popc(p.wm), popc(p.wk)); }

static inline int value_at(const u8 *packed, i64 idx) { return (packed[idx >> 2] >> ((idx & 3) * 2)) & 3; }

/* the k-subset of 0..n-1 with colex rank r, as a mask */
static u32 colex_unrank(i64 r, int n, int k) {
    u32 m = 0;
    int p = n - 1;
    for (int i = k; i >= 1; i--) {
        while (COMB[p][i] > r) p--;
        r -= COMB[p][i];
        m |= 1u << p;
        p--;
    }
    return m;
}

typedef struct {
    Ref ref;
    int a, c, b, d;
    i64 size, kings;
    u64 div_kings, div_nw, div_nwk;  /* fast 32-bit division by kings, nw, nwk (0: by 1) */
    u32 *rm_masks, *wm_masks;
    u8 *rk_sets, *wk_sets;  /* the king sets' positions among the free squares (c and d bytes each) */
} Codec;

/* Lemire's fast division of a 32-bit number: n / d == (n * M) >> 64 with M = 2^64 / d rounded up */
static inline u64 fastdiv_of(i64 d) { return d > 1 ? UINT64_C(0xFFFFFFFFFFFFFFFF) / (u64)d + 1 : 0; }
static inline u32 fastdiv(u32 n, u64 m) { return m ? (u32)(((__uint128_t)m * n) >> 64) : n; }

static int codec_init(Codec *cd, int a, int c, int b, int d) {
    memset(cd, 0, sizeof *cd);
    cd->a = a; cd->c = c; cd->b = b; cd->d = d;
    ref_init(&cd->ref, a, c, b, d);
    int f = 32 - a - b;
    i64 nr = COMB[28][a];
    cd->kings = cd->ref.nrk * cd->ref.nwk;
    cd->size = nr * cd->ref.nw * cd->kings;
    if (cd->size >= ((i64)1 << 32)) return -1;  /* unrank divides in 32 bits */
    cd->div_kings = fastdiv_of(cd->kings);
    cd->div_nw = fastdiv_of(cd->ref.nw);
    cd->div_nwk = fastdiv_of(cd->ref.nwk);
    cd->rm_masks = malloc(sizeof(u32) * nr);
    cd->wm_masks = malloc(sizeof(u32) * cd->ref.nw);
    cd->rk_sets = malloc((size_t)(cd->ref.nrk * (c ? c : 1)));
    cd->wk_sets = malloc((size_t)(cd->ref.nwk * (d ? d : 1)));
    if (!cd->rm_masks || !cd->wm_masks || !cd->rk_sets || !cd->wk_sets) return -1;
    for (i64 r = 0; r < nr; r++) cd->rm_masks[r] = colex_unrank(r, 28, a);
    for (i64 r = 0; r < cd->ref.nw; r++) cd->wm_masks[r] = colex_unrank(r, 28, b) << 4;
    for (i64 r = 0; r < cd->ref.nrk; r++)
        for (u32 m = colex_unrank(r, f, c), j = 0; m; m &= m - 1) cd->rk_sets[r * c + j++] = (u8)ctz(m);
    for (i64 r = 0; r < cd->ref.nwk; r++)
        for (u32 m = colex_unrank(r, f - c, d), j = 0; m; m &= m - 1) cd->wk_sets[r * d + j++] = (u8)ctz(m);
    return 0;
}

static void codec_free(Codec *cd) {
    free(cd->rm_masks); free(cd->wm_masks); free(cd->rk_sets); free(cd->wk_sets);
    cd->rm_masks = cd->wm_masks = NULL;
    cd->rk_sets = cd->wk_sets = NULL;
}

/* the positions of a slice (indices whose Red and White men do not overlap) */
static i64 count_positions(const Codec *cd) {
    i64 n = 0, nr = COMB[28][cd->a];
    for (i64 red = 0; red < nr; red++)
        for (i64 white = 0; white < cd->ref.nw; white++)
            if (!(cd->rm_masks[red] & cd->wm_masks[white])) n += cd->kings;
    return n;
}

/* the squares of the positions ``at`` (ascending) among the squares not in ``taken`` (ascending, n of them) */
static inline u32 place(const u8 *at, int k, const int *taken, int n) {
    u32 out = 0;
    for (int i = 0; i < k; i++) {
        int sq = at[i];
        for (int j = 0; j < n; j++) sq += taken[j] <= sq;
        out |= 1u << sq;
    }
    return out;
}

/* the position at idx; 0 when the index is not a position (Red and White men overlap) */
static inline int unrank(const Codec *cd, i64 idx, Pos *p) {
    /* slices up to 6 pieces have fewer than 2^32 indices: 32-bit divisions, by multiplication */
    u32 i32 = (u32)idx, kings = (u32)cd->kings, nw = (u32)cd->ref.nw, nwk = (u32)cd->ref.nwk;
    u32 men = fastdiv(i32, cd->div_kings), k = i32 - men * kings;
    u32 red = fastdiv(men, cd->div_nw), white = men - red * nw;
    u32 rm = cd->rm_masks[red], wm = cd->wm_masks[white];
    if (rm & wm) return 0;
    p->rm = rm;
    p->wm = wm;
    if (!(cd->c | cd->d)) { p->rk = p->wk = 0; return 1; }
    u32 rki = fastdiv(k, cd->div_nwk), wki = k - rki * nwk;
    int taken[12], n = 0;
    for (u32 m = rm | wm; m; m &= m - 1) taken[n++] = ctz(m);
    u32 rk = place(cd->rk_sets + (size_t)rki * cd->c, cd->c, taken, n);
    /* white kings: among the squares left by the men and the red kings, in order */
    int merged[12], t = 0;
    for (u32 m = rm | wm | rk; m; m &= m - 1) merged[t++] = ctz(m);
    p->rk = rk;
    p->wk = place(cd->wk_sets + (size_t)wki * cd->d, cd->d, merged, t);
    return 1;
}

/* ---------------------------------------------------------------- moves */

typedef struct {
    Pos s[MAX_SUCC];
    int n;
    int overflow;
} Succ;

static inline void push_succ(Succ *out, Pos p) {
    if (out->n < MAX_SUCC) out->s[out->n++] = p;
    else out->overflow = 1;
}

static inline int has_jump(Pos p) {
    u32 opp = p.wm | p.wk, empty = ~(p.rm | p.rk | p.wm | p.wk), mover = p.rm | p.rk;
    return ((step0(step0(mover) & opp) & empty) | (step1(step1(mover) & opp) & empty)
            | (step2(step2(p.rk) & opp) & empty) | (step3(step3(p.rk) & opp) & empty)) != 0;
}

static void jump_end(const Pos *p, u32 at, u32 cap, int king, u32 origin, Succ *out) {
    u32 red = ((p->rm | p->rk) & ~origin) | at;
    u32 rk = (p->rk & ~origin) | (king ? at : 0);
    push_succ(out, turned(red & ~rk, rk, p->wm & ~cap, p->wk & ~cap));
}

static void jump_on(const Pos *p, u32 at, u32 cap, int king, u32 origin, u32 empty, Succ *out) {
    u32 opp = p->wm | p->wk;
    int extended = 0;
    for (int d = 0; d < (king ? 4 : 2); d++) {
        u32 over = stepd(at, d) & opp & ~cap;
        if (!over) continue;
        u32 land = stepd(over, d) & empty;
        if (!land) continue;
        extended = 1;
        if (!king && (land & KING_ROW)) jump_end(p, land, cap | over, 1, origin, out);  /* crowned: the move ends */
        else jump_on(p, land, cap | over, king, origin, empty, out);
    }
    if (!extended && cap) jump_end(p, at, cap, king, origin, out);
}

/* every complete jump of Red (one successor per path) */
static void jumps(Pos p, Succ *out) {
    u32 occupied = p.rm | p.rk | p.wm | p.wk;
    for (u32 m = p.rm; m; m &= m - 1) {
        u32 o = m & -m;
        jump_on(&p, o, 0, 0, o, ~occupied | o, out);
    }
    for (u32 m = p.rk; m; m &= m - 1) {
        u32 o = m & -m;
        jump_on(&p, o, 0, 1, o, ~occupied | o, out);
    }
}

/* every quiet move of Red; crowning moves first, their number in *crowning */
static void quiet(Pos p, Succ *out, int *crowning) {
    u32 empty = ~(p.rm | p.rk | p.wm | p.wk);
    u32 t0 = step0(p.rm) & empty, t1 = step1(p.rm) & empty;
    int n0 = out->n;
    for (u32 m = t0 & KING_ROW; m; m &= m - 1) {
        u32 to = m & -m;
        push_succ(out, turned(p.rm ^ step3(to), p.rk | to, p.wm, p.wk));
    }
    for (u32 m = t1 & KING_ROW; m; m &= m - 1) {
        u32 to = m & -m;
        push_succ(out, turned(p.rm ^ step2(to), p.rk | to, p.wm, p.wk));
    }
    *crowning = out->n - n0;
    for (u32 m = t0 & ~KING_ROW; m; m &= m - 1) {
        u32 to = m & -m;
        push_succ(out, turned(p.rm ^ step3(to) ^ to, p.rk, p.wm, p.wk));
    }
    for (u32 m = t1 & ~KING_ROW; m; m &= m - 1) {
        u32 to = m & -m;
        push_succ(out, turned(p.rm ^ step2(to) ^ to, p.rk, p.wm, p.wk));
    }
    for (int d = 0; d < 4; d++) {
        for (u32 m = stepd(p.rk, d) & empty; m; m &= m - 1) {
            u32 to = m & -m;
            push_succ(out, turned(p.rm, p.rk ^ stepd(to, 3 - d) ^ to, p.wm, p.wk));
        }
    }
}

/* the crowning moves of Red (they lead out of the slice); returns their number */
static inline int crowning_moves(Pos p, Succ *out) {
    u32 empty = ~(p.rm | p.rk | p.wm | p.wk);
    for (u32 m = step0(p.rm) & empty & KING_ROW; m; m &= m - 1) {
        u32 to = m & -m;
        push_succ(out, turned(p.rm ^ step3(to), p.rk | to, p.wm, p.wk));
    }
    for (u32 m = step1(p.rm) & empty & KING_ROW; m; m &= m - 1) {
        u32 to = m & -m;
        push_succ(out, turned(p.rm ^ step2(to), p.rk | to, p.wm, p.wk));
    }
    return out->n;
}

/* the positions (Red to move) with a quiet move that does not crown into p */
#define BACK_STEPS(pieces, BACK, FWD, make)                      \
    for (u32 m = BACK(pieces) & empty; m; m &= m - 1) {          \
        u32 frm = m & -m, to = FWD(frm);                         \
        out[n++] = make;                                         \
    }

static inline int unmoves(Pos p, Pos *out, int *man_moves) {
    Pos q = turned(p.rm, p.rk, p.wm, p.wk);
    u32 empty = ~(q.rm | q.rk | q.wm | q.wk);
    int n = 0;
    /* a man steps back against directions 0 and 1 (first); a king in any direction */
    BACK_STEPS(q.rm, step3, step0, ((Pos){q.rm ^ to ^ frm, q.rk, q.wm, q.wk}))
    BACK_STEPS(q.rm, step2, step1, ((Pos){q.rm ^ to ^ frm, q.rk, q.wm, q.wk}))
    *man_moves = n;
    BACK_STEPS(q.rk, step3, step0, ((Pos){q.rm, q.rk ^ to ^ frm, q.wm, q.wk}))
    BACK_STEPS(q.rk, step2, step1, ((Pos){q.rm, q.rk ^ to ^ frm, q.wm, q.wk}))
    BACK_STEPS(q.rk, step1, step2, ((Pos){q.rm, q.rk ^ to ^ frm, q.wm, q.wk}))
    BACK_STEPS(q.rk, step0, step3, ((Pos){q.rm, q.rk ^ to ^ frm, q.wm, q.wk}))
    return n;
}

/* ---------------------------------------------------------------- moves of a game position, for the searches */

/* A position as the game has it (absolute colours, either side to move) in the form the moves use: the side to
 * move as Red, the board turned when White is to move. */
static inline Pos as_mover(u32 red, u32 white, u32 kings, int red_to_move) {
    Pos p = {red & ~kings, red & kings, white & ~kings, white & kings};
    return red_to_move ? p : turned(p.rm, p.rk, p.wm, p.wk);
}

/* The legal moves' positions (one a jump path), in absolute colours: out[4 i..4 i + 3] = red, white, kings,
 * red to move; with each its own number of legal moves and whether they are jumps. Returns the number, -1 when
 * more than MAX_SUCC. */
static int expand(u32 red, u32 white, u32 kings, int red_to_move, u32 *out, int *moves, int *jump) {
    Pos p = as_mover(red, white, kings, red_to_move);
    Succ s;
    s.n = 0; s.overflow = 0;
    int crowning;
    if (has_jump(p)) jumps(p, &s);
    else quiet(p, &s, &crowning);
    if (s.overflow) return -1;
    for (int i = 0; i < s.n; i++) {
        Pos c = s.s[i];  /* the side to move next, as Red (the game's orientation when Red moved) */
        Pos g = red_to_move ? turned(c.rm, c.rk, c.wm, c.wk) : c;  /* back to absolute: g.r* are Red's pieces */
        out[4 * i] = g.rm | g.rk;
        out[4 * i + 1] = g.wm | g.wk;
        out[4 * i + 2] = g.rk | g.wk;
        out[4 * i + 3] = !red_to_move;
        Succ t;
        t.n = 0; t.overflow = 0;
        int crowns;
        jump[i] = has_jump(c);
        if (jump[i]) jumps(c, &t);
        else quiet(c, &t, &crowns);
        moves[i] = t.n;
    }
    return s.n;
}

/* The slice (a, c, b, d) and the index of a game position (turned to Red to move if White is to move). */
static inline i64 locate(u32 red, u32 white, u32 kings, int red_to_move, int *sig) {
    Pos p = as_mover(red, white, kings, red_to_move);
    Ref r;
    sig[0] = popc(p.rm); sig[1] = popc(p.rk); sig[2] = popc(p.wm); sig[3] = popc(p.wk);
    ref_init(&r, sig[0], sig[1], sig[2], sig[3]);
    return rank_in(&r, p);
}

/* ---------------------------------------------------------------- probes into solved slices */

/* value (1-3) and distance of a position in a loaded slice; -1 when its slice is not loaded */
static inline int look(const Ref *table, Pos p, int *dist) {
    int a = popc(p.rm), c = popc(p.rk);
    if (a + c == 0) { *dist = 0; return V_LOSS; }  /* the side to move has no piece left */
    const Ref *r = &table[CODE(a, c, popc(p.wm), popc(p.wk))];
    if (!r->values) return -1;
    i64 idx = rank_in(r, p);
    int v = value_at(r->values, idx);
    *dist = r->dists ? r->dists[idx] : 0;
    return v;
}

/* value and full distance, also where the slice keeps distances of lost quiet positions only:
 * a position with a jump takes its distance from its jumps, a won one from its fastest lost successor */
static int look_full(const Ref *table, Pos p, int *dist, int depth) {
    int v = look(table, p, dist);
    if (v <= 0 || v == V_DRAW) { if (v == V_DRAW) *dist = 0; return v; }
    int a = popc(p.rm), c = popc(p.rk);
    const Ref *r = &table[CODE(a, c, popc(p.wm), popc(p.wk))];
    if (a + c == 0 || !r->partial) return v;
    int jump = has_jump(p);
    if (!jump && v == V_LOSS) return v;
    if (depth > 3) return -2;
    Succ s;
    s.n = 0; s.overflow = 0;
    int crowning = 0;
    if (jump) jumps(p, &s);
    else quiet(p, &s, &crowning);
    if (s.overflow) return -3;
    int best = v == V_WIN ? 1 << 20 : 0;
    for (int i = 0; i < s.n; i++) {
        int d, w;
        if (v == V_WIN) {  /* only the lost successors count: their distances are kept, or follow from jumps */
            w = look(table, s.s[i], &d);
            if (w < 0) return w;
            if (w != V_LOSS) continue;
        }
        w = look_full(table, s.s[i], &d, depth + 1);
        if (w < 0) return w;
        if (v == V_WIN) { if (d + 1 < best) best = d + 1; }
        else if (d + 1 > best) best = d + 1;
    }
    *dist = best > 255 ? 255 : best;
    return v;
}

/* ---------------------------------------------------------------- the solver */

typedef struct { u8 s, d; } Cell;  /* a position's state byte and distance byte, side by side */

typedef struct {
    int sides;
    Codec cd[2];
    i64 base[2];
    i64 n;
    Cell *cell;
    u64 *bm[256];
    i64 nwords;
    const Ref *table;
    int error;
    i64 *stack;
    i64 stack_n, stack_cap;
    i64 cursor;
} Solver;

static inline void bm_set(Solver *S, int layer, i64 g) {
    if (!S->bm[layer]) {
        S->bm[layer] = calloc((size_t)S->nwords, sizeof(u64));
        if (!S->bm[layer]) { S->error = 1; return; }
    }
    S->bm[layer][g >> 12] |= 1ull << ((g >> 6) & 63);
}

static inline int side_of(const Solver *S, i64 g) { return S->sides == 2 && g >= S->base[1]; }

/* the first pass: jumps, crownings and positions without a move settled, other quiet moves counted */
static void settle(Solver *S, Pos p, i64 g) {
    Cell *cell = S->cell;
    Succ s;
    s.n = 0; s.overflow = 0;
    int d;
    if (has_jump(p)) {
        jumps(p, &s);
        if (s.overflow) { S->error = 3; return; }
        int best = -1, win = 1 << 20, loss = 0;
        for (int i = 0; i < s.n; i++) {
            int v = look(S->table, s.s[i], &d);
            if (v < 0) { S->error = 2; return; }
            int score = v == V_LOSS ? 2 : v == V_DRAW ? 1 : 0;
            if (score > best) best = score;
            if (v == V_LOSS && d + 1 < win) win = d + 1;
            if (d + 1 > loss) loss = d + 1;
        }
        int v = best == 2 ? V_WIN : best == 1 ? V_DRAW : V_LOSS;
        int dd = v == V_WIN ? win : v == V_LOSS ? loss : 0;
        cell[g].s = (u8)(v | JUMPED);
        cell[g].d = (u8)(dd > 255 ? 255 : dd);
        if (v != V_DRAW) bm_set(S, cell[g].d, g);
        return;
    }
    int crowning = crowning_moves(p, &s);
    u32 empty = ~(p.rm | p.rk | p.wm | p.wk);
    int inner = popc(step0(p.rm) & empty & ~KING_ROW) + popc(step1(p.rm) & empty & ~KING_ROW)
                + popc(step0(p.rk) & empty) + popc(step1(p.rk) & empty)
                + popc(step2(p.rk) & empty) + popc(step3(p.rk) & empty);
    if (inner + crowning == 0) {  /* no move: lost (ACF) */
        cell[g].s = V_LOSS;
        cell[g].d = 0;
        bm_set(S, 0, g);
        return;
    }
    int exit_win = 0, nonwin = 0, wd = 1 << 20, exit_loss = 0;
    for (int i = 0; i < crowning; i++) {
        int v = look(S->table, s.s[i], &d);
        if (v < 0) { S->error = 2; return; }
        if (v == V_LOSS) { exit_win = 1; if (d + 1 < wd) wd = d + 1; }
        if (v == V_DRAW) nonwin = 1;
        if (d + 1 > exit_loss) exit_loss = d + 1;
    }
    if (wd > 255) wd = 255;
    if (exit_loss > 255) exit_loss = 255;
    nonwin |= exit_win;
    if (inner == 0) {  /* only crowning moves: settled now */
        if (exit_win) { cell[g].s = V_WIN; cell[g].d = (u8)wd; bm_set(S, wd, g); }
        else if (nonwin) { cell[g].s = V_DRAW; cell[g].d = 0; }
        else { cell[g].s = V_LOSS; cell[g].d = (u8)exit_loss; bm_set(S, exit_loss, g); }
        return;
    }
    if (exit_win) {  /* won, maybe sooner by another move: settled when its layer comes */
        cell[g].s = NONWIN | EXITWIN;
        cell[g].d = (u8)wd;
        bm_set(S, wd, g);
    } else if (nonwin) {
        cell[g].s = NONWIN;
        cell[g].d = 0;
    } else {
        cell[g].s = (u8)(inner << COUNT_SHIFT);
        cell[g].d = (u8)exit_loss;  /* the longest crowning defence bounds how late a loss comes */
    }
}

static void first_pass(Solver *S) {
    for (int k = 0; k < S->sides && !S->error; k++) {
        const Codec *cd = &S->cd[k];
        i64 nr = COMB[28][cd->a];
        i64 g = S->base[k];
        for (i64 red = 0; red < nr; red++) {
            for (i64 white = 0; white < cd->ref.nw; white++) {
                u32 rm = cd->rm_masks[red], wm = cd->wm_masks[white];
                if (rm & wm) {  /* not a position: never reached */
                    for (i64 i = 0; i < cd->kings; i++, g++) {
                        S->cell[g].s = V_DRAW;
                        S->cell[g].d = 0;
                    }
                    continue;
                }
                int taken[12], n = 0;
                for (u32 m = rm | wm; m; m &= m - 1) taken[n++] = ctz(m);
                for (i64 rki = 0; rki < cd->ref.nrk; rki++) {
                    u32 rk = place(cd->rk_sets + (size_t)rki * cd->c, cd->c, taken, n);
                    int merged[12], t = 0;
                    for (u32 m = rm | wm | rk; m; m &= m - 1) merged[t++] = ctz(m);
                    for (i64 wki = 0; wki < cd->ref.nwk; wki++, g++) {
                        Pos p = {rm, rk, wm, place(cd->wk_sets + (size_t)wki * cd->d, cd->d, merged, t)};
                        settle(S, p, g);
                    }
                }
                if (S->error) return;
            }
        }
    }
}

static void push_inline(Solver *S, i64 g) {
    if (S->stack_n == S->stack_cap) {
        i64 cap = S->stack_cap ? 2 * S->stack_cap : 1024;
        i64 *grown = realloc(S->stack, sizeof(i64) * cap);
        if (!grown) { S->error = 1; return; }
        S->stack = grown;
        S->stack_cap = cap;
    }
    S->stack[S->stack_n++] = g;
}

#define BATCH 64
#define MAX_PREDS 24  /* quiet moves taken back: 2 a man and 4 a king, at most 5 pieces a side */

/* Walk back from the positions gs[0..m) settled at this layer: their predecessors are won (a
 * position lost) or have one unsettled move less (a position won). The predecessors' indices
 * are computed first and their bytes fetched ahead, then the updates are made in order. A
 * predecessor settled at this very layer below ``limit`` (where the scan has been) is walked
 * back from at once. */
static void walk_back(Solver *S, const i64 *gs, int m, int layer, i64 limit) {
    i64 ys[BATCH * MAX_PREDS];
    u8 vs[BATCH * MAX_PREDS];
    int ny = 0;
    Cell *cell = S->cell;
    for (int i = 0; i < m; i++) {
        i64 g = gs[i];
        int k = side_of(S, g);
        int j = S->sides == 2 ? 1 - k : 0;
        Pos p = {0, 0, 0, 0}, preds[32];
        unrank(&S->cd[k], g - S->base[k], &p);
        int men_moves, n = unmoves(p, preds, &men_moves);
        u8 v = cell[g].s & 3;
        const Ref *r = &S->cd[j].ref;
        i64 men_base = 0;
        u32 men = 0;
        if (n > men_moves) {  /* a king's move back leaves the men where they are */
            men = preds[men_moves].rm | preds[men_moves].wm;
            men_base = (colex(preds[men_moves].rm) * r->nw + colex(preds[men_moves].wm >> 4)) * r->nrk;
        }
        for (int t = 0; t < n; t++) {
            i64 y = S->base[j];
            if (t < men_moves) y += rank_in(r, preds[t]);
            else y += (men_base + colex_in(preds[t].rk, men)) * r->nwk + colex_in(preds[t].wk, men | preds[t].rk);
            __builtin_prefetch(cell + y, 1);
            ys[ny] = y;
            vs[ny++] = v;
        }
    }
    int next = layer < 255 ? layer + 1 : 255;
    for (int i = 0; i < ny; i++) {
        i64 y = ys[i];
        u8 s = cell[y].s;
        if (s & 3) continue;  /* settled (positions with a jump are settled before) */
        int d;
        if (vs[i] == V_LOSS) {
            d = next;
            if ((s & DUE) == DUE && cell[y].d < d) d = cell[y].d;
            cell[y].s = V_WIN;
        } else {
            if (s & NONWIN) continue;
            int c = ((s & COUNT_MASK) >> COUNT_SHIFT) - 1;
            if (c > 0) { cell[y].s = (u8)((s & ~COUNT_MASK) | (c << COUNT_SHIFT)); continue; }
            d = cell[y].d > next ? cell[y].d : next;
            cell[y].s = V_LOSS;
        }
        cell[y].d = (u8)d;
        bm_set(S, d, y);
        if (d == layer && y < limit) push_inline(S, y);  /* this layer's scan is past it */
    }
}

static void propagate(Solver *S) {
    Cell *cell = S->cell;
    i64 gs[BATCH];
    for (int layer = 0; layer < 256 && !S->error; layer++) {
        u64 *bm = S->bm[layer];
        if (!bm) continue;
        for (i64 w = 0; w < S->nwords; w++) {
            u64 bits = bm[w];
            while (bits) {
                int b = __builtin_ctzll(bits);
                i64 lo = ((w << 6) + b) << 6, hi = lo + 64 < S->n ? lo + 64 : S->n;
                int m = 0;
                for (i64 g = lo; g < hi; g++) {
                    if (cell[g].d != layer) continue;
                    u8 s = cell[g].s;
                    int v = s & 3;
                    if (v == V_UNKNOWN && (s & DUE) == DUE) {  /* its winning crowning move is due */
                        cell[g].s = V_WIN;
                        v = V_WIN;
                    }
                    if (v == V_WIN || v == V_LOSS) gs[m++] = g;
                }
                if (m) walk_back(S, gs, m, layer, hi);
                while (S->stack_n) {
                    int k = 0;
                    while (S->stack_n && k < BATCH) gs[k++] = S->stack[--S->stack_n];
                    walk_back(S, gs, k, layer, hi);
                }
                bits = b == 63 ? 0 : bm[w] & (~0ull << (b + 1));
            }
        }
        free(bm);
        S->bm[layer] = NULL;
    }
}

static void solver_free(Solver *S) {
    for (int k = 0; k < 2; k++) codec_free(&S->cd[k]);
    for (int l = 0; l < 256; l++) { free(S->bm[l]); S->bm[l] = NULL; }
    free(S->stack);
    S->stack = NULL;
}

/* Ask for huge pages for a large array not touched yet: the solver's random accesses would
 * otherwise miss the address translation cache on nearly every step (Linux, where allowed). */
static void huge_pages(void *start, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    uintptr_t lo = ((uintptr_t)start + (1u << 21) - 1) & ~(uintptr_t)((1u << 21) - 1);
    uintptr_t hi = ((uintptr_t)start + bytes) & ~(uintptr_t)((1u << 21) - 1);
    if (hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)start; (void)bytes;
#endif
}

/* Solve a slice (a, c, b, d) and its partner (b, d, a, c) (one after the other in ``cell``).
 * Afterwards each cell holds (the distance kept on disk: a lost position's without a jump,
 * else 0; the full distance), packed[k] the values of side k, and counts[k] = (win, loss,
 * draw, positions). */
static int solve_pair(const int *s, int sides, const Ref *table, Cell *cell, u8 **packed, i64 *counts) {
    egdb_init();
    Solver S;
    memset(&S, 0, sizeof S);
    S.sides = sides;
    S.table = table;
    S.cell = cell;
    if (codec_init(&S.cd[0], s[0], s[1], s[2], s[3])) { solver_free(&S); return 1; }
    S.n = S.cd[0].size;
    if (sides == 2) {
        if (codec_init(&S.cd[1], s[2], s[3], s[0], s[1])) { solver_free(&S); return 1; }
        S.base[1] = S.n;
        S.n += S.cd[1].size;
    }
    S.nwords = (S.n + 4095) >> 12;
    huge_pages(cell, sizeof(Cell) * (size_t)S.n);
    first_pass(&S);
    if (!S.error) propagate(&S);
    if (!S.error) {
        for (int k = 0; k < sides; k++) {
            i64 lo = S.base[k], size = S.cd[k].size;
            i64 *cnt = counts + 4 * k;
            u8 *out = packed[k];
            memset(out, 0, (size_t)((size + 3) / 4));
            i64 by[4] = {0, 0, 0, 0};
            for (i64 i = 0; i < size; i++) {
                u8 st = cell[lo + i].s;
                int v = st & 3;
                if (v == V_UNKNOWN) v = V_DRAW;
                if (v == V_DRAW) cell[lo + i].d = 0;
                by[v]++;
                out[i >> 2] |= (u8)(v << ((i & 3) * 2));
                cell[lo + i].s = (v == V_LOSS && !(st & JUMPED)) ? cell[lo + i].d : 0;
            }
            i64 valid = count_positions(&S.cd[k]);
            cnt[0] = by[V_WIN];
            cnt[1] = by[V_LOSS];
            cnt[2] = by[V_DRAW] - (size - valid);  /* indices that are not positions hold draws */
            cnt[3] = valid;
        }
    }
    int err = S.error;
    solver_free(&S);
    return err;
}

/* ---------------------------------------------------------------- checks */

typedef struct {
    i64 positions, bad_values, bad_distances;
    i64 counts[4];        /* by value (index 1-3) */
    i64 first_bad[5];
    int nbad;
    int error;
} Check;

/* Every position of [lo, hi) of a slice against its successors: lost if it has no move or every move
 * leads to a position won for the opponent, won if some move leads to a position lost for him,
 * drawn otherwise; a win one ply longer than its fastest winning move, a loss one ply longer than
 * its slowest defence. ``own`` and the table give full distances (or partial ones, followed). */
static void check_range(const Codec *cd, const Ref *own, const Ref *table, i64 lo, i64 hi, Check *out) {
    egdb_init();
    Succ s;
    for (i64 idx = lo; idx < hi; idx++) {
        Pos p = {0, 0, 0, 0};
        if (!unrank(cd, idx, &p)) continue;
        int v_own = value_at(own->values, idx);
        int d_own;
        if (own->partial) {
            if (look_full(table, p, &d_own, 0) < 0) { out->error = 2; return; }
        } else d_own = v_own == V_DRAW ? 0 : own->dists[idx];
        s.n = 0; s.overflow = 0;
        int crowning;
        if (has_jump(p)) jumps(p, &s);
        else quiet(p, &s, &crowning);
        if (s.overflow) { out->error = 3; return; }
        int has_loss = 0, has_draw = 0, win = 1 << 20, loss = 0;
        for (int i = 0; i < s.n; i++) {
            int d, v = look_full(table, s.s[i], &d, 1);
            if (v < 0) { out->error = 2; return; }
            if (v == V_LOSS) { has_loss = 1; if (d + 1 < win) win = d + 1; }
            if (v == V_DRAW) has_draw = 1;
            if (d + 1 > loss) loss = d + 1;
        }
        int expected = has_loss ? V_WIN : has_draw ? V_DRAW : V_LOSS;
        int expected_d = expected == V_WIN ? win : expected == V_LOSS ? loss : 0;
        if (expected_d > 255) expected_d = 255;
        out->positions++;
        out->counts[v_own]++;
        int bad = 0;
        if (v_own != expected) { out->bad_values++; bad = 1; }
        else if (v_own != V_DRAW && d_own != expected_d) { out->bad_distances++; bad = 1; }
        if (bad && out->nbad < 5) out->first_bad[out->nbad++] = idx;
    }
}

/* the full distances of [lo, hi) of a slice kept with partial distances (own is in the table) */
static int full_range(const Codec *cd, const Ref *table, i64 lo, i64 hi, u8 *out) {
    egdb_init();
    for (i64 idx = lo; idx < hi; idx++) {
        Pos p;
        if (!unrank(cd, idx, &p)) { out[idx - lo] = 0; continue; }
        int d, v = look_full(table, p, &d, 0);
        if (v < 0) return -v;
        out[idx - lo] = (u8)(v == V_DRAW ? 0 : d);
    }
    return 0;
}

#endif
