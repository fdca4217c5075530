// The chess entry board's first candidates, worked out in the page (issue 37, item 3): drawn at once after
// each move, before the server's richer ranking (GET /claims/candidates: the engine's moves too) arrives,
// so that the next tap never waits for the network. The order is the server's without its book and engine
// (adjudicator/chess/candidates.py): moves returning to an earlier position of the record (the most often
// seen first, then the most recent), then the first recapture on the square just taken on, then captures
// (most valuable victim, least valuable attacker; a recapture scores more), a queen's promotion, checks,
// then the rest in UCI order.
// A king is never captured: after an illegal move that left a king in check, capturing it is no move.
// No DOM here; ``chess`` is a chess.js instance of the shown position (left as it was found).
//
// The row as the board shows it (``rowLayout``, issue 37 item 4) is a split row: the likeliest move first,
// then the others in a fixed order, by piece (king and castling, queen, rook, bishop, knight, pawn), then
// by the square the move goes to (file, then rank), then the square it comes from: the TD looks for a
// written "Nf3" among the knight's moves, and the same move keeps its place among the others whatever its
// rank. The server lays it out the same way (adjudicator/chess/candidates.py, row_order) for the bench.

const VALUE = {p: 1, n: 3, b: 3, r: 5, q: 9, k: 0}

// The part of a FEN that makes two positions the same (FIDE 9.2.3): pieces, side to move, castling, en passant
// (chess.js and python-chess write the e.p. square only when a capture there is legal)
export const positionKey = (fen) => fen.split(" ").slice(0, 4).join(" ")

const uciOf = (m) => m.from + m.to + (m.promotion || "")

export function localCandidates(chess, {seen = [], last = null, count = 8} = {}) {
  const moves = chess.moves({verbose: true}).filter((m) => m.captured !== "k")
  const counts = new Map(), latest = new Map()
  seen.forEach((fen, index) => {
    const key = positionKey(fen)
    counts.set(key, (counts.get(key) || 0) + 1)
    latest.set(key, index)
  })
  const returning = []
  if (counts.size) {
    for (const m of moves) {
      if (m.captured || m.piece === "p") continue  // a capture or a pawn move never returns
      chess.move({from: m.from, to: m.to, promotion: m.promotion})
      const key = positionKey(chess.fen())
      chess.undo()
      if (counts.has(key)) returning.push([-counts.get(key), -latest.get(key), uciOf(m), m])
    }
    returning.sort((a, b) => a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0))
  }
  const recapture = last && last.length >= 4 ? last.slice(2, 4) : null
  const score = (m) => {
    let value = 0
    if (m.captured) {
      value += 3 + VALUE[m.captured] - VALUE[m.piece] / 10
      if (m.to === recapture) value += 10
    }
    if (m.promotion === "q") value += 8
    if (/[+#]$/.test(m.san)) value += 2
    return value
  }
  const rest = moves.map((m) => [-score(m), uciOf(m), m])
    .sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
  const heuristic = rest.map((r) => r[2])
  const retake = heuristic.find((m) => m.captured && m.to === recapture)
  const chosen = [], taken = new Set()
  for (const [source, list] of [["repetition", returning.map((r) => r[3])],
    ["heuristic", retake ? [retake, ...heuristic] : heuristic]]) {
    for (const m of list) {
      if (chosen.length >= count) return chosen
      const uci = uciOf(m)
      if (taken.has(uci)) continue
      taken.add(uci)
      chosen.push({uci, san: m.san, source})
    }
  }
  return chosen
}

const PIECES = "KQRBNP"

// A candidate's place in the split row's fixed part: its piece (the SAN's first letter; castling is the
// king's), the square it goes to, the square it comes from, the promotion piece
export function rowKey({san, uci}) {
  const letter = san.startsWith("O") ? "K" : "KQRBN".includes(san[0]) ? san[0] : "P"
  return [PIECES.indexOf(letter), uci.slice(2, 4), uci.slice(0, 2), uci.slice(4)]
}

const compareKeys = (a, b) => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1
  return 0
}

// The candidates (best first) as the row shows them: [{candidate, group}], ``group`` "first" for the
// ``first`` likeliest, else the piece's letter (K Q R B N P)
export function rowLayout(candidates, first = 1) {
  const head = candidates.slice(0, first).map((candidate) => ({candidate, group: "first"}))
  const rest = candidates.slice(first).map((candidate) => ({candidate, key: rowKey(candidate)}))
    .sort((a, b) => compareKeys(a.key, b.key))
    .map(({candidate, key}) => ({candidate, group: PIECES[key[0]]}))
  return [...head, ...rest]
}
