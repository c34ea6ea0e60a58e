// The page's controls: the pointer on the board (mouse, pen and touch alike), the keyboard,
// the buttons, exporting, and the start of the page.  The page's one entry module (index.html
// loads it; it imports the others), and the one that sets the page's hook for tests and tools.

import {
  UNIT, state, key, pairOf, maxNumber, playing, neighbour, centre, element, pointAt, cellAt, $,
  bridgeCount, describeCell, draw, fit, judgeWith,
} from "./board.js";
import { judgeRules, stillOpen } from "./rules.js";
import { api, drawing, given, puzzleText } from "./api.js";
import { announce, say, verdict } from "./words.js";
import {
  LAST, PREFERENCES, checkAsIPlay, linkShown, resumeMoves, redo, runTimer, showHistory, showOpen,
  showTimer, snapshot, stored, timer, undo,
} from "./player.js";
import {
  addLine, applyFix, check, clearPlay, cycle, hintLadder, nextStep, setIsland, setRules, solve, toggleLock,
  toggleMark,
} from "./app.js";
import { findFix } from "./fixes.js";
import { generate, load, newGrid, openPuzzle, setMode } from "./opening.js";
import { pictureInputs } from "./pictures.js";

const THROW = 0.5 * UNIT;    // how far a drag from an island goes before its direction counts

// ---------------------------------------------------------------------------- the pointer

// A gesture under way: from an island (a drag whose direction picks the neighbour, as in Simon
// Tatham's Bridges: it need not reach it), or on a bridge or a mark (a tap).  Marking: the right
// button, or the mode "mark" (for touch).
let gesture = null;

function onPointerDown(event) {
  const cell = cellAt(event);
  if (!cell || (event.button !== 0 && event.button !== 2)) return;
  $("board").focus();
  event.preventDefault();
  if (!playing()) {
    if (event.button !== 0) return;
    state.cursor = cell;
    cycle(...cell, event.shiftKey);
    return;
  }
  const marking = event.button === 2 || state.mode === "mark";
  const pair = event.target.closest("[data-pair]");
  if (state.islands.has(key(...cell))) {
    state.cursor = cell;
    gesture = { from: cell, marking };
    draw();
  } else if (pair) {
    gesture = { pair: pair.dataset.pair, marking };
  } else {
    state.cursor = cell;
    draw();
    return;
  }
  $("board").setPointerCapture(event.pointerId);
}

// The way a drag from an island points, once it is clear: a step along a row or a column.
function thrown(from, event) {
  const point = pointAt(event), [x, y] = centre(...from);
  const dx = point.x - x, dy = point.y - y;
  if (Math.max(Math.abs(dx), Math.abs(dy)) < THROW) return null;
  return Math.abs(dx) > Math.abs(dy) ? [0, Math.sign(dx)] : [Math.sign(dy), 0];
}

function onPointerMove(event) {
  if (!gesture || !gesture.from) return;
  const board = $("board");
  board.querySelector(".drag")?.remove();
  const way = thrown(gesture.from, event);
  const to = way && neighbour(...gesture.from, ...way);
  if (!to) return;
  const [x1, y1] = centre(...gesture.from), [x2, y2] = centre(...to);
  element("line", { class: gesture.marking ? "drag marking" : "drag", x1, y1, x2, y2 }, board);
}

function onPointerUp(event) {
  if (!gesture) return;
  const done = gesture;
  gesture = null;
  $("board").querySelector(".drag")?.remove();
  if (done.pair) {
    const [a, b] = pairOf(done.pair);
    (done.marking ? toggleMark : addLine)(a, b);
    return;
  }
  const way = thrown(done.from, event);
  if (!way) {  // a tap on an island selects it; on a finished one (or a locked one) locks it
    const k = key(...done.from), n = state.islands.get(k);
    if (!done.marking && (state.locked.has(k) || (n !== null && bridgeCount(k) === n))) toggleLock(...done.from);
    return;
  }
  const to = neighbour(...done.from, ...way);
  if (!to) { say("no island that way"); return; }
  (done.marking ? toggleMark : addLine)(done.from, to);
}

function onPointerCancel() {
  gesture = null;
  $("board").querySelector(".drag")?.remove();
}

// ---------------------------------------------------------------------------- the keyboard

const WAYS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

function onKey(event) {
  const target = event.target;
  if (["TEXTAREA", "INPUT", "SELECT"].includes(target.tagName)) return;
  const command = event.ctrlKey || event.metaKey;
  const letter = event.key.length === 1 ? event.key.toLowerCase() : "";
  if (command && !event.altKey && letter === "z") (event.shiftKey ? redo : undo)();
  else if (command && !event.altKey && letter === "y") redo();
  else if (!command && !event.altKey && event.key === "u") undo();
  else if (!command && !event.altKey && event.key === "r") redo();
  else if (target.id === "board" || target === document.body) {
    if (!onBoardKey(event, command)) return;
    $("board").classList.toggle("laying", state.laying);
  } else {
    return;
  }
  event.preventDefault();
}

