// The player's state over time: every change as one step of undo and redo, what follows a
// change (is the drawing a solution now? a new puzzle analysed), the progress kept in the
// browser's storage across a reload, and the timer.

import { state, key, cellOf, pairKey, playing, prunePairs, bridgeCount, clearShown, $, draw } from "./board.js";
import { api, listPairs, drawing, puzzleDocument, puzzleText } from "./api.js";
import { reconsider, say, solved, setSolved, showVerdict, verdict } from "./words.js";
import { analyseSoon, stopAnalysis } from "./analysis.js";

// ---------------------------------------------------------------------------- changes, undo, redo

// A moment of the page to return to: the puzzle and the player's state on it.
export function snapshot() {
  return JSON.stringify({
    puzzle: puzzleDocument(),
    play: progressOf(),
  });
}

function progressOf() {
  const placed = (k) => state.placed.get(k) ?? 0;
  return {
    bridges: [...state.bridges].map(([k, n]) => [...listPairs(k), n, placed(k)]),
    ruled_out: [...state.ruledOut].map((k) => [...listPairs(k), placed(k)]),
    narrowed: [...state.narrowed].map(([k, counts]) => [...listPairs(k), counts]),
    stepped: [...state.stepped].sort().map(listPairs),
    hint: state.ladder,
    locked: [...state.locked].sort().map(cellOf),
  };
}

// The player's state from progressOf()'s form (a snapshot, or the browser's storage).
export function setProgress(play) {
  const pair = (v) => pairKey([v[0], v[1]], [v[2], v[3]]);
  state.bridges = new Map((play.bridges || []).map((v) => [pair(v), v[4]]));
  state.ruledOut = new Set((play.ruled_out || []).map(pair));
  state.narrowed = new Map((play.narrowed || []).map((v) => [pair(v), v[4]]));
  state.placed = new Map([
    ...(play.bridges || []).map((v) => [pair(v), v[5] ?? 0]),
    ...(play.ruled_out || []).map((v) => [pair(v), v[4] ?? 0]),
  ]);
  state.placing = Math.max(0, ...state.placed.values());
  state.stepped = new Set((play.stepped || []).map(pair));
  state.ladder = play.hint || null;
  state.locked = new Set((play.locked || []).map(([r, c]) => key(r, c)));
  prunePairs();
}

// A pair the player draws on or marks is placed now, if it was empty.
export function place(k) {
  if (!state.placed.has(k)) state.placed.set(k, ++state.placing);
}

const moves = { past: [], future: [] };   // snapshots to undo to, and to redo to

// Every change to the puzzle or the player's state goes through here: `apply` makes it, and the
// moment before becomes a step of undo (nothing is recorded for a change that changed nothing).
// Then the board is redrawn, the progress saved, and the puzzle analysed again if it changed.
export function change(apply) {
  const before = snapshot(), puzzle = puzzleText(), ladder = state.ladder;
  apply();
  if (state.ladder === ladder) state.ladder = null;  // any other change ends a hint's ladder
  prunePairs();
  if (snapshot() === before) { draw(); return false; }
  moves.past.push(before);
  moves.future = [];
  after(puzzle);
  return true;
}

export function undo() { travel(moves.past, moves.future, "nothing to undo"); }
export function redo() { travel(moves.future, moves.past, "nothing to redo"); }

// Undo starts from here: the moments before are forgotten.
export function forgetMoves() {
  moves.past = []; moves.future = [];
  showHistory();
  saveMoves();
}

// The undo history, kept in the browser's storage beside the state (the last MOVES_KEPT moments
// each way), so that a reload undoes as before; it is taken back only where the page opens on
// the moment it was kept at.
const HISTORY = "hashi-asp:history", MOVES_KEPT = 100;
let movesResumed = false;   // until the page has opened and taken back what was kept

