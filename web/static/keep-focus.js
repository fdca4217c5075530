// A refused form lands with its first error focused (autofocus; issue 22). The boards drawn above the
// field after the page arrives (the move-entry board, the position editors) push it down, off the screen:
// until the page has settled (or the user scrolls, taps or types), keep the focused error in view, with its
// words under or over it.
const SETTLE_MS = 4000

function watch() {
  const field = document.activeElement
  if (!field || field === document.body || !field.closest("[aria-invalid='true'], #form-errors, .has-error")) return
  let done = false
  // the field with its error's words: its box in the form (the fieldset of a group), when it fits the screen
  const around = field.closest(".has-error, fieldset, .field")
  const keep = () => {
    if (done || document.activeElement !== field) return
    const whole = around && around.getBoundingClientRect().height < window.innerHeight * 0.8 ? around : field
    const box = whole.getBoundingClientRect()
    if (box.top < 0 || box.bottom > window.innerHeight) whole.scrollIntoView({block: "center"})
  }
  const observer = new ResizeObserver(keep)
  const stop = () => {
    done = true
    observer.disconnect()
    for (const name of ["wheel", "touchstart", "keydown"]) window.removeEventListener(name, stop)
  }
  observer.observe(document.body)
  for (const name of ["wheel", "touchstart", "keydown"]) window.addEventListener(name, stop, {passive: true})
  setTimeout(stop, SETTLE_MS)
}

document.addEventListener("htmx:afterSettle", () => setTimeout(watch, 0))
if (document.readyState === "complete") setTimeout(watch, 0)
else window.addEventListener("load", () => setTimeout(watch, 0))  // a page load's autofocus comes before
