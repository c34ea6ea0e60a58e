// The workbench page: one puzzle, played and edited here, reasoned about by the JSON API of
// `hashi-asp serve` (POST /api/<command>: the command line's --format json documents).
//
// board.js holds the state and draws it; player.js keeps its changes (undo, redo, the browser's
// storage) and the form the API reads; here: the API, the verdicts, and the controls.
"use strict";

const LIVE_DELAY = 150;      // ms after the last edit before the live analysis starts
const LIVE_LIMIT = 5;        // seconds a live analysis may take
const THROW = 0.5 * UNIT;    // how far a drag from an island goes before its direction counts

// ---------------------------------------------------------------------------- the API

// This page's name for the server, which shares its threads fairly between the programs that
// ask (all of them come from 127.0.0.1): random, new with each page load.
const CLIENT = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");

// POST /api/<command>; resolves to the document, or rejects with the server's message.  A
// document can come with an error status too (the command line's exit code, as HTTP: 422 for
// a question without an answer, 503 for what a stopping server had found); an error has none.
async function api(command, body, signal) {
  const response = await fetch(`/api/${command}`, {
    method: "POST", headers: { "Content-Type": "application/json", "Hashi-Client": CLIENT },
    body: JSON.stringify(body), signal,
  });
  let doc;
  try { doc = await response.json(); } catch { throw new Error(`${command}: HTTP ${response.status}`); }
  if (!response.ok && (doc.error !== undefined || doc.status === undefined)) {
    throw new Error(doc.error || `${command}: HTTP ${response.status}`);
  }
  return doc;
}

function say(text) { $("message").textContent = text; }

// ---------------------------------------------------------------------------- the verdict

// The line on top: "solved" once the player's drawing is a solution, else the live verdict of
// the puzzle (whether it has one solution, several or none).
let analysis = { text: "no puzzle yet", kind: "", status: null };
let solved = false;

function verdict(text, kind, status = null) {
  analysis = { text, kind, status };
  showVerdict();
}

function showVerdict() {
  const line = $("verdict");
  line.textContent = solved ? "solved" : analysis.text;
  line.className = solved ? "solved" : analysis.kind;
}

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
  solved = false;
  if (complete()) {
    try {
      const doc = await api("check", { puzzle: puzzleText(), solution: drawing() });
      if (snapshot() !== sent) return;
      solved = doc.valid === true;
    } catch (error) { /* not solved, as far as the page can tell */ }
  }
  showVerdict();
  timer.run(playing() && !solved && state.islands.size > 0);
  save();
  draw();
}

// ---------------------------------------------------------------------------- live analysis

let live = null;        // the AbortController of the analysis running, if any
let liveTimer = null;

// After every change to the puzzle: redraw at once, analyse once the edits pause. A newer edit
// aborts the request running; the server then cancels its search.
// (Performance marks, hashi:drawn and hashi:verdict, let benchmarks/web.py time the page.)
function puzzleChanged() {
  draw();
  performance.mark("hashi:drawn");
  stopAnalysis();
  forgetLink();
  played();
  if (state.islands.size === 0) { verdict("no islands yet", ""); return; }
  verdict("analysing…", "busy");
  liveTimer = setTimeout(analyse, LIVE_DELAY);
}

// The analysis of the puzzle shown ends, waiting or running: its answer shows nothing. (Also when
// another puzzle is asked for: whether it loads or not, the verdict is no longer that one's.)
function stopAnalysis() {
  clearTimeout(liveTimer);
  if (live) live.abort();
  live = null;
}

async function analyse() {
  const control = new AbortController();
  live = control;
  const puzzle = puzzleText();
  try {
    const doc = await api("unique", { puzzle, "time-limit": LIVE_LIMIT }, control.signal);
    if (live !== control) return;
    performance.mark("hashi:verdict");
    Object.assign(state.shown, { islands: new Set(), added: new Map(), differences: [] });
    showFix(doc.status === "multiple");
    if (doc.status === "unique") {
      verdict("unique: one solution", "unique", "unique");
    } else if (doc.status === "multiple") {
      state.shown.differences = doc.differences.map(([r1, c1, r2, c2]) => [[r1, c1], [r2, c2]]);
      verdict("at least 2 solutions", "multiple", "multiple");
      const short = doc.fix && doc.fix.stopped_short ? ` (found in ${doc.fix.seconds} s, not proven the fewest: "Find the fewest edits" searches longer)` : "";
      const fix = doc.fix ? `\nTo make it unique: ${fixWords(doc.fix)}${short}.` : "";
      say(`Two solutions differ at ${doc.differences.length} pairs (dashed).${fix}`);
      count(puzzle, control);
    } else if (doc.status === "unsolvable") {
      const why = doc.explanation || {};
      const core = why.core || [];
      state.shown.islands = new Set(core.map(([r, c]) => key(r, c)));
      for (const check of why.checks || []) for (const [r, c] of check.cells) state.shown.islands.add(key(r, c));
      verdict("no solution", "unsolvable", "unsolvable");
      const checks = (why.checks || []).map((v) => v.message);
      const words = core.length ? [`These ${core.length} islands cannot all have their numbers (marked).`] : [];
      say([...checks, ...words].join("\n"));
    } else {
      verdict(`no verdict within ${LIVE_LIMIT} s`, "busy");
    }
    draw();
  } catch (error) {
    if (error.name === "AbortError" || live !== control) return;
    verdict("error", "error");
    say(error.message);
  }
}

