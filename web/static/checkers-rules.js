// American checkers in the page: legal moves, moves as played, the record's text, candidate moves.
//
// A port of the server's rules (adjudicator/checkers/board.py and played.py: ACF Standard
// Laws, WCDF 2008): squares 1-32, Red ("Black" in books) on 1-12 moves first towards the
// higher numbers; jumps are compulsory, with free choice among them; a multiple jump is
// completed, its captured pieces leave the board at its end (none is jumped twice); men move
// and jump forward only, kings both ways; a man reaching the king row is crowned and its move
// ends there. tests/web/test_checkers_entry_rules.py holds this file to the server's generator
// (the published perft, the shared 141-position test set, random games).
//
// It serves the claim form's move entry (checkers-entry.js): a tap gets its answer here, with no
// round trip. The server's replay stays the authority: the record is re-read there for every
// ruling, and for each illegal move entered on purpose.
//
// No DOM here: bench/entry_checkers.py runs this file under node.

// A position: {board: array of 33 ("" or r, R, w, W; index 0 unused), red: Red to move}
const RED_FORWARD = [0, 1]
const WHITE_FORWARD = [2, 3]
const ALL = [0, 1, 2, 3]

function neighbourOf(sq, direction) {  // 0-based squares; 0 DL, 1 DR (towards 32), 2 UL, 3 UR; -1 off the board
  const row = sq >> 2, col = sq & 3, even = row % 2 === 0
  if (direction < 2) {
    if (row === 7) return -1
    if (direction === 0) return even ? sq + 4 : (col > 0 ? sq + 3 : -1)
    return even ? (col < 3 ? sq + 5 : -1) : sq + 4
  }
  if (row === 0) return -1
  if (direction === 2) return even ? sq - 4 : (col > 0 ? sq - 5 : -1)
  return even ? (col < 3 ? sq - 3 : -1) : sq - 4
}

// STEP[d][n]: the square (1-32) one step from n in direction d, or 0
const STEP = ALL.map((d) => [0, ...Array.from({length: 32}, (_, i) => neighbourOf(i, d) + 1)])

export const START_FEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"

const isRed = (piece) => piece === "r" || piece === "R"
const isKing = (piece) => piece === "R" || piece === "W"
const crownRow = (red) => (red ? [29, 30, 31, 32] : [1, 2, 3, 4])

