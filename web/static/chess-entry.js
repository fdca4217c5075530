// The chess move-entry board on the claim form (issue 21): the record field and a board that plays it.
//
// - Tap a piece, then its square (or drag it); a promotion asks for the piece (cm-chessboard's dialog).
// - Or tap the destination first (issue 37 item 4): a tap on a square that does not hold a piece of the
//   side to move is the move's destination. One legal move ends there: it is played (a promotion asks).
//   Several do: their origins are marked (data-choosing, data-origins on the board) and the next tap on
//   one of them plays that move; a tap anywhere else drops the choice (and is read afresh). docs/one-screen.md.
//   The move is written into the record as SAN with its move number, in the letters of the record's
//   language (the form's language, else the language the server read the record in, else English).
// - Candidate buttons above the board (the server's ranking, GET data-candidates-url): one tap.
// - A move that is not legal can still be entered, after a confirmation (the illegal-move claim needs
//   it): it is written in the long form the server's lenient reader reads back as that very move
//   (``Bc1-h6``, as adjudicator.chess.san.describe writes it), then the record is re-read by the server,
//   whose reading (position, reason) the board and the chips show.
// - Take back, step to any ply (the chips, or the arrows), flip. Entering a move while stepped back:
//   the recorded next move just steps on; any other move asks before it replaces the moves after it
//   (the record is never changed silently).
// - The notation keypad (chess-keypad.js) for those who type.
// Hooks other tests rely on: [data-move-entry] is the board (White at the bottom, a-file on the left,
// unless flipped); each candidate button carries data-candidate="<uci>": the likeliest first, then the others
// by piece and square (chess-candidates.js rowLayout; data-group, data-group-start).
const VENDOR = document.querySelector('meta[name="cm-chessboard"]')?.content
const here = (name) => new URL("./" + name + new URL(import.meta.url).search, import.meta.url).href
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// A SAN in the piece letters of a language ({"K": "K", "Q": "D", ...} maps English to it)
export function written(san, letters) {
  if (san.startsWith("O-O")) return san
  return san.replace(/^[KQRBN]/, (p) => letters[p] ?? p).replace(/=([QRBN])/, (_, p) => "=" + (letters[p] ?? p))
}

// An illegal move in the long form the server's reader reads back as that move (san.describe)
export function longForm(chess, from, to, promotion) {
  const piece = chess.get(from)
  if (!piece) return null
  if (piece.type === "k" && from[1] === to[1] && Math.abs(from.charCodeAt(0) - to.charCodeAt(0)) === 2 &&
      from[0] === "e" && (from[1] === "1" || from[1] === "8")) {
    const rook = chess.get((to[0] === "g" ? "h" : "a") + from[1])
    const between = to[0] === "g" ? ["f", "g"] : ["b", "c", "d"]
    if (rook?.type === "r" && rook.color === piece.color && between.every((f) => !chess.get(f + from[1]))) {
      return to[0] === "g" ? "O-O" : "O-O-O"
    }
  }
  const letter = piece.type === "p" ? "" : piece.type.toUpperCase()
  const enPassant = piece.type === "p" && from[0] !== to[0] && !chess.get(to)
  const sep = chess.get(to) || enPassant ? "x" : "-"
  return `${letter}${from}${sep}${to}${promotion ? "=" + promotion.toUpperCase() : ""}`
}

// The move number written before a move: "12." for White, "12..." for Black's first move written
function numberOf(fen, isFirst) {
  const [, turn, , , , full] = fen.split(" ")
  return turn === "w" ? `${full}.` : (isFirst ? `${full}...` : "")
}

function labelOf(fen, san) {
  const [, turn, , , , full] = fen.split(" ")
  return `${full}${turn === "w" ? "." : "..."}${san}`
}

