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
  if (!event.detail.shouldSwap) return  // an answer not swapped in (dropped below, or an error) puts nothing back
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

// Nor is a later choice undone by an earlier answer. Two redraws may be on their way at once (an event picked,
// then the claim, before the first answer came): on a slow network the first answer can arrive last and would
// put back the claim it was asked with. An answer is dropped when a request sent after it targets the same
// element or one holding it (a later redraw of the whole form, or the claim submitted: the body); what that
// later request brings is the page's. A later request that never got an answer (network error) drops nothing.
// A select picked again while its own redraw is on its way replaces that redraw (hx-sync="this:replace" in
// claims/_form.html): htmx's default would drop the second pick.
let sequence = 0
const pending = []

function targetId(event) {
  const target = event.detail.target
  if (!(target instanceof Element)) return null
  return target === document.body ? "body" : target.id || null
}

function element(id) {
  return id === "body" ? document.body : document.getElementById(id)
}

document.addEventListener("htmx:beforeRequest", (event) => {
  const id = targetId(event)
  if (!id || !event.detail.xhr) return
  sequence += 1
  event.detail.xhr.sentAs = sequence
  pending.push({seq: sequence, id, xhr: event.detail.xhr})
  if (pending.length > 50) pending.shift()
})

function forget(xhr) {
  const at = pending.findIndex((entry) => entry.xhr === xhr)
  if (at >= 0) pending.splice(at, 1)
}

document.addEventListener("htmx:sendError", (event) => forget(event.detail.xhr))
document.addEventListener("htmx:sendAbort", (event) => forget(event.detail.xhr))

document.addEventListener("htmx:beforeSwap", (event) => {
  const xhr = event.detail.xhr
  const id = targetId(event)
  if (!xhr || !xhr.sentAs || !id) return
  const mine = element(id)
  const overtaken = pending.some((later) => {
    if (later.seq <= xhr.sentAs) return false
    if (later.id === id) return true
    const holder = element(later.id)
    return holder instanceof Element && mine instanceof Element && holder !== mine && holder.contains(mine)
  })
  if (overtaken) event.detail.shouldSwap = false
}, true)  // before the listener above, which then puts nothing back
