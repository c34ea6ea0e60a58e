// The page's controls: the pointer on the board (mouse, pen and touch alike), the keyboard,
// the buttons, loading, generating and exporting, and the start of the page.
"use strict";

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
  if (!way) return;  // a tap on an island selects it
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
let laying = false;  // Enter was pressed: the next arrow lays a bridge

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
    $("board").classList.toggle("laying", laying);
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
  if (way && playing() && (command || laying || event.shiftKey)) {
    // Ctrl+arrow or Enter then an arrow: one more line that way; shift+arrow: the mark.
    const lay = command || laying;
    laying = false;
    const to = island ? neighbour(r, c, ...way) : null;
    if (to) (lay ? addLine : toggleMark)([r, c], to);
    else say("select an island with a neighbour that way first");
    draw();
  } else if (way) {
    // Moves: in play to the nearest island that way (if any), else one cell.
    const to = (playing() && neighbour(r, c, ...way)) ||
      [Math.min(state.rows - 1, Math.max(0, r + way[0])), Math.min(state.cols - 1, Math.max(0, c + way[1]))];
    state.cursor = to;
    laying = false;
    draw();
  } else if (playing()) {
    if (event.key === "Enter") laying = !laying;
    else if (event.key === "Escape") laying = false;
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

// ---------------------------------------------------------------------------- modes

const HELP = { play: "help-play", mark: "help-play", edit: "help-edit" };

function setMode(mode) {
  state.mode = mode;
  for (const radio of document.querySelectorAll("input[name=mode]")) radio.checked = radio.value === mode;
  for (const [m, id] of Object.entries(HELP)) if (m !== mode) $(id).hidden = true;
  $(HELP[mode]).hidden = false;
  laying = false;
  $("board").classList.remove("laying");
  timer.run(playing() && !solved && state.islands.size > 0);
  save();
  draw();
}

// ---------------------------------------------------------------------------- loading, generating

// A puzzle opened (loaded, linked, generated, created, or the last one shown): in `mode`, with
// the player's state kept for it.  Undo goes back to the puzzle before.
function openPuzzle(doc, mode) {
  stopAnalysis();
  forgetReading();
  setMode(mode);
  if (!change(() => { setPuzzleOnly(doc); state.cursor = [0, 0]; clearShown(); resume(); })) puzzleChanged();
}

async function load(text, notation) {
  if (!text.trim()) { say("nothing to load"); return false; }
  stopAnalysis();
  try {
    const body = { puzzle: text, to: "json" };
    if (notation) body.notation = notation;
    const doc = await api("convert", body);
    openPuzzle(doc.puzzle, "play");
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
    openPuzzle(doc.puzzle, "play");
    const rated = doc.difficulty ? `, ${doc.difficulty.band}` : "";
    say(`Generated ${doc.name}: ${doc.islands} islands${rated}.`);
    $("gen-seed").value = String(Number($("gen-seed").value) + 1);
  } catch (error) { verdict("error", "error"); say(error.message); }
}

function newGrid() {
  const rows = Number($("rows").value), cols = Number($("cols").value);
  if (!(rows >= 1 && cols >= 1 && rows <= 100 && cols <= 100)) { say("a grid is 1 to 100 cells each way"); return; }
  openPuzzle({ rows, cols, islands: [], max_bridges: Number($("max-bridges").value), no_loops: $("no-loops").checked }, "edit");
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
  const board = $("board");
  board.addEventListener("pointerdown", onPointerDown);
  board.addEventListener("pointermove", onPointerMove);
  board.addEventListener("pointerup", onPointerUp);
  board.addEventListener("pointercancel", onPointerCancel);
  board.addEventListener("contextmenu", (event) => event.preventDefault());
  document.addEventListener("keydown", onKey);
  document.addEventListener("visibilitychange", () => timer.run(playing() && !solved && state.islands.size > 0));
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
  on("check", "click", check);
  on("next-step", "click", nextStep);
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
  showHistory();
  // The puzzle a link names, or else the last one shown here; the page opens on it with the
  // player's state as it was, and undo starts from there.
  const linkedText = new URLSearchParams(location.search).get("puzzle");
  const last = stored(LAST, null);
  if (linkedText) {
    $("source").value = linkedText;
    if (await load(linkedText)) linked = puzzleText();
  } else if (last && last.puzzle) {
    openPuzzle(last.puzzle, last.mode === "edit" ? "edit" : "play");
  } else {
    setMode("edit");
    verdict("no puzzle yet", "");
  }
  moves.past = []; moves.future = [];
  showHistory();
}

start();
