// The workbench page: one puzzle, edited and played here, reasoned about by the JSON API of
// `hashi-asp serve` (POST /api/<command>: the command line's --format json documents).
//
// Layers, in order: the state (the puzzle and the player's bridges), the geometry derived from
// it (neighbours, crossings: as the library computes them), the drawing (inline SVG, islands
// and bridges named as the library's pictures name them), the API calls, the controls.
"use strict";

// ---------------------------------------------------------------------------- state

const CELL = 40;             // pixels per cell, as the library's pictures
const LIVE_DELAY = 150;      // ms after the last edit before the live analysis starts
const LIVE_LIMIT = 5;        // seconds a live analysis may take

const state = {
  rows: 7, cols: 7,
  islands: new Map(),        // "r,c" -> number, or null for an island without a number
  rules: { maxBridges: 2, noLoops: false },
  bridges: new Map(),        // "r1,c1,r2,c2" (first end first in reading order) -> count
  marks: { islands: new Set(), added: new Map(), pairs: new Set(), step: null, differences: [] },
  cursor: [0, 0],
  mode: "edit",
};

const key = (r, c) => `${r},${c}`;
const cellOf = (k) => k.split(",").map(Number);
const pairKey = (a, b) => {
  const [x, y] = (a[0] < b[0] || (a[0] === b[0] && a[1] < b[1])) ? [a, b] : [b, a];
  return `${x[0]},${x[1]},${y[0]},${y[1]}`;
};
const pairOf = (k) => { const v = k.split(",").map(Number); return [[v[0], v[1]], [v[2], v[3]]]; };
const maxNumber = () => 4 * state.rules.maxBridges;

// The puzzle as the API reads it: the JSON notation.
function puzzleText() {
  const doc = {
    rows: state.rows, cols: state.cols,
    islands: [...state.islands].map(([k, n]) => [...cellOf(k), n]),
  };
  if (state.rules.maxBridges !== 2) doc.max_bridges = state.rules.maxBridges;
  if (state.rules.noLoops) doc.no_loops = true;
  return JSON.stringify(doc);
}

// The player's bridges as the API reads them (`--given`).
function givenBridges() {
  return { bridges: [...state.bridges].filter(([, n]) => n > 0).map(([k, n]) => [...pairOf(k).flat(), n]) };
}

function setPuzzle(doc) {
  state.rows = doc.rows; state.cols = doc.cols;
  state.islands = new Map(doc.islands.map(([r, c, n]) => [key(r, c), n]));
  state.rules = { maxBridges: doc.max_bridges || 2, noLoops: !!doc.no_loops };
  state.bridges = new Map();
  state.cursor = [0, 0];
  clearMarks();
  $("rows").value = state.rows; $("cols").value = state.cols;
  $("max-bridges").value = String(state.rules.maxBridges);
  $("no-loops").checked = state.rules.noLoops;
  changed();
}

function clearMarks() {
  state.marks = { islands: new Set(), added: new Map(), pairs: new Set(), step: null, differences: [] };
}

// ---------------------------------------------------------------------------- geometry

// The nearest island in each direction from a cell (bridges join only such neighbours).
function neighbour(r, c, dr, dc) {
  for (let i = r + dr, j = c + dc; i >= 0 && j >= 0 && i < state.rows && j < state.cols; i += dr, j += dc) {
    if (state.islands.has(key(i, j))) return [i, j];
  }
  return null;
}

// The cells strictly between the two ends of a pair.
function between(a, b) {
  const cells = [];
  const dr = Math.sign(b[0] - a[0]), dc = Math.sign(b[1] - a[1]);
  for (let r = a[0] + dr, c = a[1] + dc; r !== b[0] || c !== b[1]; r += dr, c += dc) cells.push([r, c]);
  return cells;
}

// Whether two pairs cross: one horizontal, one vertical, meeting strictly inside both.
function crosses(p, q) {
  const [[a1, b1], [a2, b2]] = [p, q];
  const hp = a1[0] === b1[0], hq = a2[0] === b2[0];
  if (hp === hq) return false;
  const [h, v] = hp ? [p, q] : [q, p];
  const row = h[0][0], col = v[0][1];
  return h[0][1] < col && col < h[1][1] && v[0][0] < row && row < v[1][0];
}

