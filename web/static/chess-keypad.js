// The notation keypad of the chess entry board (issue 21), for those who type: piece letters in the
// record's language (or English), files, ranks, x, =, O-O and O-O-O. Only keys that continue a legal
// move of the shown position are enabled, and a move is entered as soon as what is typed fits one
// move alone (SAN without its check mark). The keys carry data-key (the English symbol).
const PIECES = ["K", "Q", "R", "B", "N"]
const FILES = ["a", "b", "c", "d", "e", "f", "g", "h"]
const RANKS = ["1", "2", "3", "4", "5", "6", "7", "8"]

export class Keypad {
  constructor(element, onMove) {
    this.element = element
    this.onMove = onMove
    this.typed = ""
    this.sans = []
    this.letters = {}
    this.output = element.querySelector("[data-typed]")
    const keys = element.querySelector("[data-keys]")
    const row = (names, cls) => {
      const div = document.createElement("div")
      div.className = `keypad-row ${cls}`
      for (const name of names) {
        const button = document.createElement("button")
        button.type = "button"
        button.dataset.key = name
        button.textContent = name
        div.append(button)
      }
      return div
    }
    keys.replaceChildren(row([...PIECES, "O-O", "O-O-O"], "pieces"), row(FILES, "files"), row(RANKS, "ranks"),
      row(["x", "=", "⌫"], "signs"))
    keys.querySelector('[data-key="⌫"]').setAttribute("aria-label", "delete the last key")
    keys.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-key]")
      if (button && !button.disabled) this.press(button.dataset.key)
    })
  }

  // A new position (or language): forget what was typed
  reset(rules, letters) {
    this.sans = rules.moves().map((san) => san.replace(/[+#]$/, ""))
    this.letters = letters
    this.typed = ""
    this.draw()
  }

  press(key) {
    if (key === "⌫") {
      this.typed = this.typed.slice(0, -1)
    } else if (key === "O-O" || key === "O-O-O") {
      if (this.sans.includes(key)) { this.typed = ""; this.onMove(key); return }
    } else {
      this.typed += key
      const fits = this.sans.filter((san) => san.startsWith(this.typed))
      if (fits.length === 1) {
        this.typed = ""
        this.draw()
        this.onMove(fits[0])
        return
      }
    }
    this.draw()
  }

  draw() {
    for (const button of this.element.querySelectorAll("button[data-key]")) {
      const key = button.dataset.key
      if (PIECES.includes(key)) button.textContent = this.letters[key] ?? key
      button.disabled = key === "⌫" ? !this.typed
        : key.startsWith("O-O") ? this.typed !== "" || !this.sans.includes(key)
          : !this.sans.some((san) => !san.startsWith("O-O") && san.startsWith(this.typed + key))
    }
    const shown = this.typed.replace(/^[KQRBN]/, (p) => this.letters[p] ?? p).replace(/=([QRBN])/, (_, p) => "=" + (this.letters[p] ?? p))
    this.output.textContent = shown || "…"
  }
}