// How many solutions, when there are several: a count within the time limit, else "at least".
async function count(puzzle, control) {
  try {
    const doc = await api("count", { puzzle, "time-limit": 2 }, control.signal);  // each checked
    if (live !== control) return;
    const exact = doc.exhausted;
    verdict(`${exact ? "" : "at least "}${doc.count} solutions`, "multiple", "multiple");
  } catch (error) { /* the verdict "at least 2" stands */ }
}

function fixWords(fix) {
  return fix.edits.map(editWords).join("; ");
}

function editWords(edit) {
  const [r, c] = edit.cell;
  if (edit.kind === "add") return `add an island ${edit.to} at (${r}, ${c})`;
  if (edit.kind === "remove") return `remove the island at (${r}, ${c})`;
  if (edit.from === null) return `give the island at (${r}, ${c}) the number ${edit.to}`;
  return `change the ${edit.from} at (${r}, ${c}) to ${edit.to}`;
}

// ---------------------------------------------------------------------------- the author fix

const FIX_LIMIT = 10;  // seconds: the fewest edits are mostly proven well within it
let pendingFix = null;

function showFix(shown) {
  $("fix-area").hidden = !shown;
  $("apply-fix").hidden = true;
  pendingFix = null;
  clearChoices();
}

// The fewest edits that make the puzzle unique (checked by the server): listed, their islands
// marked, ready to apply.
async function findFix() {
  const puzzle = puzzleText();
  say("looking for the fewest edits…");
  try {
    const doc = await api("fix", { puzzle, "time-limit": FIX_LIMIT, alternatives: FIX_CHOICES });
    if (puzzleText() !== puzzle) return;  // edited meanwhile
    if (doc.status !== "fixed") { say(`No fix: ${doc.status}.`); return; }
    showChoices(doc);  // fixes.js: the fixes to choose from, the first shown
  } catch (error) {
    say(error.message);
  }
}

function applyFix() {
  if (!pendingFix) return;
  const edits = pendingFix;
  showFix(false);
  change(() => {
    for (const { cell: [r, c], to } of edits) {
      if (to === null) state.islands.delete(key(r, c));
      else state.islands.set(key(r, c), to);
    }
    clearShown();
  });
}

// ---------------------------------------------------------------------------- editing

function setIsland(r, c, value) {  // value: a number, null (no number), or undefined (remove)
  if (state.suspects.delete(key(r, c))) showSuspects();  // the player decided it
  change(() => {
    if (value === undefined) state.islands.delete(key(r, c));
    else state.islands.set(key(r, c), value);
    clearShown();
  });
}

function cycle(r, c, down) {
  const k = key(r, c), top = maxNumber();
  const n = state.islands.has(k) ? state.islands.get(k) : undefined;
  let next;
  if (!down) next = n === undefined ? 1 : n === null ? 1 : n >= top ? undefined : n + 1;
  else next = n === undefined ? top : n === null || n <= 1 ? undefined : n - 1;
  setIsland(r, c, next);
}

function setRules() {
  change(() => {
    state.rules = { maxBridges: Number($("max-bridges").value), noLoops: $("no-loops").checked };
    for (const [k, n] of state.islands) if (n !== null && n > maxNumber()) state.islands.set(k, maxNumber());
    for (const [k, n] of state.bridges) if (n > state.rules.maxBridges) state.bridges.set(k, state.rules.maxBridges);
    state.narrowed.clear();
  });
}

// ---------------------------------------------------------------------------- playing

// One more line between a pair; past the most the rules allow, the bridge goes.  (On a pair
// marked "no bridge" the mark goes and the first line comes.)
function addLine(a, b) {
  const k = pairKey(a, b);
  const blocking = [...state.bridges.keys()].find((other) => crosses(pairOf(k), pairOf(other)));
  if (blocking) { say(`that bridge would cross the bridge ${pairName(pairOf(blocking))}`); return; }
  say("");
  change(() => {
    const next = (state.bridges.get(k) || 0) + 1;
    state.ruledOut.delete(k);
    state.narrowed.delete(k);
    if (next > state.rules.maxBridges) state.bridges.delete(k);
    else { state.bridges.set(k, next); place(k); }
    clearShown();
  });
}

// The mark "no bridge" on a pair, or off again; marking a pair takes its lines away.
function toggleMark(a, b) {
  const k = pairKey(a, b);
  say("");
  change(() => {
    if (state.ruledOut.has(k)) state.ruledOut.delete(k);
    else { state.bridges.delete(k); state.ruledOut.add(k); place(k); }
    state.narrowed.delete(k);
    clearShown();
  });
}

