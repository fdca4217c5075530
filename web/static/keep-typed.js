// What the TD types is never replaced by an answer that left before it was typed. Round and board redraw the
// players (POST /claims/form fills them from the event's pairings); a name typed while that answer is on its
// way is kept, with the caret where it was. Fields nobody touched since the request left take the answer's
// value (the names the pairings give). Without JavaScript nothing is redrawn and the names are filled on submit.
const sent = new WeakMap()
let kept = null

document.addEventListener("htmx:beforeRequest", (event) => {
  const target = event.detail.target
  if (!(target instanceof Element) || !target.hasAttribute("data-keep-typed")) return
  for (const input of target.querySelectorAll("input[id]")) sent.set(input, input.value)
})

document.addEventListener("htmx:beforeSwap", (event) => {
  const target = event.detail.target
  if (!(target instanceof Element) || !target.hasAttribute("data-keep-typed")) return
  kept = []
  for (const input of target.querySelectorAll("input[id]")) {
    if (sent.has(input) && sent.get(input) !== input.value) {
      const focused = document.activeElement === input
      kept.push({id: input.id, value: input.value, focused,
                 start: focused ? input.selectionStart : null, end: focused ? input.selectionEnd : null})
    }
  }
})

document.addEventListener("htmx:afterSwap", () => {
  if (!kept) return
  for (const field of kept) {
    const input = document.getElementById(field.id)
    if (!(input instanceof HTMLInputElement)) continue
    input.value = field.value
    if (field.focused) {
      input.focus()
      if (field.start !== null) input.setSelectionRange(field.start, field.end)
    }
  }
  kept = null
})
