// The claim form's layout in the page (issue 37): small behaviours that keep it to one screen.
//
// - The broadcast's search (claims/_broadcast.html): Enter searches, it never submits the form (the form's
//   first submit button is Rule, in the claim bar).
// - The position editor is a mode ("or set up the position", details.position-setup): a move entered on
//   the entry board closes it, so that one board is on the screen while a record is entered.
document.addEventListener("keydown", (event) => {
  const input = event.target.closest?.("[data-broadcast-search] input")
  if (!input || event.key !== "Enter") return
  event.preventDefault()
  window.htmx?.trigger(input, "search")
})

document.addEventListener("record:written", (event) => {
  const form = event.target.closest?.("form")
  form?.querySelector("details.position-setup[open]")?.removeAttribute("open")
})
