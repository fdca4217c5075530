// What the TD enters is never replaced by an answer that left before it was entered. A redraw of the claim
// form (POST /claims/form: a claim, a ruleset, a game or an event picked) or of the players (round and board
// fill them from the event's pairings) carries the form as it was when the request left; a name typed, a
// record pasted, a claimant or a flag ticked while that answer is on its way is kept, with the caret where it
// was. Fields nobody touched since the request left take the answer's value (the names the pairings give).
// A select that redraws the form itself is left to its own redraw. Without JavaScript nothing is redrawn.
const sent = new WeakMap()
let kept = null

function fields(target) {
  return target.querySelectorAll("input[id], input[type=radio][name], input[type=checkbox][name], textarea[id]")
}

function state(field) {
  return field.type === "radio" || field.type === "checkbox" ? field.checked : field.value
}

function key(field) {
  return field.type === "radio" || field.type === "checkbox" ? `${field.name}\u0000${field.value}` : field.id
}

document.addEventListener("htmx:beforeRequest", (event) => {
  const target = event.detail.target
  if (!(target instanceof Element) || !target.hasAttribute("data-keep-typed")) return
  for (const field of fields(target)) if (field.type !== "file") sent.set(field, state(field))
})

document.addEventListener("htmx:beforeSwap", (event) => {
  const target = event.detail.target
  if (!(target instanceof Element) || !target.hasAttribute("data-keep-typed")) return
  kept = []
  for (const field of fields(target)) {
    if (!sent.has(field) || sent.get(field) === state(field)) continue
    const focused = document.activeElement === field
    const text = typeof field.value === "string" && field.type !== "radio" && field.type !== "checkbox"
    kept.push({key: key(field), name: field.name, kind: field.type, value: state(field), focused,
               start: focused && text ? field.selectionStart : null, end: focused && text ? field.selectionEnd : null})
  }
})

function find(field) {
  if (field.kind === "radio" || field.kind === "checkbox") {
    for (const input of document.getElementsByName(field.name)) if (key(input) === field.key) return input
    return null
  }
  return document.getElementById(field.key)
}

document.addEventListener("htmx:afterSwap", () => {
  if (!kept) return
  for (const field of kept) {
    const input = find(field)
    if (!(input instanceof HTMLInputElement || input instanceof HTMLTextAreaElement)) continue
    if (field.kind === "radio" || field.kind === "checkbox") input.checked = field.value
    else input.value = field.value
    if (field.focused) {
      input.focus()
      if (field.start !== null) input.setSelectionRange(field.start, field.end)
    }
  }
  kept = null
})
