// The opponent's scoresheet on the entry board (issue 37, item 5): one board, two target fields.
//
// The entry board (chess-entry.js, checkers-entry.js) writes the moves it is given into one field: the
// claimant's scoresheet (#f-record) or, after a tap on "Opponent's sheet" ([data-sheet-switch]), the
// opponent's (#f-opponent_record, in claims/_scoresheets.html). The same taps, candidates, takeback and
// chips serve both; each field keeps its own text, and its reading is kept in the page while the other is
// entered, so that a switch back costs no round trip. Without JavaScript both stay textareas.
//
// As the TD enters either sheet, the page compares the two, move by move (by the move played: a UCI in
// chess, the squares in checkers, as adjudicator.scoresheets does), and shows the first ply where they
// differ as soon as the TD reaches it ([data-sheet-compare], data-first-difference), with both moves as
// written: no wait for the server. The sheet being entered is unfinished: it differs from the other only
// at a move the other has not (or has not there); when it is longer than the other, at the other's end.
// The server's comparison (the details below the record, then the ruling's) stays the authority.
//
// The board's half (an adapter): ``retarget(field)`` makes the board play that field's record, and
// ``read(text)`` reads a record the board is not showing (the server's reader, once per change of it);
// the board calls ``update(plies)`` whenever its plies change, each ply {key, written}.

const SIDES = ["claimant", "opponent"]
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"  // an empty record's start, as the server reads it
const WHOSE = {claimant: "the claimant's", opponent: "the opponent's"}

// The first ply where ``current`` (the sheet being entered) and ``other`` read different moves
// (1 = the first move), or null when they agree so far.
export function firstDifference(current, other) {
  const common = Math.min(current.length, other.length)
  for (let i = 0; i < common; i++) if (current[i].key !== other[i].key) return i + 1
  return current.length > other.length ? other.length + 1 : null
}

export class SheetSwitch {
  constructor(root, {retarget, read}) {
    this.root = root
    this.form = root.closest("form")
    this.fields = {claimant: this.form.querySelector("#f-record"), opponent: this.form.querySelector("#f-opponent_record")}
    this.retarget = retarget
    this.readSheet = read
    this.side = "claimant"
    this.kept = {claimant: null, opponent: null}   // {text, plies}: each sheet's plies, as read from that text
    this.asked = 0
    this.timer = null
    this.ply = null       // the first difference shown
    this.switcher = root.querySelector("[data-sheet-switch]")
    this.line = root.querySelector("[data-sheet-compare]")
    this.off = !this.fields.opponent || !this.switcher || !this.line  // a form without the opponent's field
    if (this.off) return
    this.switcher.hidden = false
    this.switcher.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-sheet]")
      if (button) this.switchTo(button.dataset.sheet)
    })
    for (const side of SIDES) {  // a sheet typed or pasted while the other is on the board: read again, after a pause
      const field = this.fields[side]
      const typed = () => { if (side !== this.side) { clearTimeout(this.timer); this.timer = setTimeout(() => this.show(), 300) } }
      field.addEventListener("input", typed)
      field.addEventListener("change", typed)
    }
    this.show()
  }

  get target() { return this.fields[this.side] }

  // Enter the other sheet on the board: its record is played there, the first difference follows it.
  switchTo(side) {
    if (!SIDES.includes(side) || side === this.side) return
    this.side = side
    this.switcher.querySelectorAll("button[data-sheet]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.sheet === side)))
    this.root.dataset.sheetEntered = side
    if (side === "opponent") this.fields.opponent.closest("details")?.setAttribute("open", "")
    this.retarget(this.fields[side])
    this.show()
  }

  // The board's plies of the sheet it shows changed (``text``: the record they were read from).
  update(plies, text = this.target.value) {
    if (this.off) return
    const kept = this.kept[this.side]
    this.mark()  // the chips may have been drawn afresh
    if (kept && kept.text === text && samePlies(kept.plies, plies)) return
    this.kept[this.side] = {text, plies}
    this.show()
  }

  // The comparison, once the sheet not on the board is known (read again only when its text changed).
  async show() {
    if (this.off) return
    const other = this.side === "claimant" ? "opponent" : "claimant"
    const mine = ++this.asked
    const text = this.fields[other].value
    if (!this.kept[other] || this.kept[other].text !== text) {
      let plies = []
      if (text.trim()) {
        this.reading = (this.reading || 0) + 1  // the comparison line is aria-busy while a sheet is read
        this.line?.setAttribute("aria-busy", "true")
        try { plies = await this.readSheet(text) } catch { plies = null }
        this.reading -= 1
        if (!this.reading) this.line?.setAttribute("aria-busy", "false")
      }
      if (mine !== this.asked) return
      if (plies === null) { this.say("", null); return }
      this.kept[other] = {text, plies}
    }
    const current = this.kept[this.side]?.text === this.target.value ? this.kept[this.side].plies : null
    if (current === null) return  // the board's reading of its sheet is on its way: update() follows
    const theirs = this.kept[other].plies
    const byside = this.side === "claimant" ? {claimant: current, opponent: theirs} : {claimant: theirs, opponent: current}
    if (!this.fields.opponent.value.trim() && this.side === "claimant") { this.say("", null); return }
    const ply = firstDifference(current, theirs)
    if (ply === null) {
      const n = current.length, whose = this.side === "claimant" ? "Claimant's" : "Opponent's"
      this.say(n ? `${whose} sheet: agrees with the ${other}'s up to ply ${n} (of ${theirs.length}).`
        : `${whose} sheet: enter its moves (the ${other}'s has ${theirs.length} plies).`, null)
      return
    }
    // both as written, the mover named once: "the claimant's sheet has White's 22-17, the opponent's 22-18"
    const claimants = byside.claimant[ply - 1]?.written, opponents = byside.opponent[ply - 1]?.written
    const mover = /^[A-Z][a-z]+'s /.exec(claimants || "")?.[0]
    const said = (written) => (mover && written.startsWith(mover) ? written.slice(mover.length) : written)
    this.say(`Ply ${ply} differs: the claimant's sheet ${claimants ? `has ${claimants}` : "ends before it"}, ` +
      `the opponent's ${opponents ? said(opponents) : "ends before it"}.`, ply)
  }

  say(text, ply) {
    this.line.hidden = !text
    this.line.textContent = text
    this.line.classList.toggle("differ", ply !== null)
    if (ply === null) delete this.line.dataset.firstDifference
    else this.line.dataset.firstDifference = String(ply)
    this.line.dataset.side = this.side
    this.ply = ply
    this.mark()
  }

  // The chip of the first difference is marked (is-differs), so that stepping through the game finds it.
  mark() {
    this.root.querySelectorAll("[data-chips] button.is-differs").forEach((b) => b.classList.remove("is-differs"))
    const chip = this.ply ? this.root.querySelector(`[data-chips] button[data-ply="${this.ply}"]`) : null
    chip?.classList.add("is-differs")
  }
}