export function fromFen(fen) {
  const m = /^\s*\[?\s*(?:FEN\s*"?)?([WB])\s*:(.*?)"?\s*\]?\s*$/i.exec(fen || "")
  if (!m) return null
  const board = Array(33).fill("")
  for (let part of m[2].split(":")) {
    part = part.trim().replace(/\.+$/, "")
    if (!part) continue
    const colour = part[0].toUpperCase()
    if (colour !== "W" && colour !== "B") return null
    for (let token of part.slice(1).split(",")) {
      token = token.trim()
      if (!token) continue
      const king = token[0].toUpperCase() === "K"
      const [low, high = low] = (king ? token.slice(1) : token).split("-").map((x) => parseInt(x, 10))
      for (let n = low; n <= high; n++) {
        if (!(n >= 1 && n <= 32)) return null
        board[n] = (colour === "W" ? "w" : "r")[king ? "toUpperCase" : "toLowerCase"]()
      }
    }
  }
  return {board, red: m[1].toUpperCase() === "B"}
}

export function toFen(pos) {
  const side = (red) => pos.board.map((p, n) => (p && isRed(p) === red ? (isKing(p) ? "K" : "") + n : ""))
    .filter(Boolean).join(",")
  return `${pos.red ? "B" : "W"}:W${side(false)}:B${side(true)}`
}

export const startPosition = () => fromFen(START_FEN)

const mine = (pos, n) => pos.board[n] !== "" && isRed(pos.board[n]) === pos.red
const theirs = (pos, n) => pos.board[n] !== "" && isRed(pos.board[n]) !== pos.red

// every jump sequence of the side to move, per path (a king's cyclic capture in two orders is two moves)
export function captures(pos) {
  const found = []
  for (let from = 1; from <= 32; from++) {
    if (!mine(pos, from)) continue
    const king = isKing(pos.board[from])
    const dirs = king ? ALL : (pos.red ? RED_FORWARD : WHITE_FORWARD)
    const crown = crownRow(pos.red)
    const extend = (path, at, taken) => {
      let extended = false
      for (const d of dirs) {
        const over = STEP[d][at], land = over ? STEP[d][over] : 0
        if (!land || !theirs(pos, over) || taken.includes(over)) continue
        if (pos.board[land] !== "" && land !== from) continue
        extended = true
        if (!king && crown.includes(land)) found.push({path: [...path, land], captured: [...taken, over]})
        else extend([...path, land], land, [...taken, over])
      }
      if (!extended && taken.length) found.push({path, captured: taken})
    }
    extend([from], from, [])
  }
  return found
}

export function quietMoves(pos) {
  const found = []
  for (let from = 1; from <= 32; from++) {
    if (!mine(pos, from)) continue
    for (const d of isKing(pos.board[from]) ? ALL : (pos.red ? RED_FORWARD : WHITE_FORWARD)) {
      const to = STEP[d][from]
      if (to && pos.board[to] === "") found.push({path: [from, to], captured: []})
    }
  }
  return found
}

export function legalMoves(pos) {
  const jumps = captures(pos)
  return jumps.length ? jumps : quietMoves(pos)
}

export const moveText = (move) => move.path.join(move.captured.length ? "x" : "-")

// the position after a move as physically played (legal or not): captured pieces leave, a man that
// reached its king row on the way is a king (played.py push_as_played)
export function push(pos, move) {
  const board = pos.board.slice()
  const piece = board[move.path[0]], to = move.path[move.path.length - 1]
  board[move.path[0]] = ""
  for (const n of move.captured) board[n] = ""
  const crowned = !isKing(piece) && move.path.slice(1).some((n) => crownRow(pos.red).includes(n))
  board[to] = crowned ? piece.toUpperCase() : piece
  return {board, red: !pos.red}
}

// the move as physically made from the squares tapped, for a move that is not legal (played.py physical):
// null when it cannot be made at all (no piece of the side to move on the first square, the last occupied)
export function physical(pos, squares) {
  if (squares.length < 2 || squares.some((n) => !(n >= 1 && n <= 32))) return null
  const [a, b] = [squares[0], squares[squares.length - 1]]
  if (!mine(pos, a) || (a !== b && pos.board[b] !== "")) return null
  const captured = []
  for (let i = 1; i < squares.length; i++) {
    for (const d of ALL) {
      const over = STEP[d][squares[i - 1]]
      if (over && STEP[d][over] === squares[i] && theirs(pos, over) && !captured.includes(over)) captured.push(over)
    }
  }
  return {path: squares.slice(), captured}
}

// how a move is written: "x" when it jumps over a square (even one with nothing on it), else "-"
export function writtenAs(pos, squares) {
  const jumps = squares.slice(1).some((n, i) => ALL.some((d) => STEP[d][STEP[d][squares[i]]] === n))
  return squares.join(jumps ? "x" : "-")
}

export const sameMove = (a, b) => a.path.length === b.path.length && a.path.every((n, i) => n === b.path[i])

// ---------------------------------------------------------------- candidates
// The likeliest next moves, best first: a move that returns to a position the record already
// had comes first (that is what a TD entering a repetition reads); the rest by a shallow search
// (engines/checkers/search.py's evaluation and negamax, 2 plies after the move, a forced jump
// not counted as a ply). When a jump is possible, only jumps are legal, so only jumps are listed.
// bench/entry_checkers.py measures the ranking on real games.

const MAN = 100, KING = 135
const ROW_BONUS = [0, 0, 0, 3, 6, 9, 12, 15]

export function evaluate(pos) {
  let score = 0
  for (let n = 1; n <= 32; n++) {
    const p = pos.board[n]
    if (!p) continue
    let value
    if (isKing(p)) value = KING
    else {
      const row = isRed(p) ? (n - 1) >> 2 : 7 - ((n - 1) >> 2)
      value = MAN + ROW_BONUS[row] + ((isRed(p) ? n <= 4 : n >= 29) ? 4 : 0)
    }
    score += isRed(p) === pos.red ? value : -value
  }
  return score
}

const WIN = 30000
const key = (pos) => pos.board.join(",") + (pos.red ? "B" : "W")

class OutOfNodes extends Error {}

function negamax(pos, depth, alpha, beta, ply, path, budget) {
  if (--budget.nodes < 0) throw new OutOfNodes()
  const here = key(pos)
  if (ply && path.has(here)) return 0
  const moves = legalMoves(pos)
  if (!moves.length) return -(WIN - ply)
  const isCapture = moves[0].captured.length > 0
  if (depth <= 0 && !isCapture) return evaluate(pos)
  let best = -WIN - 1
  path.add(here)
  try {
    for (const move of moves) {
      const next = isCapture && moves.length === 1 ? depth : depth - 1
      const score = -negamax(push(pos, move), next, -beta, -alpha, ply + 1, path, budget)
      if (score > best) best = score
      if (score > alpha) alpha = score
      if (alpha >= beta) break
    }
  } finally {
    path.delete(here)
  }
  return best
}

export const SEARCH_PLIES = 2
export const SEARCH_NODES = 1000
// seen: the keys (toFen) of every position the record had before this one. The search stops after
// SEARCH_NODES positions (a few milliseconds on a phone); moves it did not reach are ranked by the
// evaluation of the position after them. Deterministic: the same position gives the same list.
export function candidates(pos, seen, limit = 6, depth = SEARCH_PLIES, nodes = SEARCH_NODES) {
  const budget = {nodes}
  const scored = legalMoves(pos).map((move, order) => {
    const after = push(pos, move)
    const repeats = seen.has(toFen(after))
    let score
    try {
      score = budget.nodes > 0 ? -negamax(after, depth, -WIN - 1, WIN + 1, 1, new Set([key(pos)]), budget) : null
    } catch (error) {
      if (!(error instanceof OutOfNodes)) throw error
      score = null
    }
    return {move, repeats, score: score ?? -evaluate(after), order}
  })
  scored.sort((a, b) => (b.repeats - a.repeats) || (b.score - a.score) || (a.order - b.order))
  // each with where it comes from, as the chess candidates say it: a repetition, a (forced) jump, the search
  const source = (s) => (s.repeats ? "repetition" : (s.move.captured.length ? "jump" : "search"))
  return scored.slice(0, limit).map((s) => ({...s.move, source: source(s)}))
}

// ---------------------------------------------------------------- the record's text
// Where each main-line move of a PDN record stands in its text, read as the server's reader
// (adjudicator/checkers/pdn.py) classifies words: tag lines first; {...} and ; comments and (...)
// variations aside; move numbers (12. 12... 12…), results and annotations are no moves; every other
// word is one (a move, or an unreadable token the replay stops at). cuts[k] is where the text is cut
// to keep the first k moves: after the k-th move and the comments that follow it.

const TAG_LINE = /^\s*\[\s*[A-Za-z0-9_]+\s+"(?:[^"\\]|\\.)*"\s*\]\s*$/
const RESULTS = new Set(["1-0", "0-1", "1/2-1/2", "½-½", "2-0", "0-2", "1-1", "0-0", "*"])
const NUMBER = /^\d+(?:\.|…)+$/
const ANNOTATION = /^(?:(?:[!?]+|\$\d+)+|(?:\.|…)+)$/
const LEXEME = /\{[^}]*\}?|;[^\n]*|\(|\)|\}|\s+|[^\s{}();]+/g