async function initEntry(root) {
  if (root.dataset.ready || !VENDOR) return
  root.dataset.ready = "1"
  const [{Chessboard, INPUT_EVENT_TYPE, COLOR}, {Markers, MARKER_TYPE}, {PromotionDialog, PROMOTION_DIALOG_RESULT_TYPE},
    {Chess}, {RecordSync, renderChips, markChip, CandidateBar}, {allowStylesUnderCsp, nameBoard}, {Keypad},
    {localCandidates, rowLayout}] = await Promise.all([
    import(VENDOR + "src/Chessboard.js"), import(VENDOR + "src/extensions/markers/Markers.js"),
    import(VENDOR + "src/extensions/promotion-dialog/PromotionDialog.js"), import(root.dataset.chessJs),
    import(here("record-sync.js")), import(here("cm-csp.js")), import(here("chess-keypad.js")),
    import(here("chess-candidates.js"))])
  await allowStylesUnderCsp(VENDOR)
  const form = root.closest("form")
  const field = form.querySelector("#f-record")
  const languageSelect = form.querySelector("#f-language")
  const letters = JSON.parse(root.dataset.letters)
  const status = root.querySelector("[data-entry-status]")
  const confirmBox = root.querySelector("[data-confirm]")
  const chips = root.querySelector("[data-chips]")
  const boardElement = root.querySelector("[data-move-entry]")

  const sync = new RecordSync(root, field, {game: "chess", language: () => languageSelect?.value || ""})
  const writing = () => letters[languageSelect?.value || sync.reading] || letters.en
  const board = new Chessboard(boardElement, {
    position: START,
    assetsUrl: VENDOR + "assets/",
    style: {pieces: {file: "pieces/standard.svg"}, animationDuration: 80},
    extensions: [{class: Markers, props: {autoMarkers: MARKER_TYPE.square}}, {class: PromotionDialog, props: {language: "en"}}],
  })
  nameBoard(boardElement, "move entry board: tap a piece, then the square it moved to")

  let rules = new Chess()          // the shown position's rules
  const rulesAt = (fen) => { try { return new Chess(fen, {skipValidation: true}) } catch { return new Chess() } }

  // -- telling the TD
  let problem = ""
  const say = () => {
    if (problem) { status.textContent = problem; status.className = "entry-status is-illegal"; return }
    if (sync.busy) { status.textContent = "Reading the record…"; status.className = "entry-status"; return }
    const [, turn, , , , full] = (sync.position || START).split(" ")
    const side = turn === "w" ? "White" : "Black"
    const where = sync.atEnd ? "" : ` (showing move ${sync.cursor ? sync.plies[sync.cursor - 1].label : "the start"}; ${sync.length - sync.cursor} more recorded)`
    const over = rules.isCheckmate() ? " · checkmate" : rules.isStalemate() ? " · stalemate" : ""
    const shown = sync.cursor ? sync.plies[sync.cursor - 1] : null
    if (shown && !shown.is_legal) {
      status.textContent = `${shown.label} was not legal (${shown.reason}); ${side} to move${where}`
      status.className = "entry-status is-illegal"
      return
    }
    status.textContent = `${side} to move, move ${full}${over}${where}`
    status.className = "entry-status"
  }
  let confirmDone = null
  const ask = (message, yes) => new Promise((resolve) => {
    confirmBox.querySelector("[data-confirm-text]").textContent = message
    confirmBox.querySelector("[data-confirm-yes]").textContent = yes
    confirmBox.hidden = false
    confirmDone = (answer) => { confirmBox.hidden = true; confirmDone = null; resolve(answer) }
    confirmBox.querySelector("[data-confirm-yes]").focus({preventScroll: true})
  })
  confirmBox.querySelector("[data-confirm-yes]").addEventListener("click", () => confirmDone?.(true))
  confirmBox.querySelector("[data-confirm-no]").addEventListener("click", () => confirmDone?.(false))

  // -- the candidates
  const bar = new CandidateBar(root.querySelector("[data-candidates]"), root.dataset.candidatesUrl, (uci) => {
    const move = rules.moves({verbose: true}).find((m) => m.lan === uci || m.from + m.to + (m.promotion || "") === uci)
    if (move) enter(move)
  }, {layout: (candidates) => rowLayout(candidates)})
  const showCandidates = () => {
    if (!sync.position || rules.isCheckmate() || rules.isStalemate()) { bar.clear(); return }
    const params = new URLSearchParams({fen: sync.position})
    // earlier positions a move could return to: since the last capture or pawn move, the same side to move
    const halfmoves = Number(sync.position.split(" ")[4]) || 0
    const seen = []
    for (let ply = sync.cursor - 1; ply >= Math.max(0, sync.cursor - halfmoves); ply -= 2) seen.unshift(sync.positionAt(ply))
    seen.slice(-100).forEach((fen) => params.append("seen", fen))  // oldest first
    const last = sync.cursor > 0 ? sync.plies[sync.cursor - 1].uci : null
    if (last) params.set("last", last)
    // the page's own candidates at once (the next tap waits for nothing), the server's when they come
    let local = null
    try { local = localCandidates(rules, {seen: seen.slice(-100), last}) } catch { local = null }
    bar.show(params, sync.cursor, (c) => written(c.san, writing()), local)
  }

  // -- drawing the shown position
  let drawn = null
  const redraw = async () => {
    const fen = sync.position || START
    rules = rulesAt(fen)
    endChoice()
    inputFor(rules.turn())
    board.removeLegalMovesMarkers?.()
    board.removeMarkers?.(MARKER_TYPE.frame)
    if (drawn !== fen) { drawn = fen; await board.setPosition(fen.split(" ")[0]) }
    if (sync.cursor > 0) {
      const last = sync.plies[sync.cursor - 1].uci
      if (last && last !== "0000") { board.addMarker(MARKER_TYPE.frame, last.slice(0, 2)); board.addMarker(MARKER_TYPE.frame, last.slice(2, 4)) }
    }
    markChip(chips, sync)
    boardElement.dataset.fen = fen
    boardElement.dataset.ply = String(sync.cursor)
    keypad.reset(rules, writing())
    say()
    showCandidates()
  }
  sync.addEventListener("plies", () => { renderChips(chips, sync); redraw() })
  sync.addEventListener("cursor", () => redraw())
  sync.addEventListener("busy", () => { if (sync.busy) bar.clear(); say() })
  sync.addEventListener("problem", (event) => { problem = event.detail; say() })
  chips.addEventListener("click", (event) => {
    const chip = event.target.closest("button[data-ply]")
    if (chip) sync.step(Number(chip.dataset.ply))
  })

  // -- entering a move
  const mayEnter = () => !sync.busy && !sync.unreadable && !confirmDone && sync.position
  // while stepped back: the recorded next move steps on; another move replaces the moves after it, if the TD says so
  const makeRoom = async (uci) => {
    if (sync.atEnd) return true
    if (sync.plies[sync.cursor].uci === uci) { sync.step(sync.cursor + 1); return false }
    const after = sync.length - sync.cursor
    const ok = await ask(`Replace the ${after} move${after === 1 ? "" : "s"} recorded after ${sync.cursor ? sync.plies[sync.cursor - 1].label : "the start"}?`, `Replace ${after}`)
    if (ok) sync.truncate(sync.cursor); else redraw()
    return ok
  }
  const enter = async (move) => {
    if (!mayEnter()) return
    const before = sync.position
    if (!(await makeRoom(move.from + move.to + (move.promotion || "")))) return
    const next = rulesAt(before)
    const played = next.move({from: move.from, to: move.to, promotion: move.promotion})
    const fen = next.fen()
    sync.append(numberOf(before, sync.length === 0), {
      token: written(played.san, writing()), san: played.san, label: labelOf(before, played.san),
      uci: played.from + played.to + (played.promotion || ""), fen, is_legal: true, reason: null,
    })
  }
  const enterIllegal = async (from, to, promotion) => {
    if (!mayEnter()) return
    const before = sync.position, token = longForm(rulesAt(before), from, to, promotion)
    if (!token) return
    const ok = await ask(`${token} is not a legal move here. Enter it as it was played (for an illegal-move claim)?`, "Enter illegal move")
    if (!ok) { redraw(); return }
    if (!(await makeRoom(from + to + (promotion || "")))) return
    sync.append(numberOf(before, sync.length === 0), {
      token: written(token, writing()), san: token, label: labelOf(before, token), uci: from + to + (promotion || ""),
      fen: before, is_legal: false, reason: "being read",
    })
    await sync.read()  // the server's reading of it is the one shown (its position after the move, its reason)
  }
  const keypad = new Keypad(root.querySelector("[data-keypad]"), (san) => {
    const move = rules.moves({verbose: true}).find((m) => m.san.replace(/[+#]$/, "") === san)
    if (move) enter(move)
  })

  // -- destination first: the tap's square, read before the board's own input sees the tap (capture phase)
  let held = null        // the square of the piece picked up: a from→to move is under way, the board's input has the tap
  let choosing = null    // {to, moves}: a destination several legal moves end on, waiting for the origin's tap
  let consumed = false   // this tap chose an origin: the board's input must not pick that piece up
  let pressed = null     // the square pressed, when the tap is a destination tap (played on its click: not on a swipe)
  let colour = null
  const onInput = (event) => handleInput(event)
  const inputFor = (turn) => {  // the board's own input takes only the side to move's pieces: a tap on any other
    if (colour === turn) return  // square is left to the destination tap (and its click is not cancelled on touch)
    if (colour !== null) board.disableMoveInput()
    board.enableMoveInput(onInput, turn === "b" ? COLOR.black : COLOR.white)
    colour = turn
  }
  const endChoice = () => {
    if (!choosing) return
    choosing = null
    board.removeMarkers?.(MARKER_TYPE.circlePrimary)
    board.removeMarkers?.(MARKER_TYPE.framePrimary)
    delete boardElement.dataset.choosing
    delete boardElement.dataset.origins
    say()
  }
  const playTo = (move) => {
    if (move.promotion) promote(move.from, move.to, rules.get(move.from).color, false)
    else enter(move)
  }
  const squareOf = (event) => event.target?.getAttribute?.("data-square") || null
  const destination = (to) => {
    const moves = rules.moves({verbose: true}).filter((m) => m.to === to)
    const origins = [...new Set(moves.map((m) => m.from))].sort()
    const side = rules.turn() === "w" ? "White" : "Black"
    if (!origins.length) {
      status.textContent = `No move of ${side}'s ends on ${to}: tap a piece to move it`
      return
    }
    if (origins.length === 1) { playTo(moves[0]); return }
    choosing = {to, moves}
    origins.forEach((square) => board.addMarker(MARKER_TYPE.circlePrimary, square))
    board.addMarker(MARKER_TYPE.framePrimary, to)
    boardElement.dataset.choosing = to
    boardElement.dataset.origins = origins.join(" ")
    const names = origins.map((square) => (rules.get(square).type === "p" ? "" : rules.get(square).type.toUpperCase()) + square)
    status.textContent = `To ${to}: tap the piece that went there (${names.join(" or ")})`
    status.className = "entry-status"
  }
  boardElement.addEventListener("pointerdown", (event) => {
    consumed = false
    pressed = null
    const square = squareOf(event)
    if (choosing) {
      const {to, moves} = choosing
      const chosen = square ? moves.find((m) => m.from === square) : undefined
      endChoice()
      if (chosen || square === to) {  // the origin: its move; the destination again: the choice dropped, nothing else
        consumed = true
        if (chosen) playTo(chosen)
        return
      }
    }
    if (!square || held || !mayEnter() || board.isPromotionDialogShown()) return
    const piece = rules.get(square)
    if (piece && piece.color === rules.turn()) return  // one's own piece: the usual from→to move
    pressed = square
  }, {capture: true})
  boardElement.addEventListener("click", (event) => {
    const square = squareOf(event), target = pressed
    pressed = null
    if (target && square === target && !held && mayEnter()) destination(target)
  }, {capture: true})

  const promote = (from, to, color, illegal) => board.showPromotionDialog(to, color, (result) => {
    if (result?.type === PROMOTION_DIALOG_RESULT_TYPE.pieceSelected) {
      const piece = result.piece.charAt(1)
      if (illegal) enterIllegal(from, to, piece); else enter({from, to, promotion: piece})
    } else {
      redraw()
    }
  })
  const handleInput = (event) => {
    switch (event.type) {
      case INPUT_EVENT_TYPE.moveInputStarted: {
        if (consumed || !mayEnter() || board.isPromotionDialogShown()) return false
        const piece = rules.get(event.squareFrom)
        if (!piece || piece.color !== rules.turn()) return false
        board.addLegalMovesMarkers(rules.moves({square: event.squareFrom, verbose: true}))
        held = event.squareFrom
        return true
      }
      case INPUT_EVENT_TYPE.validateMoveInput: {
        held = null
        board.removeLegalMovesMarkers()
        const from = event.squareFrom, to = event.squareTo
        const moves = rules.moves({square: from, verbose: true}).filter((m) => m.to === to)
        const piece = rules.get(from), target = rules.get(to)
        const lastRank = piece?.type === "p" && (to[1] === "8" || to[1] === "1")
        if (moves.length) {
          if (moves[0].promotion) promote(from, to, piece.color, false)
          else enter(moves[0])
          return true
        }
        if (!piece || (target && (target.color === piece.color || target.type === "k"))) return false
        if (lastRank) promote(from, to, piece.color, true)
        else enterIllegal(from, to)
        return false
      }
      case INPUT_EVENT_TYPE.moveInputCanceled:
        held = null
        board.removeLegalMovesMarkers()
        return undefined
      default:
        return undefined
    }
  }
  inputFor(rules.turn())

  // -- the controls
  root.querySelector("[data-takeback]").addEventListener("click", () => {
    if (sync.busy || confirmDone) return
    sync.truncate(sync.unreadable ? sync.length : Math.max(0, sync.length - 1))
  })
  root.querySelector("[data-prev]").addEventListener("click", () => sync.step(sync.cursor - 1))
  root.querySelector("[data-next]").addEventListener("click", () => sync.step(sync.cursor + 1))
  const flip = root.querySelector("[data-flip]")
  flip.addEventListener("click", async () => {
    const black = board.getOrientation() === COLOR.white
    await board.setOrientation(black ? COLOR.black : COLOR.white)
    flip.setAttribute("aria-pressed", String(black))
    boardElement.dataset.orientation = black ? "black" : "white"
  })
  const typeToggle = root.querySelector("[data-keypad-toggle]")
  typeToggle.addEventListener("click", () => {
    const open = typeToggle.getAttribute("aria-pressed") !== "true"
    typeToggle.setAttribute("aria-pressed", String(open))
    keypad.element.hidden = !open
    boardElement.hidden = open
    keypad.reset(rules, writing())
  })
  languageSelect?.addEventListener("change", () => sync.schedule(0))

  // -- the opponent's scoresheet on this board too (issue 37, item 5: scoresheet-switch.js)
  const {chessSheets} = await import(here("scoresheet-switch.js"))
  chessSheets(root, sync, () => languageSelect?.value || "")

  boardElement.dataset.orientation = "white"
  root.hidden = false
  renderChips(chips, sync)
  await sync.read()
  root.dataset.ready = "2"
}

function initAll(scope) {
  (scope || document).querySelectorAll("[data-chess-entry]").forEach(initEntry)
}

document.addEventListener("DOMContentLoaded", () => initAll(document))
document.addEventListener("htmx:load", (event) => initAll(event.target))
if (document.readyState !== "loading") initAll(document)
