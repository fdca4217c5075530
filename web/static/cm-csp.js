// cm-chessboard under the app's Content-Security-Policy (web/security.py), shared by the boards on the
// claim form (board-editor.js, chess-entry.js). The policy refuses style attributes written into the
// markup, and cm-chessboard writes the coordinates' font size as one (Svg.addElement). The same
// declarations set through the element's style object are allowed: route them there. Patched once.
let patched = null

export function allowStylesUnderCsp(vendor) {
  patched ??= import(vendor + "src/lib/Svg.js").then(({Svg}) => {
    const addElement = Svg.addElement
    Svg.addElement = (parent, name, attributes = {}) => {
      const {style, ...rest} = attributes
      const element = addElement.call(Svg, parent, name, rest)
      if (style) element.style.cssText = style
      return element
    }
  })
  return patched
}

// cm-chessboard gives its svg role="img" without a name (axe: svg-img-alt): name each board
export function nameBoard(container, label) {
  const svg = container.querySelector("svg.cm-chessboard") || container.querySelector("svg")
  if (svg) svg.setAttribute("aria-label", label)
}