function samePlies(a, b) {
  return a.length === b.length && a.every((p, i) => p.key === b[i].key && p.written === b[i].written)
}

// The plies, and after them the token the server's reader stopped at ({ply, token}), if any: a move as written
// that the other sheet does not have (as adjudicator.scoresheets reads it; two sheets that stop at the same ply
// agree there). ``shown``: the token as the line quotes it.
export function withUnreadable(plies, unreadable, shown = (token) => `“${token}”`) {
  if (!unreadable || unreadable.ply !== plies.length + 1) return plies
  return [...plies, {key: "unreadable", written: `${shown(unreadable.token)}, which cannot be read`}]
}

// ---------------------------------------------------------------- chess: the board's RecordSync (record-sync.js)

// A chess ply as compared: its move (UCI) and its move number with the token as written ("4.Lb5").
export function chessPly(ply) {
  const number = ply.label && ply.san && ply.label.endsWith(ply.san) ? ply.label.slice(0, ply.label.length - ply.san.length) : ""
  return {key: ply.uci, written: number + (ply.token ?? ply.san)}
}

// The chess board's half: its RecordSync is pointed at the other field (its reading kept per field, so a
// switch back redraws at once); the sheet not on the board is read by the board's own reader (POST data-read-url).
export function chessSheets(root, sync, language) {
  const kept = new Map()
  const retarget = (field) => {
    if (sync.field === field) return
    if (!sync.busy) kept.set(sync.field, {text: sync.text, plies: sync.plies, startFen: sync.startFen, reading: sync.reading,
      unreadable: sync.unreadable, cursor: sync.cursor})
    clearTimeout(sync.timer)
    sync.asked++           // an answer on its way for the other field is dropped
    sync.field = field
    let mine = kept.get(field)
    if (!field.value.trim()) mine = {text: field.value, plies: [], startFen: START, reading: sync.reading, unreadable: null, cursor: 0}
    if (mine && mine.text === field.value && !mine.unreadable) {
      Object.assign(sync, mine)
      sync.setBusy(false)
      sync.emit("problem", "")
      sync.emit("plies")
    } else {
      sync.read()
    }
  }
  const opponent = root.closest("form").querySelector("#f-opponent_record")
  if (opponent) {  // the record-sync reads the claimant's field when it is typed in; the opponent's the same way
    opponent.addEventListener("input", () => { if (sync.field === opponent) sync.schedule() })
    opponent.addEventListener("change", () => { if (sync.field === opponent && opponent.value !== sync.text) sync.schedule(0) })
  }
  const read = async (text) => {
    const body = new FormData()
    body.set("record", text)
    body.set("game", "chess")
    body.set("language", language())
    const response = await fetch(root.dataset.readUrl, {method: "POST", body, headers: {"X-CSRFToken": sync.csrf(), Accept: "application/json"}})
    if (!response.ok) return []
    const answer = await response.json()
    return withUnreadable(answer.plies.map(chessPly), answer.unreadable)
  }
  const sheets = new SheetSwitch(root, {retarget, read})
  const report = () => { if (!sync.busy) sheets.update(withUnreadable(sync.plies.map(chessPly), sync.unreadable), sync.text) }
  sync.addEventListener("plies", report)
  sync.addEventListener("busy", report)
  return sheets
}

// ---------------------------------------------------------------- checkers: checkers-entry.js keeps its own plies

// Checkers plies ({text, path}) as compared: by the squares, named as the server names them ("Red's 11-15").
export function checkersPlies(plies, redFirst) {
  return plies.map((p, i) => ({key: p.path.join("-"), written: `${(i % 2 === 0) === redFirst ? "Red" : "White"}'s ${p.text}`}))
}
