// One record, two views (issue 21): the record field (#f-record) and an entry board that plays it.
// This module is the game-agnostic half, shared by the chess and the checkers entry boards:
//
// - the record's plies as the server reads them (POST data-read-url: the ruling's own reader, so the
//   board, the chips and the verdict never disagree); a typed or pasted record is re-read (debounced),
//   and whoever sets the field from a script dispatches "input" on it to have it re-read;
// - appending a move the board entered (its token written into the text with a move number, before a
//   final result token) and truncating after a ply (takeback; entering a move while stepped back),
//   cutting the text at the token's place so that tags, comments and clocks before it stay;
// - the move chips under the board (tap one to see that position), the cursor (the ply shown), and
//   the candidate buttons above it (GET data-candidates-url; each carries data-candidate="<id>").
//
// The game's own half (the board, its rules, the move's token) is an adapter: see chess-entry.js.
// Events (on the RecordSync object): "plies" (the list changed), "cursor" (another ply is shown),
// "busy" (a read started or ended), "problem" (detail: a message, or "" when it is gone). On the field,
// "record:written" when the board wrote into it (the checkers board sends it too): the scoresheets'
// comparison (claims/_scoresheets.html) follows it after a pause; "input" and "change" stay for a
// record typed or set from elsewhere.

export class RecordSync extends EventTarget {
  constructor(root, field, {game, language = () => ""} = {}) {
    super()
    this.root = root
    this.field = field
    this.game = game
    this.language = language      // the language the TD chose for the record ("" = by rule)
    this.readUrl = root.dataset.readUrl
    this.plies = []               // {token, san, label, uci, fen, is_legal, reason, start, end}
    this.startFen = null
    this.reading = "en"           // the language the server read the record in
    this.unreadable = null        // {ply, token, reason, candidates, start, end}
    this.cursor = 0               // the ply whose position is shown (0 = the start)
    this.busy = false
    this.asked = 0
    this.timer = null
    this.text = field.value       // the text the plies were read from (or written to)
    field.addEventListener("input", () => this.schedule())
    field.addEventListener("change", () => { if (field.value !== this.text) this.schedule(0) })
  }

  get length() { return this.plies.length }
  get atEnd() { return this.cursor === this.plies.length }
  positionAt(ply) { return ply === 0 ? this.startFen : this.plies[ply - 1].fen }
  get position() { return this.positionAt(this.cursor) }

  emit(name, detail) { this.dispatchEvent(new CustomEvent(name, {detail})) }

  schedule(delay = 300) {
    clearTimeout(this.timer)
    this.setBusy(true)
    this.timer = setTimeout(() => this.read(), delay)
  }

  setBusy(busy) {
    if (this.busy === busy) return
    this.busy = busy
    this.root.setAttribute("aria-busy", String(busy))
    this.emit("busy", busy)
  }

  csrf() {
    return this.field.form?.querySelector('input[name="csrf_token"]')?.value || ""
  }

  // Read the field's text as the server reads it; the plies, the cursor (at the end) and the chips follow.
  async read() {
    clearTimeout(this.timer)
    const mine = ++this.asked, text = this.field.value
    this.setBusy(true)
    try {
      const body = new FormData()
      body.set("record", text)
      body.set("game", this.game)
      body.set("language", this.language())
      const response = await fetch(this.readUrl, {method: "POST", body, headers: {"X-CSRFToken": this.csrf(), Accept: "application/json"}})
      const answer = await response.json()
      if (mine !== this.asked) return
      this.text = text
      if (!response.ok) {
        this.plies = []; this.unreadable = null; this.cursor = 0; this.startFen = null
        this.emit("problem", answer.message || "the record cannot be read")
      } else {
        this.startFen = answer.start_fen
        this.reading = answer.language || "en"
        this.plies = answer.plies
        this.unreadable = answer.unreadable
        this.cursor = this.plies.length
        const bad = this.unreadable
        this.emit("problem", bad ? `Move ${bad.ply} (“${bad.token}”) cannot be read: ${bad.reason}` +
          (bad.candidates?.length ? `; it may be ${bad.candidates.join(" or ")}` : "") +
          ". Correct it in the record, or take it back." : "")
      }
      this.emit("plies")
    } catch {
      if (mine === this.asked) this.emit("problem", "The record could not be read (no answer from the server).")
    } finally {
      if (mine === this.asked) this.setBusy(false)
    }
  }