// Bridges that no longer join neighbours (after an edit) are dropped.
function pruneBridges() {
  for (const k of [...state.bridges.keys()]) {
    const [a, b] = pairOf(k);
    const ok = state.islands.has(key(...a)) && state.islands.has(key(...b)) &&
      between(a, b).every(([r, c]) => !state.islands.has(key(r, c)));
    if (!ok) state.bridges.delete(k);
  }
}

function bridgeCount(island) {
  let total = 0;
  for (const [k, n] of state.bridges) {
    const [a, b] = pairOf(k);
    if (key(...a) === island || key(...b) === island) total += n;
  }
  return total;
}

// ---------------------------------------------------------------------------- drawing

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const centre = (r, c) => [CELL * (c + 1), CELL * (r + 1)];

function element(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// Parallel lines of a bridge, `gap` apart, centred on the line between the islands.
function offsets(count) {
  const gap = CELL / 8;
  return Array.from({ length: count }, (_, i) => (i - (count - 1) / 2) * gap);
}

function draw() {
  const board = $("board");
  const width = CELL * (state.cols + 1), height = CELL * (state.rows + 1);
  board.setAttribute("width", width); board.setAttribute("height", height);
  board.setAttribute("viewBox", `0 0 ${width} ${height}`);
  board.replaceChildren();
  element("rect", { width: "100%", height: "100%", fill: "#ffffff" }, board);
  const water = element("g", {}, board);
  for (let r = 0; r < state.rows; r++) {
    for (let c = 0; c < state.cols; c++) {
      const [x, y] = centre(r, c);
      element("rect", { class: "cell", x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL,
        "data-row": r, "data-col": c }, water);
      if (!state.islands.has(key(r, c))) element("circle", { class: "water-dot", cx: x, cy: y, r: 1.5 }, water);
    }
  }
  const marks = element("g", {}, board);
  for (const [a, b] of state.marks.differences) {
    const [x1, y1] = centre(...a), [x2, y2] = centre(...b);
    element("line", { class: "difference", x1, y1, x2, y2 }, marks);
  }
  const bridges = element("g", {}, board);
  for (const [k, count] of [...state.bridges].sort()) {
    if (count <= 0) continue;
    const [a, b] = pairOf(k);
    const group = element("g", { class: "bridge", "data-r1": a[0], "data-c1": a[1],
      "data-r2": b[0], "data-c2": b[1], "data-count": count }, bridges);
    if (state.marks.pairs.has(k)) group.classList.add("marked");
    if (state.marks.step === k) group.classList.add("step");
    const [x1, y1] = centre(...a), [x2, y2] = centre(...b);
    const horizontal = a[0] === b[0];
    for (const o of offsets(Math.min(count, 8))) {
      const [dx, dy] = horizontal ? [0, o] : [o, 0];
      element("line", { x1: x1 + dx, y1: y1 + dy, x2: x2 + dx, y2: y2 + dy }, group);
    }
    element("line", { class: "hit", x1, y1, x2, y2 }, group);
  }
  if (state.marks.step && !state.bridges.get(state.marks.step)) {
    const [a, b] = pairOf(state.marks.step);
    const [x1, y1] = centre(...a), [x2, y2] = centre(...b);
    element("line", { class: "difference", x1, y1, x2, y2, style: "stroke: var(--step)" }, marks);
  }
  // A proposed new island: a dashed ring with its number on the water cell.
  const added = element("g", {}, board);
  for (const [k, n] of state.marks.added) {
    if (state.islands.has(k)) continue;
    const [r, c] = cellOf(k), [x, y] = centre(r, c);
    const group = element("g", { class: "added", "data-row": r, "data-col": c }, added);
    element("circle", { cx: x, cy: y, r: CELL * 0.4 }, group);
    element("text", { x, y: y + 7 }, group).textContent = String(n);
  }
  const islands = element("g", {}, board);
  for (const [k, n] of state.islands) {
    const [r, c] = cellOf(k), [x, y] = centre(r, c);
    const group = element("g", { class: "island", "data-row": r, "data-col": c }, islands);
    if (state.marks.islands.has(k)) group.classList.add("marked");
    if (state.marks.step && pairOf(state.marks.step).some((e) => key(...e) === k)) group.classList.add("step");
    if (state.mode === "play" && n !== null && bridgeCount(k) === n) group.classList.add("done");
    element("circle", { cx: x, cy: y, r: CELL * 0.4 }, group);
    if (n !== null) element("text", { x, y: y + 7 }, group).textContent = String(n);
  }
  {
    const [r, c] = state.cursor, [x, y] = centre(r, c);
    element("rect", { class: "cursor", x: x - CELL / 2 + 2, y: y - CELL / 2 + 2,
      width: CELL - 4, height: CELL - 4 }, board);
  }
}

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

function verdict(text, kind) {
  const line = $("verdict");
  line.textContent = text;
  line.className = kind || "";
}

// ---------------------------------------------------------------------------- live analysis

let live = null;        // the AbortController of the analysis running, if any
let liveTimer = null;

// After every change to the puzzle: redraw at once, analyse once the edits pause. A newer edit
// aborts the request running; the server then cancels its search.
// (Performance marks, hashi:drawn and hashi:verdict, let benchmarks/web.py time the page.)
function changed() {
  pruneBridges();
  draw();
  performance.mark("hashi:drawn");
  stopAnalysis();
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
    state.marks.islands = new Set(); state.marks.added = new Map(); state.marks.differences = [];
    showFix(doc.status === "multiple");
    if (doc.status === "unique") {
      verdict("unique: one solution", "unique");
      say("");
    } else if (doc.status === "multiple") {
      state.marks.differences = doc.differences.map(([r1, c1, r2, c2]) => [[r1, c1], [r2, c2]]);
      verdict("at least 2 solutions", "multiple");
      const fix = doc.fix ? `\nTo make it unique: ${fixWords(doc.fix)}.` : "";
      say(`Two solutions differ at ${doc.differences.length} pairs (dashed).${fix}`);
      count(puzzle, control);
    } else if (doc.status === "unsolvable") {
      const why = doc.explanation || {};
      const core = why.core || [];
      state.marks.islands = new Set(core.map(([r, c]) => key(r, c)));
      for (const check of why.checks || []) for (const [r, c] of check.cells) state.marks.islands.add(key(r, c));
      verdict("no solution", "unsolvable");
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
    verdict(`${exact ? "" : "at least "}${doc.count} solutions`, "multiple");
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
}

// The fewest edits that make the puzzle unique (checked by the server): listed, their islands
// marked, ready to apply.
async function findFix() {
  const puzzle = puzzleText();
  say("looking for the fewest edits…");
  try {
    const doc = await api("fix", { puzzle, "time-limit": FIX_LIMIT });
    if (puzzleText() !== puzzle) return;  // edited meanwhile
    if (doc.status !== "fixed") { say(`No fix: ${doc.status}.`); return; }
    pendingFix = doc.edits;
    state.marks.islands = new Set(doc.edits.map(({ cell: [r, c] }) => key(r, c)));
    state.marks.added = new Map(doc.edits.filter((e) => e.kind === "add").map(({ cell: [r, c], to }) => [key(r, c), to]));
    draw();
    const fewest = doc.fewest ? "the fewest" : `at least ${doc.lower_bound} needed`;
    say(`To make it unique (${fewest}): ${fixWords(doc)}.`);
    $("apply-fix").hidden = false;
  } catch (error) {
    say(error.message);
  }
}

function applyFix() {
  if (!pendingFix) return;
  for (const edit of pendingFix) {
    const [r, c] = edit.cell;
    if (edit.to === null) state.islands.delete(key(r, c));
    else state.islands.set(key(r, c), edit.to);
  }
  showFix(false);
  clearMarks();
  changed();
}

// ---------------------------------------------------------------------------- editing

function setIsland(r, c, value) {  // value: a number, null (no number), or undefined (remove)
  if (value === undefined) state.islands.delete(key(r, c));
  else state.islands.set(key(r, c), value);
  clearMarks();
  changed();
}

function cycle(r, c, down) {
  const k = key(r, c), top = maxNumber();
  const n = state.islands.has(k) ? state.islands.get(k) : undefined;
  let next;
  if (!down) next = n === undefined ? 1 : n === null ? 1 : n >= top ? undefined : n + 1;
  else next = n === undefined ? top : n === null || n <= 1 ? undefined : n - 1;
  setIsland(r, c, next);
}

function onKey(event) {
  if (event.target.tagName === "TEXTAREA" || event.target.tagName === "INPUT") return;
  const [r, c] = state.cursor;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (moves[event.key] && state.mode === "play" && event.shiftKey) {
    // Shift+arrow: one more line from the selected island to its neighbour that way.
    const to = state.islands.has(key(r, c)) ? neighbour(r, c, ...moves[event.key]) : null;
    if (to) addLine([r, c], to);
    else say("select an island with a neighbour that way first");
  } else if (moves[event.key]) {
    const [dr, dc] = moves[event.key];
    state.cursor = [Math.min(state.rows - 1, Math.max(0, r + dr)), Math.min(state.cols - 1, Math.max(0, c + dc))];
    draw();
  } else if (state.mode !== "edit") {
    return;
  } else if (/^[1-9]$/.test(event.key)) {
    const n = Number(event.key);
    if (n > maxNumber()) { say(`an island takes at most ${maxNumber()} bridges under these rules`); return; }
    setIsland(r, c, n);
  } else if (event.key === "?") {
    setIsland(r, c, null);
  } else if (["Delete", "Backspace", "0", ".", " "].includes(event.key)) {
    setIsland(r, c, undefined);
  } else if (event.key === "+" || event.key === "-") {
    cycle(r, c, event.key === "-");
  } else {
    return;
  }
  event.preventDefault();
}

// The cell under a pointer event, from the board's own coordinates.
function cellAt(event) {
  const board = $("board");
  const point = board.createSVGPoint();
  point.x = event.clientX; point.y = event.clientY;
  const local = point.matrixTransform(board.getScreenCTM().inverse());
  const r = Math.round(local.y / CELL) - 1, c = Math.round(local.x / CELL) - 1;
  return r >= 0 && c >= 0 && r < state.rows && c < state.cols ? [r, c] : null;
}

// ---------------------------------------------------------------------------- playing

let dragFrom = null;

function onPointerDown(event) {
  const cell = cellAt(event);
  if (!cell) return;
  $("board").focus();
  if (state.mode === "edit") {
    state.cursor = cell;
    cycle(...cell, event.shiftKey);
    return;
  }
  const bridgeGroup = event.target.closest(".bridge");
  if (bridgeGroup && !state.islands.has(key(...cell))) {  // a click on a bridge adds a line
    const d = bridgeGroup.dataset;
    addLine([+d.r1, +d.c1], [+d.r2, +d.c2]);
    return;
  }
  if (state.islands.has(key(...cell))) {
    state.cursor = cell;
    dragFrom = cell;
    $("board").setPointerCapture(event.pointerId);
  }
}

function onPointerMove(event) {
  if (!dragFrom) return;
  const board = $("board");
  board.querySelector(".drag")?.remove();
  const cell = cellAt(event);
  if (!cell) return;
  const [x1, y1] = centre(...dragFrom), [x2, y2] = centre(...cell);
  element("line", { class: "drag", x1, y1, x2, y2 }, board);
}

function onPointerUp(event) {
  if (!dragFrom) return;
  const from = dragFrom;
  dragFrom = null;
  $("board").querySelector(".drag")?.remove();
  const cell = cellAt(event);
  if (!cell || (cell[0] === from[0] && cell[1] === from[1])) return;
  // The island reached: the neighbour in the direction dragged, if the drag was straight.
  const dr = Math.sign(cell[0] - from[0]), dc = Math.sign(cell[1] - from[1]);
  if (dr && dc) { say("bridges run straight along a row or a column"); return; }
  const to = neighbour(from[0], from[1], dr, dc);
  if (!to) { say("no island that way"); return; }
  addLine(from, to);
}

// One more line between a pair; past the most the rules allow, the bridge goes.
function addLine(a, b) {
  const k = pairKey(a, b);
  const pair = pairOf(k);
  const blocking = [...state.bridges.keys()].find((other) => crosses(pair, pairOf(other)));
  if (blocking) { say(`that bridge would cross the bridge ${pairName(pairOf(blocking))}`); return; }
  const next = (state.bridges.get(k) || 0) + 1;
  if (next > state.rules.maxBridges) state.bridges.delete(k);
  else state.bridges.set(k, next);
  clearMarks();
  say("");
  draw();
}

const cellName = ([r, c]) => `(${r}, ${c})`;
const pairName = ([a, b]) => `${cellName(a)}-${cellName(b)}`;

async function check() {
  try {
    const doc = await api("hint", { puzzle: puzzleText(), given: givenBridges() });
    clearMarks();
    if (doc.illegal && doc.illegal.length) {
      for (const v of doc.illegal) for (const [r, c] of v.cells) state.marks.islands.add(key(r, c));
      say(doc.illegal.map((v) => v.message).join("\n"));
    } else if (doc.conflict && doc.conflict.length) {
      state.marks.pairs = new Set(doc.conflict.map(([r1, c1, r2, c2]) => pairKey([r1, c1], [r2, c2])));
      const n = doc.conflict.length;
      say(`${n === 1 ? "This bridge is" : `These ${n} bridges cannot all stay: they are`} wrong (marked red).`);
    } else if (doc.status === "unsolvable") {
      say("The puzzle itself has no solution.");
    } else if (doc.status === "unique" && doc.forced.length === 0 && doc.undecided.length === 0) {
      say("Solved!");
    } else {
      say(`No mistake so far. ${doc.forced.length} more bridges are certain.`);
    }
    draw();
  } catch (error) { say(error.message); }
}

async function nextStep() {
  try {
    const doc = await api("steps", { puzzle: puzzleText(), given: givenBridges(), steps: 1 });
    clearMarks();
    const step = doc.steps[0];
    if (step) {
      state.marks.islands = new Set(step.reason.map(([r, c]) => key(r, c)));
      if (step.pair) {
        const [r1, c1, r2, c2] = step.pair;
        const k = pairKey([r1, c1], [r2, c2]);
        state.marks.step = k;
        const least = step.bridges.length ? step.bridges[0] : 0;
        if (least > (state.bridges.get(k) || 0)) state.bridges.set(k, least);
      }
      say(step.text);
    } else if (doc.status === "solved") {
      say("Nothing left to find: solved.");
    } else if (doc.status === "stuck") {
      say("No further step follows: the puzzle has several solutions from here.");
    } else if (doc.status === "contradiction") {
      state.marks.islands = new Set((doc.conflict || []).map(([r, c]) => key(r, c)));
      say("The bridges drawn lead to a contradiction at the marked islands.");
    } else {
      say("No step found within the time limit.");
    }
    draw();
  } catch (error) { say(error.message); }
}

async function solve() {
  try {
    const doc = await api("solve", { puzzle: puzzleText() });
    clearMarks();
    if (!doc.solutions.length) { say(doc.status === "unsolvable" ? "No solution." : "No answer within the time limit."); return; }
    state.bridges = new Map(doc.solutions[0].bridges.map(([r1, c1, r2, c2, n]) => [pairKey([r1, c1], [r2, c2]), n]));
    say("A solution (checked by the independent checker).");
    draw();
  } catch (error) { say(error.message); }
}

// ---------------------------------------------------------------------------- loading, generating

async function load(text, notation) {
  if (!text.trim()) { say("nothing to load"); return false; }
  stopAnalysis();
  try {
    const body = { puzzle: text, to: "json" };
    if (notation) body.notation = notation;
    const doc = await api("convert", body);
    setPuzzle(doc.puzzle);
    say("");
    return true;
  } catch (error) {
    verdict("error", "error");
    say(error.message);
    return false;
  }
}

async function generate() {
  const body = { islands: Number($("gen-islands").value), seed: Number($("gen-seed").value),
    unique: $("gen-unique").checked, "max-bridges": state.rules.maxBridges, "no-loops": state.rules.noLoops,
    format: "json", "time-limit": 30 };
  if ($("gen-size").value.trim()) body.size = $("gen-size").value.trim();
  if ($("gen-difficulty").value) body.difficulty = $("gen-difficulty").value;
  stopAnalysis();
  verdict("generating…", "busy");
  try {
    const doc = await api("generate", body);
    setPuzzle(doc.puzzle);
    const rated = doc.difficulty ? `, ${doc.difficulty.band}` : "";
    say(`Generated ${doc.name}: ${doc.islands} islands${rated}.`);
    $("gen-seed").value = String(Number($("gen-seed").value) + 1);
  } catch (error) { verdict("error", "error"); say(error.message); }
}

// ---------------------------------------------------------------------------- export

async function exportAs(notation) {
  try {
    const doc = await api("convert", { puzzle: puzzleText(), to: notation });
    $("export-text").value = doc.text.trim();
    return doc.text.trim();
  } catch (error) { say(error.message); return null; }
}

function download(name, blob) {
  const link = $("download");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

async function picture() {
  const body = { puzzle: puzzleText() };
  if (state.bridges.size) body.solution = givenBridges();
  return (await api("render", body)).svg;
}

async function exportSvg() {
  try { download("puzzle.svg", new Blob([await picture()], { type: "image/svg+xml" })); }
  catch (error) { say(error.message); }
}

async function exportPng() {
  try {
    const url = URL.createObjectURL(new Blob([await picture()], { type: "image/svg+xml" }));
    const image = new Image();
    await new Promise((done, fail) => { image.onload = done; image.onerror = fail; image.src = url; });
    const canvas = document.createElement("canvas");
    canvas.width = image.width; canvas.height = image.height;
    canvas.getContext("2d").drawImage(image, 0, 0);
    URL.revokeObjectURL(url);
    canvas.toBlob((blob) => download("puzzle.png", blob), "image/png");
  } catch (error) { say(error.message || "cannot draw the PNG"); }
}

// A link that opens this page on this puzzle: the puzz.link URL, or the Tatham ID for rules
// puzz.link cannot hold.
async function exportLink() {
  const standard = state.rules.maxBridges === 2 && !state.rules.noLoops;
  const text = await exportAs(standard ? "puzzlink" : "tatham");
  if (text) $("export-text").value = `${location.origin}/?puzzle=${encodeURIComponent(text)}`;
}

// ---------------------------------------------------------------------------- controls

function newGrid() {
  const rows = Number($("rows").value), cols = Number($("cols").value);
  if (!(rows >= 1 && cols >= 1 && rows <= 100 && cols <= 100)) { say("a grid is 1 to 100 cells each way"); return; }
  setPuzzle({ rows, cols, islands: [], max_bridges: Number($("max-bridges").value), no_loops: $("no-loops").checked });
}

function setMode(mode) {
  state.mode = mode;
  $("help-edit").hidden = mode !== "edit";
  $("help-play").hidden = mode !== "play";
  clearMarks();
  draw();
}

function setRules() {
  state.rules = { maxBridges: Number($("max-bridges").value), noLoops: $("no-loops").checked };
  for (const [k, n] of state.islands) if (n !== null && n > maxNumber()) state.islands.set(k, maxNumber());
  for (const [k, n] of state.bridges) if (n > state.rules.maxBridges) state.bridges.set(k, state.rules.maxBridges);
  changed();
}

function start() {
  const board = $("board");
  board.addEventListener("pointerdown", onPointerDown);
  board.addEventListener("pointermove", onPointerMove);
  board.addEventListener("pointerup", onPointerUp);
  board.addEventListener("contextmenu", (event) => event.preventDefault());
  document.addEventListener("keydown", onKey);
  $("load").addEventListener("click", () => load($("source").value));
  $("file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    const notation = file.name.toLowerCase().endsWith(".has") ? "has" : undefined;
    load(await file.text(), notation);
    event.target.value = "";
  });
  $("new").addEventListener("click", newGrid);
  $("fix").addEventListener("click", findFix);
  $("apply-fix").addEventListener("click", applyFix);
  $("max-bridges").addEventListener("change", setRules);
  $("no-loops").addEventListener("change", setRules);
  for (const radio of document.querySelectorAll("input[name=mode]")) {
    radio.addEventListener("change", () => setMode(radio.value));
  }
  $("check").addEventListener("click", check);
  $("step").addEventListener("click", nextStep);
  $("solve").addEventListener("click", solve);
  $("clear").addEventListener("click", () => { state.bridges.clear(); clearMarks(); say(""); draw(); });
  $("generate").addEventListener("click", generate);
  $("export-puzzlink").addEventListener("click", () => exportAs("puzzlink"));
  $("export-tatham").addEventListener("click", () => exportAs("tatham"));
  $("export-has").addEventListener("click", async () => {
    const text = await exportAs("has");
    if (text) download("puzzle.has", new Blob([text + "\n"], { type: "text/plain" }));
  });
  $("export-svg").addEventListener("click", exportSvg);
  $("export-png").addEventListener("click", exportPng);
  $("export-link").addEventListener("click", exportLink);

  const given = new URLSearchParams(location.search).get("puzzle");
  if (given) { $("source").value = given; load(given); } else { draw(); }
}

start();