function saveMoves() {
  if (!movesResumed) return;
  store(HISTORY, { now: snapshot(), past: moves.past.slice(-MOVES_KEPT), future: moves.future.slice(-MOVES_KEPT) });
}

export function resumeMoves() {
  movesResumed = true;
  const kept = stored(HISTORY, null);
  if (kept && kept.now === snapshot() && Array.isArray(kept.past) && Array.isArray(kept.future)) {
    moves.past = kept.past; moves.future = kept.future;
    showHistory();
  } else {
    forgetMoves();
  }
}

function travel(from, to, none) {
  if (!from.length) { say(none); return; }
  const puzzle = puzzleText();
  to.push(snapshot());
  restore(JSON.parse(from.pop()));
  clearShown();
  after(puzzle);
}

function restore(moment) {
  setPuzzleOnly(moment.puzzle);
  setProgress(moment.play);
}

export function setPuzzleOnly(doc) {
  state.rows = doc.rows; state.cols = doc.cols;
  state.islands = new Map(doc.islands.map(([r, c, n]) => [key(r, c), n]));
  state.rules = { maxBridges: doc.max_bridges || 2, noLoops: !!doc.no_loops };
  state.cursor = [Math.min(state.cursor[0], state.rows - 1), Math.min(state.cursor[1], state.cols - 1)];
  $("rows").value = state.rows; $("cols").value = state.cols;
  $("max-bridges").value = String(state.rules.maxBridges);
  $("no-loops").checked = state.rules.noLoops;
}

function after(puzzleBefore) {
  showHistory();
  reconsider();
  const another = puzzleText() !== puzzleBefore;
  if (another) {
    // The time is the puzzle's: as kept for it (none for a new one), stopped until played().
    const kept = stored(PROGRESS, {})[puzzleText()];
    timer.set(kept ? kept.seconds || 0 : 0, false);
    record.hints = kept ? kept.hints || 0 : 0;
    showRecord();
  }
  save();
  if (another) puzzleChanged();
  else { draw(); played(); }
}

export function showHistory() {
  $("undo").disabled = !moves.past.length;
  $("redo").disabled = !moves.future.length;
}

// ---------------------------------------------------------------------------- after a change

// Whether every island has its number of bridges: only then is the drawing worth checking.
function complete() {
  if (!state.bridges.size) return false;
  for (const [k, n] of state.islands) {
    const has = bridgeCount(k);
    if (n === null ? has === 0 : has !== n) return false;
  }
  return true;
}

// After each change of the player's state: is the drawing a solution? The independent checker
// of the server says (it knows every rule: connection, no loops when asked).
async function played() {
  const sent = snapshot();
  setSolved(false);
  if (complete()) {
    try {
      const doc = await api("check", { puzzle: puzzleText(), solution: drawing() });
      if (snapshot() !== sent) return;
      setSolved(doc.valid === true);
    } catch (error) { /* not solved, as far as the page can tell */ }
  }
  showVerdict();
  runTimer();
  save();
  draw();
  if (state.checkAsIPlay && playing()) document.dispatchEvent(new Event("hashi:played"));
}

// After every change to the puzzle: redraw at once, analyse once the edits pause.
// (Performance marks, hashi:drawn and hashi:verdict, let benchmarks/web.py time the page.)
export function puzzleChanged() {
  draw();
  performance.mark("hashi:drawn");
  stopAnalysis();
  forgetLink();
  played();
  if (state.islands.size === 0) { verdict("no islands yet", ""); return; }
  analyseSoon();
}

// ---------------------------------------------------------------------------- kept across a reload

// In the browser's storage: the last puzzle shown (with the mode), and per puzzle the player's
// state and time (the most recent PUZZLES_KEPT puzzles).
export const LAST = "hashi-asp:last", PREFERENCES = "hashi-asp:preferences";
const PROGRESS = "hashi-asp:progress";
const PUZZLES_KEPT = 50;