  // Write a move the board entered after the last ply: ``prefix`` is its move number ("12." or "12..."
  // or ""), ``ply`` its {token, san, label, uci, fen, is_legal, reason}. Returns the ply.
  append(prefix, ply) {
    let text = this.field.value
    const lastEnd = this.plies.length ? this.plies[this.plies.length - 1].end : 0
    let tail = ""
    const result = /\s*(?:1-0|0-1|1\/2-1\/2|½-½|\*)\s*$/.exec(text)
    if (result && result.index >= lastEnd) {
      tail = " " + text.slice(result.index).trim()
      text = text.slice(0, result.index)
    }
    const head = text.replace(/\s+$/, "")
    const sep = head ? (head.endsWith("]") ? "\n\n" : " ") : ""  // the moves below the tags, else one space apart
    const start = head.length + sep.length + (prefix ? prefix.length + 1 : 0)
    const added = {...ply, start, end: start + ply.token.length}
    this.field.value = head + sep + (prefix ? prefix + " " : "") + ply.token + tail
    this.field.dispatchEvent(new CustomEvent("record:written", {bubbles: true}))  // for the page (see the top)
    this.text = this.field.value
    this.plies = [...this.plies, added]
    this.cursor = this.plies.length
    this.emit("plies")
    return added
  }

  // Keep the first ``n`` plies: the text is cut where ply n+1 (or the unreadable token) begins, with
  // its move number; what stood before it (tags, comments, the clock of ply n) stays.
  truncate(n) {
    const next = n < this.plies.length ? this.plies[n] : (this.unreadable && n === this.plies.length ? this.unreadable : null)
    if (!next) return
    const cut = this.field.value.slice(0, next.start).replace(/\d+\s*(?:\.|…)+\s*$/, "").replace(/\s+$/, "")
    this.field.value = cut
    this.field.dispatchEvent(new CustomEvent("record:written", {bubbles: true}))
    this.text = cut
    this.plies = this.plies.slice(0, n)
    this.unreadable = null
    this.cursor = Math.min(this.cursor, n)
    this.emit("problem", "")
    this.emit("plies")
  }

  step(ply) {
    const to = Math.max(0, Math.min(this.plies.length, ply))
    if (to === this.cursor) return
    this.cursor = to
    this.emit("cursor")
  }
}

// The move chips: one button per ply (its label, "12.Nf3", and a mark when the move was illegal),
// the shown ply marked aria-current; a tap shows that position. The strip scrolls sideways and keeps
// the shown chip in view.
export function renderChips(list, sync) {
  const chips = [start(sync), ...sync.plies.map((ply, i) => {
    const button = document.createElement("button")
    button.type = "button"
    button.dataset.ply = String(i + 1)
    button.textContent = ply.label
    if (!ply.is_legal) {
      button.classList.add("is-illegal")
      button.title = `illegal: ${ply.reason || "not a legal move"}`
      button.setAttribute("aria-label", `${ply.label}, illegal: ${ply.reason || "not a legal move"}`)
      const mark = document.createElement("span")
      mark.className = "mark"
      mark.setAttribute("aria-hidden", "true")
      mark.textContent = "✗"
      button.append(mark)
    }
    return button
  })]
  list.replaceChildren(...chips.map((button) => {
    const item = document.createElement("li")
    item.append(button)
    return item
  }))
  markChip(list, sync)
}

function start(sync) {
  const button = document.createElement("button")
  button.type = "button"
  button.dataset.ply = "0"
  button.textContent = "Start"
  return button
}

