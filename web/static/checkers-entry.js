// Checkers move entry on the claim form: one record, two views. The record field (#f-record)
// and the board ([data-move-entry="checkers"], inside [data-checkers-entry]) show the same game; a
// change to either redraws the other. Its hooks follow the chess board's (claims/_chess_entry.html):
// data-candidates, data-chips, data-confirm, data-takeback, data-prev, data-next, data-flip.
//
// - A tap on a piece then on its square plays a move (dragging works too); a jump with several
//   landings is played by tapping its last square, or each landing in turn, or by choosing among
//   the jumps listed when two end on the same square. Candidates above the board play the likeliest
//   moves in one tap (checkers-rules.js candidates). Each move is written into the record as PDN:
//   11-15, jumps with every landing square (15x24x31).
// - Takeback, a step to any ply (the moves are chips under the board), flip.
// - A move that is not legal can be entered on purpose (the illegal-move claim needs it): tapping
//   a square the piece cannot legally reach, or the "Illegal move" mode for a path of several squares
//   (an incomplete jump), asks first, with the server's reason; the chip is marked illegal.
// - The record is read by the server (POST data-read-url: adjudicator.checkers.replay, the reader
//   the ruling uses) when it is typed, pasted or filled, and the board follows; taps get their
//   answer in the page, without a round trip (checkers-rules.js).
const rules = await import(new URL(`checkers-rules.js${new URL(import.meta.url).search}`, import.meta.url).href)
const {SheetSwitch, checkersPlies, withUnreadable} = await import(new URL(`scoresheet-switch.js${new URL(import.meta.url).search}`, import.meta.url).href)

const SIDE = (red) => (red ? "Red" : "White")
const PIECE_NAMES = {r: "red man", R: "red king", w: "white man", W: "white king"}

