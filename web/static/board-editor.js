// The position editor on the claim form: a cm-chessboard with a palette of pieces.
// Pick a piece (or the eraser) and tap squares; the FEN field below is kept in step,
// and typing a FEN there redraws the board. Without JavaScript the FEN field alone works.
const VENDOR = document.querySelector('meta[name="cm-chessboard"]')?.content

function castlingRights(placement) {
  const rows = placement.split("/")
  const expand = (row) => row.replace(/\d/g, (n) => "-".repeat(Number(n)))
  const rank1 = expand(rows[7] || ""), rank8 = expand(rows[0] || "")
  let rights = ""
  if (rank1[4] === "K" && rank1[7] === "R") rights += "K"
  if (rank1[4] === "K" && rank1[0] === "R") rights += "Q"
  if (rank8[4] === "k" && rank8[7] === "r") rights += "k"
  if (rank8[4] === "k" && rank8[0] === "r") rights += "q"
  return rights || "-"
}

// The Content-Security-Policy (web/security.py) refuses style attributes written into the
// markup, and cm-chessboard writes the coordinates' font size as one (Svg.addElement). The
// same declarations set through the element's style object are allowed: route them there.
let stylesAllowed = null
function allowStylesUnderCsp() {
  stylesAllowed ??= import(VENDOR + "src/lib/Svg.js").then(({Svg}) => {
    const addElement = Svg.addElement
    const createSvg = Svg.createSvg
    // cm-chessboard gives its svg role="img" without a name (axe: svg-img-alt): name it
    Svg.createSvg = (container) => {
      const svg = createSvg.call(Svg, container)
      svg.setAttribute("aria-label", "chess board: choose a piece above, then tap a square to place it")
      return svg
    }
    Svg.addElement = (parent, name, attributes = {}) => {
      const {style, ...rest} = attributes
      const element = addElement.call(Svg, parent, name, rest)
      if (style) element.style.cssText = style
      return element
    }
  })
  return stylesAllowed
}

async function initEditor(root) {
  if (root.dataset.ready || !VENDOR) return
  root.dataset.ready = "1"
  const {Chessboard, FEN, POINTER_EVENTS} = await import(VENDOR + "src/Chessboard.js")
  await allowStylesUnderCsp()
  const form = root.closest("form")
  const input = form.querySelector('input[name="fen"]')
  const turn = root.querySelector("[data-turn]")
  const placementOf = (fen) => (fen || "").trim().split(/\s+/)[0]
  const initial = placementOf(input.value) || placementOf(FEN.start)
  const board = new Chessboard(root.querySelector("[data-board]"), {
    position: initial,
    assetsUrl: VENDOR + "assets/",
    style: {pieces: {file: "pieces/standard.svg"}, animationDuration: 0},
  })
  if (input.value) {
    const side = input.value.trim().split(/\s+/)[1]
    if (side === "w" || side === "b") turn.value = side
  }
  let selected = "wk"
  const palette = root.querySelectorAll("[data-piece]")
  const choose = (button) => {
    palette.forEach((b) => b.setAttribute("aria-pressed", String(b === button)))
    selected = button.dataset.piece
  }
  palette.forEach((button) => button.addEventListener("click", () => choose(button)))
  choose(root.querySelector('[data-piece="wk"]'))
  const write = () => {
    const placement = board.getPosition()
    input.value = `${placement} ${turn.value} ${castlingRights(placement)} - 0 1`
  }
  board.enableSquareSelect(POINTER_EVENTS.pointerdown, async (event) => {
    if (!event.square) return
    const current = board.getPiece(event.square)
    const piece = selected === "x" || current === selected ? null : selected
    await board.setPiece(event.square, piece)
    write()
  })
  turn.addEventListener("change", write)
  root.querySelector("[data-start]")?.addEventListener("click", async () => {
    await board.setPosition(FEN.start); turn.value = "w"; write()
  })
  root.querySelector("[data-clear]")?.addEventListener("click", async () => {
    await board.setPosition(FEN.empty); write()
  })
  input.addEventListener("change", () => {
    const placement = placementOf(input.value)
    if (/^[1-8pnbrqkPNBRQK]+(\/[1-8pnbrqkPNBRQK]+){7}$/.test(placement)) board.setPosition(placement)
  })
  root.hidden = false
  root.dataset.ready = "2"
}

function initAll(scope) {
  (scope || document).querySelectorAll("[data-board-editor]").forEach(initEditor)
}

document.addEventListener("DOMContentLoaded", () => initAll(document))
document.addEventListener("htmx:load", (event) => initAll(event.target))
if (document.readyState !== "loading") initAll(document)
