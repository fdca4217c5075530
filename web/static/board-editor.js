// The position editor on the claim form: a cm-chessboard with a palette of pieces.
// Pick a piece (or the eraser) and tap squares; the FEN field below is kept in step,
// and typing a FEN there redraws the board. Empty, Start and Flip; the side to move,
// castling rights and the en passant square; and a live check of the position by the
// server's own rule (GET data-check-url, the check a submitted position gets).
// Without JavaScript the FEN field alone works.
const VENDOR = document.querySelector('meta[name="cm-chessboard"]')?.content
const EMPTY = "8/8/8/8/8/8/8/8"
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
const FILES = "abcdefgh"

// rows[0] is rank 8; each row 8 characters, "-" for an empty square
function rowsOf(placement) {
  const rows = placement.split("/").map((row) => row.replace(/\d/g, (n) => "-".repeat(Number(n))))
  while (rows.length < 8) rows.push("--------")
  return rows
}

// Castling a FEN may give: the king and that rook on their starting squares
function castlingPossible(placement) {
  const rows = rowsOf(placement), rank1 = rows[7], rank8 = rows[0]
  return {
    K: rank1[4] === "K" && rank1[7] === "R", Q: rank1[4] === "K" && rank1[0] === "R",
    k: rank8[4] === "k" && rank8[7] === "r", q: rank8[4] === "k" && rank8[0] === "r",
  }
}

// En passant squares that fit: the pawn just moved two squares (the squares it crossed are
// empty) and a pawn of the side to move stands beside it to take it (FIDE 9.2.3)
function enPassantSquares(placement, turn) {
  const rows = rowsOf(placement), found = []
  const [pawnRow, crossed, start, pawn, taker, rank] =
    turn === "w" ? [3, 2, 1, "p", "P", "6"] : [4, 5, 6, "P", "p", "3"]
  for (let f = 0; f < 8; f++) {
    if (rows[pawnRow][f] !== pawn || rows[crossed][f] !== "-" || rows[start][f] !== "-") continue
    if (rows[pawnRow][f - 1] === taker || rows[pawnRow][f + 1] === taker) found.push(FILES[f] + rank)
  }
  return found
}

// cm-chessboard under the Content-Security-Policy, shared with the move-entry board (cm-csp.js; the
// version query of this module's URL is passed on, see web/static_files.py)
const csp = import(new URL("./cm-csp.js" + new URL(import.meta.url).search, import.meta.url).href)

