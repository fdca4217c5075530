// "Copy the link" (issue 22): a button shown only where this script runs, copying the field it names.
// The clipboard API needs a secure page (HTTPS or localhost); elsewhere the field's text is selected
// and copied the old way, and the status line says which happened.
function init(scope) {
  for (const button of (scope || document).querySelectorAll("[data-copy]")) {
    if (button.dataset.ready) continue
    button.dataset.ready = "1"
    const field = document.querySelector(button.dataset.copy)
    const status = button.closest(".card")?.querySelector("[data-copy-status]")
    if (!field) continue
    button.hidden = false
    button.addEventListener("click", async () => {
      let copied = false
      try {
        await navigator.clipboard.writeText(field.value)
        copied = true
      } catch {
        field.select()
        copied = document.execCommand?.("copy") ?? false
      }
      if (status) status.textContent = copied ? "Copied." : "Selected: copy it with your phone's menu."
    })
  }
}

document.addEventListener("htmx:load", (event) => init(event.target))
if (document.readyState !== "loading") init(document)
else document.addEventListener("DOMContentLoaded", () => init(document))