// A step applied: the counts it leaves the pair kept (so that it is never given again), the
// bridges it makes certain drawn, a pair it rules out marked.
function applyStep(step) {
  const [r1, c1, r2, c2] = step.pair;
  const k = pairKey([r1, c1], [r2, c2]);
  state.narrowed.set(k, step.bridges);
  const least = Math.min(...step.bridges);
  if (least > (state.bridges.get(k) || 0)) { state.bridges.set(k, least); place(k); }
  if (step.bridges.length === 1 && step.bridges[0] === 0) { state.ruledOut.add(k); place(k); }
}

async function nextStep() {
  const sent = snapshot();
  try {
    const doc = await api("steps", { puzzle: puzzleText(), given: given(), steps: 1 });
    if (snapshot() !== sent) return;  // the player moved meanwhile: that answer is for before
    const step = doc.steps[0];
    if (step) {
      if (step.pair && step.bridges.length) change(() => { applyStep(step); clearShown(); });
      state.shown = nothingShown();
      state.shown.reason = new Set(step.reason.map(([r, c]) => key(r, c)));
      if (step.pair) state.shown.step = pairKey(step.pair.slice(0, 2), step.pair.slice(2));
      say(step.text);
    } else if (doc.status === "solved") {
      say("Nothing left to find: solved.");
    } else if (doc.status === "stuck") {
      say("No further step follows: the puzzle has several solutions from here.");
    } else if (doc.status === "contradiction") {
      clearShown();
      state.shown.islands = new Set((doc.conflict || []).map(([r, c]) => key(r, c)));
      say("The bridges drawn lead to a contradiction at the marked islands.");
    } else {
      say("No step found within the time limit.");
    }
    draw();
  } catch (error) { say(error.message); }
}

function mistakeWords(k, count) {
  const pair = pairName(pairOf(k));
  if (count === undefined) return `the mark "no bridge" on ${pair}: every solution has a bridge there`;
  const lines = count === 1 ? "a bridge" : `${count} bridges`;
  return `the ${count === 1 ? "bridge" : count === 2 ? "double bridge" : `${count} bridges`} ${pair}: no solution has ${lines} there`;
}

// "Show my first mistake": the first bridge or mark the player made that no solution agrees
// with (the API proves each on its own), or that there is none, or that the puzzle has none.
async function check() {
  const sent = snapshot();
  try {
    const doc = await api("hint", { puzzle: puzzleText(), given: given() });
    if (snapshot() !== sent) return;
    clearShown();
    const said = [];
    for (const v of doc.illegal || []) {
      for (const [r, c] of v.cells) state.shown.islands.add(key(r, c));
      said.push(v.message);
    }
    const wrong = doc.mistakes || { bridges: [], ruled_out: [], exhausted: true, solvable: null };
    const found = [
      ...wrong.bridges.map(([r1, c1, r2, c2, n]) => [pairKey([r1, c1], [r2, c2]), n]),
      ...wrong.ruled_out.map(([r1, c1, r2, c2]) => [pairKey([r1, c1], [r2, c2]), undefined]),
    ].sort(([a], [b]) => byPlacing(a, b));
    if (wrong.solvable === false) {
      said.push("The puzzle itself has no solution.");
    } else if (found.length) {
      const [k, n] = found[0];
      state.shown.mistakes.add(k);
      const more = found.length > 1 ? ` (${found.length - 1} more after it)` : "";
      said.push(`Your first mistake: ${mistakeWords(k, n)}${more}.`);
    } else if (solved) {
      said.push("Solved!");
    } else if (!wrong.exhausted) {
      said.push("No mistake found within the time limit (not every bridge and mark was asked about).");
    } else if (doc.status === "unsolvable") {
      // Each is in some solution, but no solution has them all: the smallest such set of bridges.
      for (const [r1, c1, r2, c2] of doc.conflict || []) state.shown.mistakes.add(pairKey([r1, c1], [r2, c2]));
      said.push("No bridge or mark is wrong on its own, but no solution has them all.");
    } else if (!said.length) {
      said.push("No mistake so far.");
    }
    say(said.join("\n"));
    draw();
  } catch (error) { say(error.message); }
}

async function solve() {
  const sent = snapshot();
  try {
    const doc = await api("solve", { puzzle: puzzleText() });
    if (snapshot() !== sent) return;
    if (!doc.solutions.length) { say(doc.status === "unsolvable" ? "No solution." : "No answer within the time limit."); return; }
    change(() => {
      setProgress({});
      for (const [r1, c1, r2, c2, n] of doc.solutions[0].bridges) {
        const k = pairKey([r1, c1], [r2, c2]);
        state.bridges.set(k, n);
        place(k);
      }
      clearShown();
    });
    say("A solution (checked by the independent checker).");
  } catch (error) { say(error.message); }
}

function clearPlay() {
  say("");
  change(() => { setProgress({}); clearShown(); });
}