async function initEditor(root) {
  if (root.dataset.ready || !VENDOR) return
  root.dataset.ready = "1"
  const {Chessboard, POINTER_EVENTS} = await import(VENDOR + "src/Chessboard.js")
  const {allowStylesUnderCsp, nameBoard} = await csp
  await allowStylesUnderCsp(VENDOR)
  const form = root.closest("form")
  const input = form.querySelector('input[name="fen"]')
  const turn = root.querySelector("[data-turn]")
  const ep = root.querySelector("[data-ep]")
  const status = root.querySelector("[data-position-status]")
  const castles = [...root.querySelectorAll("[data-castle]")]
  const fieldsOf = (fen) => (fen || "").trim().split(/\s+/)
  const wanted = {K: true, Q: true, k: true, q: true}  // the TD's ticks, kept while a right is impossible
  let counters = "0 1"

  const readFen = (fen) => {
    const [placement, side, rights, square, half, full] = fieldsOf(fen)
    if (side === "w" || side === "b") turn.value = side
    if (rights) for (const c of castles) wanted[c.dataset.castle] = rights.includes(c.dataset.castle)
    counters = /^\d+$/.test(half || "") && /^\d+$/.test(full || "") ? `${half} ${full}` : "0 1"
    return [placement, square || "-"]
  }
  const [placement0, square0] = readFen(input.value)
  const board = new Chessboard(root.querySelector("[data-board]"), {
    position: placement0 || EMPTY,  // no FEN: an empty board, not the start position
    assetsUrl: VENDOR + "assets/",
    style: {pieces: {file: "pieces/standard.svg"}, animationDuration: 0},
  })
  nameBoard(root.querySelector("[data-board]"), "chess board: choose a piece above, then tap a square to place it")

  const showControls = (placement, square) => {
    const possible = castlingPossible(placement)
    for (const c of castles) {
      c.disabled = !possible[c.dataset.castle]
      c.checked = possible[c.dataset.castle] && wanted[c.dataset.castle]
    }
    const squares = enPassantSquares(placement, turn.value)
    const keep = square ?? ep.value
    ep.replaceChildren(new Option("none", "-"), ...squares.map((s) => new Option(s, s)))
    ep.value = squares.includes(keep) ? keep : "-"
    ep.disabled = squares.length === 0
  }

  let asked = 0, timer = null
  const check = () => {
    clearTimeout(timer)
    timer = setTimeout(async () => {
      const fen = input.value.trim(), mine = ++asked
      if (!fen) { status.textContent = ""; status.className = "position-status"; return }
      try {
        const url = new URL(root.dataset.checkUrl, location.href)
        url.searchParams.set("fen", fen)
        const answer = await (await fetch(url, {headers: {Accept: "application/json"}})).json()
        if (mine !== asked) return  // a later edit asked again
        const legal = answer.is_legal === true
        status.textContent = legal ? "Legal position" : `Invalid position: ${
          String(answer.message || "").replace(/^fen is not (a legal position|a position): /, "")}`
        status.className = `position-status ${legal ? "is-legal" : "is-illegal"}`
      } catch {
        if (mine === asked) { status.textContent = ""; status.className = "position-status" }
      }
    }, 120)
  }

  const write = () => {
    const placement = board.getPosition()
    showControls(placement)
    if (placement === EMPTY) {
      input.value = ""  // an empty board is no position: the claim rests on the record
    } else {
      const rights = castles.filter((c) => c.checked).map((c) => c.dataset.castle).join("") || "-"
      input.value = `${placement} ${turn.value} ${rights} ${ep.value} ${counters}`
    }
    check()
  }

  let selected = "wk"
  const palette = root.querySelectorAll("[data-piece]")
  const choose = (button) => {
    palette.forEach((b) => b.setAttribute("aria-pressed", String(b === button)))
    selected = button.dataset.piece
  }
  palette.forEach((button) => button.addEventListener("click", () => choose(button)))
  choose(root.querySelector('[data-piece="wk"]'))
  board.enableSquareSelect(POINTER_EVENTS.pointerdown, async (event) => {
    if (!event.square) return
    const current = board.getPiece(event.square)
    const piece = selected === "x" || current === selected ? null : selected
    await board.setPiece(event.square, piece)
    write()
  })
  turn.addEventListener("change", write)
  ep.addEventListener("change", write)
  castles.forEach((c) => c.addEventListener("change", () => { wanted[c.dataset.castle] = c.checked; write() }))
  root.querySelector("[data-start]").addEventListener("click", async () => {
    await board.setPosition(START); turn.value = "w"; counters = "0 1"
    castles.forEach((c) => { wanted[c.dataset.castle] = true })
    write()
  })
  root.querySelector("[data-clear]").addEventListener("click", async () => {
    await board.setPosition(EMPTY); counters = "0 1"; write()
  })
  const flip = root.querySelector("[data-flip]")
  flip.addEventListener("click", async () => {
    const black = board.getOrientation() === "w"
    await board.setOrientation(black ? "b" : "w")
    flip.setAttribute("aria-pressed", String(black))
  })
  input.addEventListener("change", async () => {
    const [placement, square] = readFen(input.value)
    if (/^[1-8pnbrqkPNBRQK]+(\/[1-8pnbrqkPNBRQK]+){7}$/.test(placement || "")) {
      await board.setPosition(placement)
      showControls(placement, square)
    } else if (!input.value.trim()) {
      await board.setPosition(EMPTY)
      showControls(EMPTY)
    }
    check()
  })
  showControls(board.getPosition(), square0)
  if (input.value.trim()) check()
  root.hidden = false
  // the editor appears above the rest of the form: keep a field below it that has the focus (the first
  // error's, autofocused) on screen, where the browser had scrolled it before the editor pushed it down
  const active = document.activeElement
  if (active && active !== document.body && root.compareDocumentPosition(active) & Node.DOCUMENT_POSITION_FOLLOWING) {
    active.scrollIntoView({block: "center"})
  }
  root.dataset.ready = "2"
}

function initAll(scope) {
  (scope || document).querySelectorAll("[data-board-editor]").forEach(initEditor)
}

document.addEventListener("DOMContentLoaded", () => initAll(document))
document.addEventListener("htmx:load", (event) => initAll(event.target))
if (document.readyState !== "loading") initAll(document)
