// The player's state over time: every change as one step of undo and redo, the one JSON form
// that the API reads as `given` (bridges drawn, pairs ruled out, what applied steps narrowed),
// the progress kept in the browser's storage across a reload, and the timer.
"use strict";

// ---------------------------------------------------------------------------- the given form

const listPairs = (k) => pairOf(k).flat();
const byPlacing = (a, b) => (state.placed.get(a) ?? 0) - (state.placed.get(b) ?? 0);

// The player's state as `hint` and `steps` read it (`--given`): each list in the order the player
// drew or marked its pairs, so that the first mistake named is the first one made.  Empty lists
// are left out (every key is optional).
function given() {
  const form = {};
  if (state.bridges.size) {
    form.bridges = [...state.bridges.keys()].sort(byPlacing).map((k) => [...listPairs(k), state.bridges.get(k)]);
  }
  if (state.ruledOut.size) form.ruled_out = [...state.ruledOut].sort(byPlacing).map(listPairs);
  if (state.narrowed.size) {
    form.narrowed = [...state.narrowed].sort().map(([k, counts]) => [...listPairs(k), counts]);
  }
  return form;
}

// The player's drawing as a solution, for `check` and the pictures.
function drawing() {
  return { bridges: [...state.bridges].sort().map(([k, n]) => [...listPairs(k), n]) };
}

// The puzzle as the API reads it: the JSON notation.
function puzzleDocument() {
  const doc = {
    rows: state.rows, cols: state.cols,
    islands: [...state.islands].map(([k, n]) => [...cellOf(k), n]),
  };
  if (state.rules.maxBridges !== 2) doc.max_bridges = state.rules.maxBridges;
  if (state.rules.noLoops) doc.no_loops = true;
  return doc;
}

function puzzleText() { return JSON.stringify(puzzleDocument()); }

// ---------------------------------------------------------------------------- changes, undo, redo

// A moment of the page to return to: the puzzle and the player's state on it.
function snapshot() {
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
  };
}

// The player's state from progressOf()'s form (a snapshot, or the browser's storage).
function setProgress(play) {
  const pair = (v) => pairKey([v[0], v[1]], [v[2], v[3]]);
  state.bridges = new Map((play.bridges || []).map((v) => [pair(v), v[4]]));
  state.ruledOut = new Set((play.ruled_out || []).map(pair));
  state.narrowed = new Map((play.narrowed || []).map((v) => [pair(v), v[4]]));
  state.placed = new Map([
    ...(play.bridges || []).map((v) => [pair(v), v[5] ?? 0]),
    ...(play.ruled_out || []).map((v) => [pair(v), v[4] ?? 0]),
  ]);
  state.placing = Math.max(0, ...state.placed.values());
  prunePairs();
}

// A pair the player draws on or marks is placed now, if it was empty.
function place(k) {
  if (!state.placed.has(k)) state.placed.set(k, ++state.placing);
}

const moves = { past: [], future: [] };   // snapshots to undo to, and to redo to

// Every change to the puzzle or the player's state goes through here: `apply` makes it, and the
// moment before becomes a step of undo (nothing is recorded for a change that changed nothing).
// Then the board is redrawn, the progress saved, and the puzzle analysed again if it changed.
function change(apply) {
  const before = snapshot(), puzzle = puzzleText();
  apply();
  prunePairs();
  if (snapshot() === before) { draw(); return false; }
  moves.past.push(before);
  moves.future = [];
  after(puzzle);
  return true;
}

function undo() { travel(moves.past, moves.future, "nothing to undo"); }
function redo() { travel(moves.future, moves.past, "nothing to redo"); }

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

function setPuzzleOnly(doc) {
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
  const another = puzzleText() !== puzzleBefore;
  if (another) {
    // The time is the puzzle's: as kept for it (none for a new one), stopped until played().
    const kept = stored(PROGRESS, {})[puzzleText()];
    timer.set(kept ? kept.seconds || 0 : 0, false);
  }
  save();
  if (another) puzzleChanged();
  else { draw(); played(); }
}

function showHistory() {
  $("undo").disabled = !moves.past.length;
  $("redo").disabled = !moves.future.length;
}

// ---------------------------------------------------------------------------- kept across a reload

// In the browser's storage: the last puzzle shown (with the mode), and per puzzle the player's
// state and time (the most recent PUZZLES_KEPT puzzles).
const LAST = "hashi-asp:last", PROGRESS = "hashi-asp:progress", PREFERENCES = "hashi-asp:preferences";
const PUZZLES_KEPT = 50;

function stored(name, fallback) {
  try { return JSON.parse(localStorage.getItem(name)) ?? fallback; } catch { return fallback; }
}

function store(name, value) {
  try { localStorage.setItem(name, JSON.stringify(value)); } catch { /* storage full or refused */ }
}

function save() {
  if (!state.islands.size) return;
  store(LAST, { puzzle: puzzleDocument(), mode: state.mode });
  const all = stored(PROGRESS, {});
  all[puzzleText()] = { ...progressOf(), seconds: timer.seconds(), at: Date.now() };
  const kept = Object.entries(all).sort(([, a], [, b]) => b.at - a.at).slice(0, PUZZLES_KEPT);
  store(PROGRESS, Object.fromEntries(kept));
}

// The player's state on the puzzle shown, as last kept (nothing for a new puzzle); its time is
// set once the change is made (after()).
function resume() {
  setProgress(stored(PROGRESS, {})[puzzleText()] || {});
}

// A link that names a puzzle opens that puzzle; once the puzzle shown is another (loaded,
// generated or edited), the address no longer names one, and a reload shows the last puzzle.
let linked = null;

function forgetLink() {
  if (linked !== null && puzzleText() !== linked) {
    linked = null;
    window.history.replaceState(null, "", location.pathname);
  }
}

// ---------------------------------------------------------------------------- the timer

// Seconds of play on the puzzle shown, counted while the page is visible and the puzzle not
// solved; shown when the player asks for it.
const timer = {
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

function showTimer(shown) {
  $("timer").hidden = !shown;
  $("show-timer").checked = shown;
  store(PREFERENCES, { ...stored(PREFERENCES, {}), timer: shown });
}