export function scanRecord(text) {
  let body = 0
  for (const line of text.split("\n")) {
    if (!TAG_LINE.test(line) && line.trim()) break
    body += line.length + 1
  }
  body = Math.min(body, text.length)
  const cuts = [body]
  let depth = 0, extendable = false, number = null, lastNumber = null, result = null, m
  const lexeme = new RegExp(LEXEME.source, "g")
  lexeme.lastIndex = body
  while ((m = lexeme.exec(text)) !== null) {
    const word = m[0], end = m.index + word.length
    if (/^\s/.test(word)) continue
    if (word === "(") { depth++; continue }
    if (word === ")" && depth) { depth--; continue }
    if (depth) continue
    if (word[0] === "{" || word[0] === ";" || ANNOTATION.test(word)) {  // belongs to the move before it
      if (extendable) cuts[cuts.length - 1] = end
      continue
    }
    if (RESULTS.has(word)) { result = m.index; break }
    extendable = false
    if (NUMBER.test(word)) { number = parseInt(word, 10); continue }
    const glued = /^(\d+)(?:\.|…)+\d/.exec(word)
    if (glued) number = parseInt(glued[1], 10)
    if (number !== null) lastNumber = number
    number = null
    cuts.push(end)
    extendable = true
  }
  return {cuts, body, result, lastNumber}
}

// The record with its first `keep` moves and then `tokens` (moves as written), numbered as PDN numbers
// them: "N." before each move at an even ply from the record's start, N following the kept text's last
// number. Whatever followed the kept moves (later moves, their comments, the result) is left out:
// dropped(text, keep) says what that is, for the page to ask first.
export function writeRecord(text, keep, tokens) {
  const scan = scanRecord(text)
  const head = text.slice(0, cutAt(scan, text, keep)).replace(/\s+$/, "")
  const kept = scanRecord(head)
  let number = kept.lastNumber ?? Math.floor(keep / 2)
  const parts = tokens.map((token, i) => ((keep + i) % 2 === 0 ? `${++number}. ${token}` : token))
  if (!parts.length) return head
  const lastLine = head.split("\n").pop()
  const sep = !head ? "" : (TAG_LINE.test(lastLine) ? "\n\n" : " ")
  return head + sep + parts.join(" ")
}

function cutAt(scan, text, keep) {
  return keep < scan.cuts.length ? scan.cuts[keep] : text.length
}

// what writeRecord(text, keep, ...) leaves out of the text, trimmed ("" when nothing)
export function dropped(text, keep) {
  return text.slice(cutAt(scanRecord(text), text, keep)).trim()
}