export function stored(name, fallback) {
  try { return JSON.parse(localStorage.getItem(name)) ?? fallback; } catch { return fallback; }
}

function store(name, value) {
  try { localStorage.setItem(name, JSON.stringify(value)); } catch { /* storage full or refused */ }
}

export function save() {
  if (!state.islands.size) return;
  store(LAST, { puzzle: puzzleDocument(), mode: state.mode });
  const all = stored(PROGRESS, {});
  all[puzzleText()] = { ...progressOf(), seconds: timer.seconds(), hints: record.hints, at: Date.now() };
  const kept = Object.entries(all).sort(([, a], [, b]) => b.at - a.at).slice(0, PUZZLES_KEPT);
  store(PROGRESS, Object.fromEntries(kept));
  saveMoves();
}

// The player's state on the puzzle shown, as last kept (nothing for a new puzzle); its time is
// set once the change is made (after()).
export function resume() {
  setProgress(stored(PROGRESS, {})[puzzleText()] || {});
}

// A link that names a puzzle opens that puzzle; once the puzzle shown is another (loaded,
// generated or edited), the address no longer names one, and a reload shows the last puzzle.
let linked = null;

// The puzzle shown is the one the page's address names.
export function linkShown() { linked = puzzleText(); }

function forgetLink() {
  if (linked !== null && puzzleText() !== linked) {
    linked = null;
    window.history.replaceState(null, "", location.pathname);
  }
}

// ---------------------------------------------------------------------------- the record

// The game's record on the puzzle shown, beside its time: the hints used (each rung of the hint
// ladder and each Next step counts one; undo takes a rung off the board, not off the record).
export const record = { hints: 0 };

export function usedHint() {
  record.hints += 1;
  showRecord();
  save();
}

function showRecord() {
  const line = $("hints-used");
  line.textContent = `${record.hints} hint${record.hints === 1 ? "" : "s"} used`;
  line.hidden = record.hints === 0;
}

// ---------------------------------------------------------------------------- the timer

// Seconds of play on the puzzle shown, counted while the page is visible and the puzzle not
// solved; shown when the player asks for it.
export const timer = {
  base: 0, since: null, ticking: null,
  seconds() { return Math.floor(this.base + (this.since === null ? 0 : (Date.now() - this.since) / 1000)); },
  set(seconds, running) { this.base = seconds; this.since = null; this.run(running); },
  run(running) {
    const on = running && document.visibilityState !== "hidden";
    if (on && this.since === null) this.since = Date.now();
    if (!on && this.since !== null) { this.base = this.seconds(); this.since = null; }
    clearInterval(this.ticking);
    this.ticking = on ? setInterval(() => this.show(), 1000) : null;
    this.show();
  },
  show() {
    const t = this.seconds(), line = $("timer");
    line.textContent = `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`;
    line.dataset.running = String(this.since !== null);
  },
};

// The timer runs while a puzzle is played and not yet solved (and the page is in view).
export function runTimer() {
  timer.run(playing() && !solved && state.islands.size > 0);
}

export function showTimer(shown) {
  $("timer").hidden = !shown;
  $("show-timer").checked = shown;
  store(PREFERENCES, { ...stored(PREFERENCES, {}), timer: shown });
}

// The player's first mistake looked for after every move, or not (the toggle "mistakes as I
// play"): app.js listens for "hashi:played".
export function checkAsIPlay(on) {
  state.checkAsIPlay = on;
  $("check-as-i-play").checked = on;
  store(PREFERENCES, { ...stored(PREFERENCES, {}), mistakes: on });
  if (on && playing()) document.dispatchEvent(new Event("hashi:played"));
}

// The pairs still open drawn on the board, or not (the toggle "where bridges can go").
export function showOpen(shown) {
  state.showOpen = shown;
  $("show-open").checked = shown;
  store(PREFERENCES, { ...stored(PREFERENCES, {}), open: shown });
  draw();
}