// A key on the board: true when it was one of the board's.
function onBoardKey(event, command) {
  const [r, c] = state.cursor;
  const way = WAYS[event.key];
  const island = state.islands.has(key(r, c));
  if (way && playing() && (command || state.laying || event.shiftKey)) {
    // Ctrl+arrow or Enter then an arrow: one more line that way; shift+arrow: the mark.
    const lay = command || state.laying;
    state.laying = false;
    const to = island ? neighbour(r, c, ...way) : null;
    if (to) (lay ? addLine : toggleMark)([r, c], to);
    else say("select an island with a neighbour that way first");
    draw();
  } else if (way) {
    // Moves: in play to the nearest island that way (if any), else one cell.
    const to = (playing() && neighbour(r, c, ...way)) ||
      [Math.min(state.rows - 1, Math.max(0, r + way[0])), Math.min(state.cols - 1, Math.max(0, c + way[1]))];
    state.cursor = to;
    state.laying = false;
    draw();
    if (playing()) announce(describeCell(...to));
  } else if (playing()) {
    if (event.key === "l" && island) toggleLock(r, c);
    else if (event.key === "Enter") state.laying = !state.laying;
    else if (event.key === "Escape") state.laying = false;
    else return false;
  } else if (/^[1-9]$/.test(event.key)) {
    const n = Number(event.key);
    if (n > maxNumber()) { say(`an island takes at most ${maxNumber()} bridges under these rules`); return true; }
    setIsland(r, c, n);
  } else if (event.key === "?") {
    setIsland(r, c, null);
  } else if (["Delete", "Backspace", "0", ".", " "].includes(event.key)) {
    setIsland(r, c, undefined);
  } else if (event.key === "+" || event.key === "-") {
    cycle(r, c, event.key === "-");
  } else {
    return false;
  }
  return true;
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
  if (state.bridges.size) body.solution = drawing();
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

// ---------------------------------------------------------------------------- the start

function on(id, event, handler) { $(id).addEventListener(event, handler); }

async function start() {
  judgeWith(judgeRules, stillOpen);
  const board = $("board");
  board.addEventListener("pointerdown", onPointerDown);
  board.addEventListener("pointermove", onPointerMove);
  board.addEventListener("pointerup", onPointerUp);
  board.addEventListener("pointercancel", onPointerCancel);
  board.addEventListener("contextmenu", (event) => event.preventDefault());
  document.addEventListener("keydown", onKey);
  document.addEventListener("visibilitychange", runTimer);
  new ResizeObserver(() => fit()).observe($("board-area"));
  window.addEventListener("resize", () => fit());
  on("load", "click", () => load($("source").value));
  on("file", "change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    const notation = file.name.toLowerCase().endsWith(".has") ? "has" : undefined;
    load(await file.text(), notation);
    event.target.value = "";
  });
  pictureInputs();
  on("new", "click", newGrid);
  on("fix", "click", findFix);
  on("apply-fix", "click", applyFix);
  on("max-bridges", "change", setRules);
  on("no-loops", "change", setRules);
  for (const radio of document.querySelectorAll("input[name=mode]")) {
    radio.addEventListener("change", () => setMode(radio.value));
  }
  on("undo", "click", undo);
  on("redo", "click", redo);
  on("check", "click", () => check());
  on("offer-mistake", "click", () => check());
  on("show-open", "change", () => showOpen($("show-open").checked));
  on("check-as-i-play", "change", () => checkAsIPlay($("check-as-i-play").checked));
  document.addEventListener("hashi:played", () => check({ quietly: true }));
  on("next-step", "click", nextStep);
  on("hint", "click", hintLadder);
  on("solve", "click", solve);
  on("clear", "click", clearPlay);
  on("show-timer", "change", () => showTimer($("show-timer").checked));
  on("generate", "click", generate);
  on("export-puzzlink", "click", () => exportAs("puzzlink"));
  on("export-tatham", "click", () => exportAs("tatham"));
  on("export-has", "click", async () => {
    const text = await exportAs("has");
    if (text) download("puzzle.has", new Blob([text + "\n"], { type: "text/plain" }));
  });
  on("export-svg", "click", exportSvg);
  on("export-png", "click", exportPng);
  on("export-link", "click", exportLink);

  showTimer(!!stored(PREFERENCES, {}).timer);
  showOpen(!!stored(PREFERENCES, {}).open);
  checkAsIPlay(!!stored(PREFERENCES, {}).mistakes);
  showHistory();
  // The puzzle a link names, or else the last one shown here; the page opens on it with the
  // player's state as it was, and undo starts from there.
  const linkedText = new URLSearchParams(location.search).get("puzzle");
  const last = stored(LAST, null);
  if (linkedText) {
    $("source").value = linkedText;
    if (await load(linkedText)) linkShown();
  } else if (last && last.puzzle) {
    openPuzzle(last.puzzle, last.mode === "edit" ? "edit" : "play");
  } else {
    setMode("edit");
    verdict("no puzzle yet", "");
  }
  resumeMoves();
}

// ---------------------------------------------------------------------------- the hook

// What tests and tools (tests/, scripts/, benchmarks/web.py) may reach of the page beyond its
// DOM, deliberately and nothing else: the forms it sends (the puzzle, the player's state, a
// moment to compare), the time played, and the cell selected.  Nothing else of it is global.
window.hashi = Object.freeze({
  puzzleText,
  given,
  snapshot,
  setTime: (seconds) => timer.set(seconds, true),  // the time played, the timer running
  select: (r, c) => { state.cursor = [r, c]; draw(); },
});

start();
