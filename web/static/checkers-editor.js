// The checkers position editor on the claim form, in the page: a tap on a square puts the
// chosen piece there (or takes it off when it is already there), Start and Empty set the
// board, Flip turns it round (White at the top), the side to move and a typed FEN are read, and
// the PDN FEN field is written as the server writes it (web/boards.py pdn_fen and edit_checkers).
// After each change the position
// is checked live by the server's own rule (GET data-check-url: the check a submitted
// position gets: at most 12 pieces a side, no man on its crowning row, not an empty board).
// Without JavaScript every tap is a form post that the server answers with the board redrawn
// and the same check written under it.
const START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"

// square -> "r" / "R" (red man / king) or "w" / "W"; null when the text is not a PDN FEN
// (the rules of web/boards.py parse_pdn_fen, line for line)
export function parsePdnFen(fen) {
  const m = /^\s*\[?\s*(?:FEN\s*"?)?([WBR])\s*:(.*?)"?\s*\]?\s*$/i.exec(fen || "")
  if (!m) return null
  const pieces = {}
  for (let part of m[2].split(":")) {
    part = part.trim().replace(/\.+$/, "")
    if (!part) continue
    const colour = part[0].toUpperCase()
    if (!"WBR".includes(colour)) return null
    const man = colour === "W" ? "w" : "r"
    for (let token of part.slice(1).split(",")) {
      token = token.trim()
      if (!token) continue
      const king = token[0].toUpperCase() === "K"
      const digits = king ? token.slice(1) : token
      let low, high
      if (digits.includes("-")) {
        const [a, b] = [digits.slice(0, digits.indexOf("-")), digits.slice(digits.indexOf("-") + 1)]
        if (!/^\s*[+-]?\d+\s*$/.test(a) || !/^\s*[+-]?\d+\s*$/.test(b)) return null
        ;[low, high] = [parseInt(a, 10), parseInt(b, 10)]
      } else {
        if (!/^\d{1,2}$/.test(digits)) return null
        low = high = parseInt(digits, 10)
      }
      for (let n = low; n <= high; n++) {
        if (n < 1 || n > 32) return null
        pieces[n] = king ? man.toUpperCase() : man
      }
    }
  }
  return pieces
}

export function pdnFen(pieces, redToMove) {
  const side = (colour) => Object.keys(pieces).map(Number).filter((n) => pieces[n].toLowerCase() === colour)
    .sort((a, b) => a - b).map((n) => (pieces[n] === pieces[n].toUpperCase() ? "K" : "") + n).join(",")
  return `${redToMove ? "B" : "W"}:W${side("w")}:B${side("r")}`
}

function initCheckers(root) {
  if (root.dataset.ready) return
  root.dataset.ready = "1"
  const form = root.closest("form")
  const input = form.querySelector('input[name="fen"]')
  const turn = root.querySelector('select[name="checkers_turn"]')
  const squares = new Map([...root.querySelectorAll("[data-square]")].map((b) => [Number(b.dataset.square), b]))
  let pieces = {}
  squares.forEach((button, n) => { if (button.dataset.piece) pieces[n] = button.dataset.piece })

  const draw = () => squares.forEach((button, n) => {
    const piece = pieces[n] || ""
    if (button.dataset.piece === piece) return
    button.dataset.piece = piece
    button.querySelector(".piece")?.remove()
    const colour = piece.toLowerCase() === "r" ? "red" : "white"
    button.setAttribute("aria-label", `square ${n}${piece ? `: ${colour} ${piece === piece.toUpperCase() ? "king" : "man"}` : ""}`)
    if (piece) {
      const span = document.createElement("span")
      span.className = `piece ${colour}`
      span.textContent = piece === piece.toUpperCase() ? "K" : ""
      button.append(span)
    }
  })
  const status = root.querySelector("[data-position-status]")
  let asked = 0, timer = null
  const show = (text, cls) => { status.textContent = text; status.className = `position-status ${cls}`.trim() }
  const check = () => {
    clearTimeout(timer)
    timer = setTimeout(async () => {
      const fen = input.value.trim(), mine = ++asked
      if (!fen) { show("", ""); return }
      try {
        const url = new URL(root.dataset.checkUrl, location.href)
        url.searchParams.set("fen", fen)
        const answer = await (await fetch(url, {headers: {Accept: "application/json"}})).json()
        if (mine !== asked) return  // a later edit asked again
        if (answer.is_legal === true) show("Legal position", "is-legal")
        else show(`Invalid position: ${String(answer.message || "")
          .replace(/^fen is not (a checkers position|a position): ('[^']*': )?/, "")}`, "is-illegal")
      } catch {
        if (mine === asked) show("", "")
      }
    }, 120)
  }
  const write = () => { input.value = pdnFen(pieces, turn.value === "red"); draw(); check() }
  const chosen = () => form.querySelector('input[name="checkers_piece"]:checked')?.value || "r"

  // in the capture phase, before htmx's own listeners on the buttons: no round trip
  root.addEventListener("click", (event) => {
    const button = event.target.closest("button")
    if (!button || !root.contains(button)) return
    if (button.dataset.square) {
      const n = Number(button.dataset.square), piece = chosen()
      if (piece === "x" || pieces[n] === piece) delete pieces[n]
      else pieces[n] = piece
    } else if (button.value === "start") {
      pieces = parsePdnFen(START)
    } else if (button.value === "clear") {
      pieces = {}
    } else if (button.hasAttribute("data-flip")) {  // the board turned round: the squares in reverse order
      const grid = root.querySelector(".checkers-grid"), flipped = root.querySelector('input[name="checkers_flipped"]')
      grid.append(...[...grid.children].reverse())
      flipped.value = flipped.value ? "" : "1"
      button.setAttribute("aria-pressed", String(Boolean(flipped.value)))
      grid.setAttribute("aria-label", `checkers board, ${flipped.value ? "White" : "Red"} at the top`)
      event.preventDefault()
      event.stopImmediatePropagation()
      return
    } else {
      return
    }
    event.preventDefault()
    event.stopImmediatePropagation()
    write()
  }, true)
  turn.addEventListener("change", (event) => { event.stopImmediatePropagation(); write() }, true)
  input.addEventListener("change", () => {
    check()
    const typed = parsePdnFen(input.value)
    if (typed === null) return  // not a FEN the board can show: the check above says what is wrong
    pieces = typed
    turn.value = input.value.trim().toUpperCase().startsWith("W") ? "white" : "red"
    draw()
  })
}

function initAll(scope) {
  (scope || document).querySelectorAll("#checkers-editor").forEach(initCheckers)
}

if (typeof document !== "undefined") {
  document.addEventListener("DOMContentLoaded", () => initAll(document))
  document.addEventListener("htmx:load", (event) => initAll(event.target))
  if (document.readyState !== "loading") initAll(document)
}