function initEntry(root) {
  if (root.dataset.ready) return
  root.dataset.ready = "1"
  root.hidden = false
  const form = root.closest("form")
  let record = form.querySelector("#f-record")  // the scoresheet entered: the claimant's, or the opponent's (below)
  const grid = root.querySelector("[data-entry-board]")
  const squares = new Map([...grid.querySelectorAll("[data-square]")].map((b) => [Number(b.dataset.square), b]))
  const chips = root.querySelector("[data-chips]")
  const candidateBox = root.querySelector("[data-candidates]")
  const choiceBox = root.querySelector("[data-choices]")
  const confirmBox = root.querySelector("[data-confirm]")
  const status = root.querySelector("[data-entry-status]")
  const illegalButton = root.querySelector("[data-illegal-mode]")

  // the game: its start, and per ply the move as written, its path, legality, the position after
  let start = rules.startPosition()
  let plies = []
  let view = 0
  let selected = null  // {from, landings: []}
  let illegalMode = false
  let pending = null  // what the confirmation bar would do
  let written = record.value  // the record's text as this board last read or wrote it
  let readSeq = 0
  let candidateTimer = null
  let sheets = null  // the opponent's scoresheet on this board too (issue 37, item 5: see the end)
  let stale = false  // the plies are not yet the field's text (typed, being read again)

  const positionAt = (ply) => (ply ? plies[ply - 1].after : start)
  const current = () => positionAt(view)

  function load(reading) {
    const parsed = reading && reading.start_fen ? rules.fromFen(reading.start_fen) : null
    start = parsed || rules.startPosition()
    plies = []
    let pos = start
    for (const p of (reading && reading.plies) || []) {
      if (!p.made) break
      const after = rules.fromFen(p.fen) || pos
      plies.push({text: p.token, path: p.path, legal: p.legal, reason: p.reason, after})
      pos = after
    }
    view = plies.length
    selected = null
    pending = null
    stale = false
    const trouble = reading && (reading.error || (reading.unreadable && `ply ${reading.unreadable.ply} (${
      reading.unreadable.token}) cannot be read: ${reading.unreadable.reason}`) || reading.stopped)
    draw(trouble || "")
  }

  // ---------------------------------------------------------------- drawing
  function draw(message) {
    const pos = current()
    const last = view ? plies[view - 1] : null
    const targets = new Set(), landings = new Set()
    if (selected) {
      for (const m of movesFrom(pos, selected)) {
        targets.add(m.path[m.path.length - 1])
        m.path.slice(1, -1).forEach((n) => landings.add(n))
      }
    }
    squares.forEach((button, n) => {
      const piece = pos.board[n]
      if (button.dataset.piece !== piece) {
        button.dataset.piece = piece
        button.querySelector(".piece")?.remove()
        if (piece) {
          const span = document.createElement("span")
          // a king's K is drawn by the style sheet: the square's name (square 3: red king) says it
          span.className = `piece ${piece.toLowerCase() === "r" ? "red" : "white"}${piece === piece.toUpperCase() ? " king" : ""}`
          button.append(span)
        }
      }
      button.setAttribute("aria-label", `square ${n}${piece ? `: ${PIECE_NAMES[piece]}` : ""}`)
      button.classList.toggle("is-selected", Boolean(selected) && (selected.from === n || selected.landings.includes(n)))
      button.classList.toggle("is-target", targets.has(n))
      button.classList.toggle("is-landing", landings.has(n))
      button.classList.toggle("is-last", Boolean(last) && last.path.includes(n))
      button.classList.toggle("is-illegal", Boolean(last) && !last.legal && last.path.includes(n))
      button.classList.toggle("is-mover", Boolean(piece) && (piece.toLowerCase() === "r") === pos.red)
    })
    drawChips()
    if (!stale) sheets?.update(checkersPlies(plies, start.red), written)
    // the candidates follow at once, after the board is drawn: a slow phone shows the move first
    // (as the chess board's bar: aria-busy while they are worked out, data-ply = the ply they are for)
    candidateBox.setAttribute("aria-busy", "true")
    delete candidateBox.dataset.ply
    clearTimeout(candidateTimer)
    candidateTimer = setTimeout(() => {
      drawCandidates(current())
      candidateBox.dataset.ply = String(view)
      candidateBox.setAttribute("aria-busy", "false")
    }, 0)
    const where = view ? `after ply ${view} of ${plies.length}` : (plies.length ? `the start (of ${plies.length} plies)` : "the start")
    const noMoves = !rules.legalMoves(pos).length
    status.textContent = message || `${where}: ${SIDE(pos.red)} ${noMoves ? "has no move (the game is over)" : "to move"}${
      selected ? ` · ${selected.from}${selected.landings.map((n) => `x${n}`).join("")} selected` : ""}${
      illegalMode ? " · illegal move: tap the piece, then each square it went to" : ""}`
    confirmBox.hidden = !pending
    if (!pending) choiceBox.hidden = choiceBox.childElementCount === 0
  }

  function drawChips() {
    const items = [chip(0, "Start", "Start: the position before the first move")]
    plies.forEach((p, i) => {
      const ply = i + 1, first = i % 2 === 0
      const text = `${first ? `${Math.floor(i / 2) + 1}. ` : ""}${p.text}${p.legal ? "" : " ✗"}`
      items.push(chip(ply, text, `${text}, ply ${ply}${p.legal ? "" : `, illegal${p.reason ? `: ${p.reason}` : ""}`}`,
        p.legal ? "" : "is-illegal"))
    })
    chips.replaceChildren(...items)
    chips.querySelector('[aria-current="step"]')?.scrollIntoView({block: "nearest", inline: "nearest"})
  }

  function chip(ply, text, label, cls = "") {
    const li = document.createElement("li")
    const button = document.createElement("button")
    button.type = "button"
    button.dataset.ply = String(ply)
    button.textContent = text
    button.setAttribute("aria-label", label)
    if (cls) button.className = cls
    if (ply === view) button.setAttribute("aria-current", "step")
    li.append(button)
    return li
  }

  function seenBefore() {
    const seen = new Set([rules.toFen(start)])
    for (let i = 0; i < view; i++) seen.add(rules.toFen(plies[i].after))
    return seen
  }

  function drawCandidates(pos) {
    const found = illegalMode ? [] : rules.candidates(pos, seenBefore())
    candidateBox.replaceChildren(...found.map((move) => {
      const button = document.createElement("button")
      button.type = "button"
      button.dataset.candidate = rules.moveText(move)
      button.dataset.source = move.source  // "repetition" is marked as the chess board marks it
      button.textContent = rules.moveText(move)
      return button
    }))
  }

  // ---------------------------------------------------------------- moves
  function movesFrom(pos, sel) {
    return rules.legalMoves(pos).filter((m) => m.path[0] === sel.from && follows(m.path.slice(1), sel.landings))
  }

  function follows(path, taps) {  // the tapped landings, in order, are on the path
    let i = 0
    for (const n of taps) {
      i = path.indexOf(n, i)
      if (i < 0) return false
      i++
    }
    return true
  }

  // play a move at the ply shown: the same as the record's next move just steps on; another move
  // replaces what follows (after asking, when anything would be lost)
  function play(move, legal = true, reason = null) {
    const text = legal ? rules.moveText(move) : rules.writtenAs(current(), move.path)
    selected = null
    choiceBox.replaceChildren()
    const next = plies[view]
    if (next && rules.sameMove(next, move) && next.legal === legal) {
      view += 1
      draw()
      return
    }
    const lost = rules.dropped(record.value, view)
    const commit = () => {
      const after = rules.push(current(), move)
      plies = plies.slice(0, view)
      plies.push({text, path: move.path.slice(), legal, reason, after})
      write(rules.writeRecord(record.value, view, [text]))
      view += 1
      draw()
      if (!legal) reread()  // the server's reason (and its reading) for the move entered on purpose
    }
    if (lost) ask(`${text} replaces what follows ply ${view} in the record: ${short(lost)}`, "Replace", commit)
    else commit()
  }

  const short = (text) => (text.length > 60 ? `${text.slice(0, 57)}…` : text)

  // the last move goes, with what followed it in the text (its comments, a result): the status says what went
  function takeback() {
    if (!plies.length) return
    const keep = plies.length - 1
    const lost = rules.dropped(record.value, keep)
    plies = plies.slice(0, keep)
    view = keep
    selected = null
    write(rules.writeRecord(record.value, keep, []))
    draw(`Took back ${short(lost)}`)
  }

  function tap(n) {
    if (pending) return
    const pos = current()
    const piece = pos.board[n]
    const own = Boolean(piece) && (piece.toLowerCase() === "r") === pos.red
    if (illegalMode) return tapIllegal(n, pos, own)
    if (!selected || (own && !selected.landings.length)) {
      if (selected && selected.from === n) { selected = null; return draw() }
      if (!own) return draw(piece ? `${SIDE(pos.red)} to move: tap a ${SIDE(pos.red).toLowerCase()} piece`
        : `tap the ${SIDE(pos.red).toLowerCase()} piece to move first`)
      selected = {from: n, landings: []}
      return draw()
    }
    const consistent = movesFrom(pos, {from: selected.from, landings: [...selected.landings, n]})
    const ending = consistent.filter((m) => m.path[m.path.length - 1] === n)
    if (ending.length === 1) return play(ending[0])
    if (ending.length > 1) return offer(ending)
    if (consistent.length === 1) return play(consistent[0])
    if (consistent.length > 1) {
      selected.landings.push(n)
      return offer(consistent)
    }
    if (piece) return draw(`square ${n} is occupied`)
    const squaresTapped = [selected.from, ...selected.landings, n]
    askIllegal(squaresTapped)
  }

  function tapIllegal(n, pos, own) {
    if (!selected) {
      if (!own) return draw(`tap the ${SIDE(pos.red).toLowerCase()} piece that was moved`)
      selected = {from: n, landings: []}
      return draw()
    }
    if (pos.board[n] && n !== selected.from) return draw(`square ${n} is occupied`)
    selected.landings.push(n)
    askIllegal([selected.from, ...selected.landings])
  }

  function offer(moves) {
    choiceBox.replaceChildren(...moves.map((move) => {
      const button = document.createElement("button")
      button.type = "button"
      button.textContent = rules.moveText(move)
      button.addEventListener("click", () => play(move))
      return button
    }))
    choiceBox.hidden = false
    draw(`${moves.length} jumps fit: choose one`)
  }

  // a move entered on purpose although it is not legal: ask, with the server's reason
  function askIllegal(path) {
    const pos = current()
    const legal = rules.legalMoves(pos).find((m) => rules.sameMove(m, {path}))
    if (legal) return play(legal)
    const move = rules.physical(pos, path)
    if (!move) return draw("that move cannot be made on the board")
    const text = rules.writtenAs(pos, path)
    const question = `${text} is not a legal move here. Enter it as played, marked illegal?`
    ask(question, "Enter as played", () => { illegalMode = false; syncIllegalButton(); play(move, false, null) })
    serverReason(text).then((reason) => {
      if (reason && pending && pending.text === text) confirmBox.querySelector("[data-confirm-text]").textContent =
        `${text} is not a legal move here: ${reason}. Enter it as played, marked illegal?`
    })
    if (pending) pending.text = text
  }

  function ask(question, yes, action) {
    pending = {action}
    confirmBox.querySelector("[data-confirm-text]").textContent = question
    confirmBox.querySelector("[data-confirm-yes]").textContent = yes
    draw()
    confirmBox.querySelector("[data-confirm-yes]").focus()
  }

  function answer(yes) {
    const chosen = pending
    pending = null
    selected = null
    if (yes && chosen) chosen.action()
    else draw()
  }

  // ---------------------------------------------------------------- the record field
  // the board's own writing: "record:written" tells the page (the scoresheets' comparison waits for a pause
  // in it); no "input" or "change", which mean a record typed or set from elsewhere, to be read again
  function write(text) {
    record.value = text
    written = text
    record.dispatchEvent(new CustomEvent("record:written", {bubbles: true}))
  }

  async function readServer(text) {
    const body = new URLSearchParams({record: text})
    const token = form.querySelector('input[name="csrf_token"]')?.value || ""
    const response = await fetch(root.dataset.readUrl, {method: "POST", body,
      headers: {"X-CSRFToken": token, Accept: "application/json"}})
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    return response.json()
  }

  async function serverReason(text) {
    try {
      const reading = await readServer(rules.writeRecord(record.value, view, [text]))
      const ply = reading.plies[view]
      return ply && !ply.legal ? ply.reason : null
    } catch {
      return null
    }
  }

  async function reread() {
    const text = record.value, mine = ++readSeq
    try {
      const reading = await readServer(text)
      if (mine !== readSeq || record.value !== text) return  // typed on meanwhile: a later read answers
      load(reading)
    } catch {
      if (mine === readSeq) draw("the record could not be read here; the ruling reads it when you submit")
    }
  }

  let timer = null
  const typed = () => {
    if (record.value === written) return
    written = record.value
    stale = true
    clearTimeout(timer)
    timer = setTimeout(reread, 250)
  }
  record.addEventListener("input", typed)
  record.addEventListener("change", typed)

  // ---------------------------------------------------------------- controls
  const syncIllegalButton = () => illegalButton.setAttribute("aria-pressed", String(illegalMode))
  root.addEventListener("click", (event) => {
    const button = event.target.closest("button")
    if (!button || !root.contains(button)) return
    if (button.dataset.square) tap(Number(button.dataset.square))
    else if (button.dataset.candidate) {
      const move = rules.legalMoves(current()).find((m) => rules.moveText(m) === button.dataset.candidate)
      if (move) play(move)
    } else if (button.dataset.ply !== undefined) { view = Number(button.dataset.ply); selected = null; draw() }
    else if (button.hasAttribute("data-first")) { view = 0; selected = null; draw() }
    else if (button.hasAttribute("data-prev")) { view = Math.max(0, view - 1); selected = null; draw() }
    else if (button.hasAttribute("data-next")) { view = Math.min(plies.length, view + 1); selected = null; draw() }
    else if (button.hasAttribute("data-last")) { view = plies.length; selected = null; draw() }
    else if (button.hasAttribute("data-takeback")) takeback()
    else if (button.hasAttribute("data-flip")) flip(button)
    else if (button.hasAttribute("data-confirm-yes")) answer(true)
    else if (button.hasAttribute("data-confirm-no")) answer(false)
    else if (button.hasAttribute("data-illegal-mode")) {
      illegalMode = !illegalMode
      selected = null
      syncIllegalButton()
      draw()
    } else return
    event.preventDefault()
  })

  // dragging: a piece pressed on one square and let go on another is the two taps
  let pressed = null
  grid.addEventListener("pointerdown", (event) => {
    const button = event.target.closest("[data-square]")
    pressed = button ? Number(button.dataset.square) : null
  })
  grid.addEventListener("pointerup", (event) => {
    const from = pressed
    pressed = null
    if (from === null) return
    const under = document.elementFromPoint(event.clientX, event.clientY)?.closest("[data-square]")
    const to = under && grid.contains(under) ? Number(under.dataset.square) : null
    if (to === null || to === from) return
    if (!selected || selected.from !== from) { selected = null; tap(from) }
    tap(to)
  })

  function flip(button) {
    const flipped = button.getAttribute("aria-pressed") !== "true"
    button.setAttribute("aria-pressed", String(flipped))
    grid.replaceChildren(...[...grid.children].reverse())
    grid.setAttribute("aria-label", `checkers board, ${flipped ? "White" : "Red"} at the top`)
  }

  // ---------------------------------------------------------------- the opponent's scoresheet (issue 37, item 5)
  // The board enters either scoresheet (scoresheet-switch.js): each field's game is kept while the other is
  // entered, so a switch back redraws at once; a field changed meanwhile is read again.
  const kept = new Map()
  const listened = new Set([record])
  const retarget = (field) => {
    if (field === record) return
    if (record.value === written && !stale) kept.set(record, {text: written, start, plies, view})
    clearTimeout(timer)
    readSeq++  // a reading on its way for the other field is dropped
    record = field
    if (!listened.has(field)) { field.addEventListener("input", typed); field.addEventListener("change", typed); listened.add(field) }
    const mine = kept.get(field)
    written = field.value
    if (mine && mine.text === field.value) {
      ({start, plies, view} = mine)
      selected = null
      pending = null
      draw()
    } else {
      load(null)
      if (field.value.trim()) { stale = true; reread() }
    }
  }
  const readSheet = async (text) => {
    const reading = await readServer(text)
    const first = rules.fromFen(reading.start_fen) || rules.startPosition()
    return withUnreadable(checkersPlies(reading.plies.map((p) => ({text: p.token, path: p.path})), first.red),
      reading.unreadable, (token) => token)  // the server quotes it
  }
  sheets = new SheetSwitch(root, {retarget, read: readSheet})

  let reading = null
  try { reading = JSON.parse(root.dataset.reading || "null") } catch { reading = null }
  load(reading)
}

function initAll(scope) {
  (scope || document).querySelectorAll("[data-checkers-entry]").forEach(initEntry)
}

document.addEventListener("htmx:load", (event) => initAll(event.target))
initAll(document)