export function markChip(list, sync) {
  let current = null
  list.querySelectorAll("button[data-ply]").forEach((button) => {
    const here = Number(button.dataset.ply) === sync.cursor
    if (here) { button.setAttribute("aria-current", "step"); current = button } else button.removeAttribute("aria-current")
  })
  if (current) list.scrollLeft = Math.max(0, current.offsetLeft - list.clientWidth / 2 + current.offsetWidth / 2)
}

// The candidate buttons of the shown position. The page's own candidates (``local``, worked out in the page:
// chess-candidates.js) are drawn at once, and carry data-local-ply (the ply they are for): the next tap never
// waits for the network (issue 37). The server's ranking is asked for meanwhile (one request per position,
// answers kept) and replaces them when it arrives, if that position is still shown; then the bar carries
// data-ply and aria-busy="false" (aria-busy is "true" while the server is asked). Each button carries
// data-candidate="<id>". ``layout`` lays the candidates (best first) out as the row shows them:
// [{candidate, group}] (default: best first, no groups); each button carries data-group, and the first
// button of each group data-group-start (chess: chess-candidates.js rowLayout, the likeliest first, then
// by piece and square). The row is redrawn only when its layout changes.
export class CandidateBar {
  constructor(bar, url, onChoose, {layout = (candidates) => candidates.map((candidate) => ({candidate, group: ""}))} = {}) {
    this.bar = bar
    this.url = url
    this.onChoose = onChoose
    this.layout = layout
    this.cache = new Map()
    this.asked = 0
    bar.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-candidate]")
      if (button && !button.disabled) this.onChoose(button.dataset.candidate, button)
    })
  }

  // ``params``: URLSearchParams of the question; ``ply``: the position's ply; ``label(c)``: a button's text;
  // ``local``: the page's own candidates for the position, drawn before the server answers (null: none)
  async show(params, ply, label, local = null) {
    const mine = ++this.asked
    this.bar.setAttribute("aria-busy", "true")
    delete this.bar.dataset.ply
    const url = `${this.url}?${params}`
    let answer = this.cache.get(url)
    if (local && !answer) {
      this.draw(local, label)
      this.bar.dataset.localPly = String(ply)
    } else {
      delete this.bar.dataset.localPly
      this.bar.querySelectorAll("button").forEach((b) => { b.disabled = true })
    }
    try {
      if (!answer) {
        const response = await fetch(url, {headers: {Accept: "application/json"}})
        if (!response.ok) throw new Error(String(response.status))
        answer = await response.json()
        this.cache.set(url, answer)
        if (this.cache.size > 500) this.cache.delete(this.cache.keys().next().value)
      }
      if (mine !== this.asked) return
      if (!local || !this.sameRow(local, answer.candidates)) this.draw(answer.candidates, label)
    } catch {
      if (mine === this.asked && !local) this.draw([], label)
    } finally {
      if (mine === this.asked) {
        this.bar.dataset.ply = String(ply)
        this.bar.dataset.localPly = String(ply)
        this.bar.setAttribute("aria-busy", "false")
      }
    }
  }

  draw(candidates, label) {
    let group = null
    this.bar.replaceChildren(...this.layout(candidates).map(({candidate, group: its}) => {
      const button = document.createElement("button")
      button.type = "button"
      button.dataset.candidate = candidate.uci ?? candidate.id
      button.dataset.source = candidate.source || ""
      if (its) {
        button.dataset.group = its
        if (its !== group) button.dataset.groupStart = ""
      }
      group = its
      button.textContent = label(candidate)
      return button
    }))
  }

  // The same buttons in the same places (the page's own candidates and the server's may be ranked apart
  // and still be laid out alike: then the row stays as the TD is reading it)
  sameRow(a, b) {
    const one = this.layout(a), other = this.layout(b)
    return one.length === other.length && one.every((x, i) => id(x.candidate) === id(other[i].candidate))
  }

  clear() {
    ++this.asked
    delete this.bar.dataset.localPly
    this.bar.replaceChildren()
    this.bar.setAttribute("aria-busy", "false")
  }
}

const id = (candidate) => candidate.uci ?? candidate.id
