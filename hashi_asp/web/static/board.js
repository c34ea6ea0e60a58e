// The board: the puzzle and the player's state, their geometry (neighbours, crossings: as the
// library computes them), and their drawing as inline SVG that scales to its frame.  A module
// that imports none of the page's others: every other module draws through it.
//
// The drawing's hooks, which other tools and the tests read (keep them stable): each island a
// `g.island` with `data-cell="R,C"` (and `data-row`, `data-col`), its number as its text; each
// drawn bridge a `g.bridge` with `data-pair="R1,C1,R2,C2"` and `data-count` (and `data-r1`,
// `data-c1`, `data-r2`, `data-c2`); each pair marked "no bridge" a `g.no-bridge` with
// `data-pair`; a bridge or mark a step applied (not the player) has `data-by="step"`; an island
// in a rule broken has the class `broken`, a locked one `locked`.  Rows and columns count from
// 0; a pair's first end is the first in reading order.

// ---------------------------------------------------------------------------- state

export const UNIT = 40;       // the SVG's own units per cell; fit() sets the size on screen
const LABELS = 0.7 * UNIT;    // the band of row and column labels, left and top
const EDGE = 0.15 * UNIT;     // the margin right and below
const MOST_PER_CELL = 88;     // pixels: a small board grows to its frame, up to this
const LEAST_PER_CELL = 18;    // pixels: below this a large board scrolls in its frame

export const state = {
  rows: 7, cols: 7,
  islands: new Map(),         // "r,c" -> number, or null for an island without a number
  rules: { maxBridges: 2, noLoops: false },
  // The player's state (the `given` of the API, see api.js; its changes, player.js):
  bridges: new Map(),         // pair key -> lines drawn (1 or more)
  ruledOut: new Set(),        // pair keys marked "no bridge here"
  narrowed: new Map(),        // pair key -> the counts the steps applied left it, e.g. [1, 2]
  placed: new Map(),          // pair key -> when the player first drew or marked it (for "first")
  placing: 0,
  stepped: new Set(),         // pair keys whose bridges or mark a step applied, not the player
  locked: new Set(),          // "r,c" of islands the player locked: their pairs stay as they are
  // What the page points out, none of it the player's: reset by each change.
  shown: null,
  // The islands a picture's reader probably misread, until confirmed or dismissed (reading.js):
  // "r,c" -> [r, c, number read or null, number suggested or null for no island].
  suspects: new Map(),
  cursor: [0, 0],
  mode: "edit",               // "play" (draw bridges), "mark" (mark "no bridge"), "edit" (islands)
  laying: false,              // Enter was pressed: the next arrow lays a bridge (controls.js)
  ladder: null,               // the hint under way: {rung: 1 or 2, step}, the third applies it
  showOpen: false,            // the pairs still open drawn (the toggle "where bridges can go")
  checkAsIPlay: false,        // the first mistake looked for after each move ("mistakes as I play")
  broken: [],                 // the rules the bridges break, as judged before each drawing
};

// What the page works out from the state before each drawing (rules.js: the rules broken, and
// their sentences under the board), set once by the entry module; board.js imports no other.
const judges = { rules: () => [], open: () => false };
export function judgeWith(rules, open) { judges.rules = rules; judges.open = open; }

export const key = (r, c) => `${r},${c}`;
export const cellOf = (k) => k.split(",").map(Number);
export const pairKey = (a, b) => {
  const [x, y] = (a[0] < b[0] || (a[0] === b[0] && a[1] < b[1])) ? [a, b] : [b, a];
  return `${x[0]},${x[1]},${y[0]},${y[1]}`;
};
export const pairOf = (k) => { const v = k.split(",").map(Number); return [[v[0], v[1]], [v[2], v[3]]]; };
export const maxNumber = () => 4 * state.rules.maxBridges;
export const playing = () => state.mode !== "edit";
export const cellName = ([r, c]) => `(${r}, ${c})`;
export const pairName = ([a, b]) => `${cellName(a)}-${cellName(b)}`;

export function nothingShown() {
  return {
    islands: new Set(),       // islands in the wrong (a rule broken, numbers that cannot all hold)
    added: new Map(),         // islands a fix proposes on water: "r,c" -> number
    differences: [],          // pairs where two solutions differ
    reason: new Set(),        // the islands whose numbers force the step shown
    step: null,               // the pair the step shown decides
    mistakes: new Set(),      // pairs drawn or marked that are wrong (the first mistake)
  };
}
state.shown = nothingShown();

export function clearShown() { state.shown = nothingShown(); }

// ---------------------------------------------------------------------------- geometry

// Worked out here, not asked of the server: the page needs a puzzle's pairs and crossings at
// once, for a gesture or a key just after any edit of its islands, and none of the API's
// documents lists them (a puzzle's document is its size and islands; `steps` lists only the
// pairs it leaves open, `hint` the pairs by what the solutions do with them, on request).
// The answers the page does get, it uses as they come: a step's pair and its reason, the pairs
// where two solutions differ, a solution's bridges, the islands and pairs found wrong.

// The nearest island in each direction from a cell (bridges join only such neighbours).
export function neighbour(r, c, dr, dc) {
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
export function crosses(p, q) {
  const [[a1, b1], [a2, b2]] = [p, q];
  const hp = a1[0] === b1[0], hq = a2[0] === b2[0];
  if (hp === hq) return false;
  const [h, v] = hp ? [p, q] : [q, p];
  const row = h[0][0], col = v[0][1];
  return h[0][1] < col && col < h[1][1] && v[0][0] < row && row < v[1][0];
}

// Whether a pair still joins two neighbouring islands (an edit can part them).
function joins(k) {
  const [a, b] = pairOf(k);
  return state.islands.has(key(...a)) && state.islands.has(key(...b)) &&
    between(a, b).every(([r, c]) => !state.islands.has(key(r, c)));
}

// What the player drew or marked on pairs that an edit parted goes.
export function prunePairs() {
  for (const k of [...state.bridges.keys()]) if (!joins(k)) state.bridges.delete(k);
  for (const k of [...state.ruledOut]) if (!joins(k)) state.ruledOut.delete(k);
  for (const k of [...state.narrowed.keys()]) if (!joins(k)) state.narrowed.delete(k);
  for (const k of [...state.placed.keys()]) if (!state.bridges.has(k) && !state.ruledOut.has(k)) state.placed.delete(k);
  for (const k of [...state.stepped]) if (!state.bridges.has(k) && !state.ruledOut.has(k)) state.stepped.delete(k);
  for (const k of [...state.locked]) if (!state.islands.has(k)) state.locked.delete(k);
}

// Every pair of neighbouring islands, each once (its first end first in reading order).
export function neighbourPairs() {
  const pairs = [];
  for (const k of state.islands.keys()) {
    const [r, c] = cellOf(k);
    for (const way of [[0, 1], [1, 0]]) {
      const other = neighbour(r, c, ...way);
      if (other) pairs.push(pairKey([r, c], other));
    }
  }
  return pairs;
}

export function bridgeCount(island) {
  let total = 0;
  for (const [k, n] of state.bridges) {
    const [a, b] = pairOf(k);
    if (key(...a) === island || key(...b) === island) total += n;
  }
  return total;
}

// ---------------------------------------------------------------------------- drawing

const SVG = "http://www.w3.org/2000/svg";
export const $ = (id) => document.getElementById(id);
export const centre = (r, c) => [LABELS + UNIT * (c + 0.5), LABELS + UNIT * (r + 0.5)];
const boardWidth = () => LABELS + UNIT * state.cols + EDGE;
const boardHeight = () => LABELS + UNIT * state.rows + EDGE;

export function element(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// The line of a pair from centre to centre, or `inset` short of each centre.
function pairLine(k, attributes, parent, inset = 0) {
  const [a, b] = pairOf(k);
  const [x1, y1] = centre(...a), [x2, y2] = centre(...b);
  const [dx, dy] = [Math.sign(x2 - x1) * inset, Math.sign(y2 - y1) * inset];
  return element("line", { x1: x1 + dx, y1: y1 + dy, x2: x2 - dx, y2: y2 - dy, "data-pair": k, ...attributes }, parent);
}

// Parallel lines of a bridge, `gap` apart, centred on the line between the islands.
function offsets(count) {
  const gap = UNIT / 8;
  return Array.from({ length: count }, (_, i) => (i - (count - 1) / 2) * gap);
}

// Layers, bottom up: the water with its labels, the bridges and the marks "no bridge", the
// islands, then what the page points out (a step's pair, where solutions differ, a mistake),
// drawn over the islands' rims, short of their numbers, so that a pair of islands in adjacent
// cells shows it as well as any other (the overlays multiply with what is under them).
export function draw() {
  const board = $("board");
  board.setAttribute("viewBox", `0 0 ${boardWidth()} ${boardHeight()}`);
  board.replaceChildren();
  element("rect", { class: "water", width: boardWidth(), height: boardHeight() }, board);
  drawLabels(element("g", { class: "labels" }, board));
  const water = element("g", {}, board);
  for (let r = 0; r < state.rows; r++) {
    for (let c = 0; c < state.cols; c++) {
      const [x, y] = centre(r, c);
      element("rect", { class: "cell", x: x - UNIT / 2, y: y - UNIT / 2, width: UNIT, height: UNIT,
        "data-row": r, "data-col": c }, water);
      if (!state.islands.has(key(r, c))) element("circle", { class: "water-dot", cx: x, cy: y, r: 1.5 }, water);
    }
  }
  const shown = state.shown;
  state.broken = judges.rules();
  const look = new Set(state.ladder ? state.ladder.step.reason.map(([r, c]) => key(r, c)) : []);
  $("hint-line").textContent = ladderWords(state.ladder);
  const brokenCells = new Set(state.broken.flatMap((v) => v.cells.map((cell) => key(...cell))));
  const brokenPairs = new Set(state.broken.filter((v) => v.rule === "pair-count").map((v) => pairKey(...v.cells)));
  if (state.showOpen && playing()) drawOpen(element("g", { class: "open-pairs" }, board));
  const bridges = element("g", {}, board);
  for (const k of [...state.ruledOut].sort()) {
    const group = element("g", { class: "no-bridge", "data-pair": k, role: "img",
      "aria-label": `no bridge ${pairName(pairOf(k))}` }, bridges);
    if (shown.mistakes.has(k)) group.classList.add("mistake");
    if (shown.step === k) group.classList.add("step");
    if (state.stepped.has(k)) group.dataset.by = "step";
    drawTrace(k, group);
    const [a, b] = pairOf(k), [x1, y1] = centre(...a), [x2, y2] = centre(...b);
    const [x, y, s] = [(x1 + x2) / 2, (y1 + y2) / 2, UNIT / 7];
    element("path", { class: "cross", d: `M${x - s},${y - s}L${x + s},${y + s}M${x - s},${y + s}L${x + s},${y - s}` }, group);
    pairLine(k, { class: "hit" }, group);
  }
  for (const [k, count] of [...state.bridges].sort()) {
    const [a, b] = pairOf(k);
    const group = element("g", { class: "bridge", "data-pair": k, "data-count": count,
      "data-r1": a[0], "data-c1": a[1], "data-r2": b[0], "data-c2": b[1], role: "img",
      "aria-label": `${count === 1 ? "a bridge" : count === 2 ? "a double bridge" : `${count} bridges`} ${pairName([a, b])}` }, bridges);
    if (shown.mistakes.has(k)) group.classList.add("mistake");
    if (brokenPairs.has(k)) group.classList.add("broken");
    if (state.stepped.has(k)) group.dataset.by = "step";
    if (shown.step === k) group.classList.add("step");
    const [x1, y1] = centre(...a), [x2, y2] = centre(...b);
    const horizontal = a[0] === b[0];
    for (const o of offsets(Math.min(count, 8))) {
      const [dx, dy] = horizontal ? [0, o] : [o, 0];
      element("line", { x1: x1 + dx, y1: y1 + dy, x2: x2 + dx, y2: y2 + dy }, group);
    }
    pairLine(k, { class: "hit" }, group);
  }
  const steps = new Set(shown.step ? pairOf(shown.step).map((e) => key(...e)) : []);
  const islands = element("g", {}, board);
  for (const [k, n] of state.islands) {
    const [r, c] = cellOf(k), [x, y] = centre(r, c);
    const group = element("g", { class: "island", "data-cell": k, "data-row": r, "data-col": c,
      id: `island-${r}-${c}`, role: "img", "aria-label": islandWords(k) }, islands);
    if (shown.islands.has(k)) group.classList.add("marked");
    if (brokenCells.has(k)) group.classList.add("broken");
    if (look.has(k)) group.classList.add("look");
    if (state.locked.has(k)) group.classList.add("locked");
    if (shown.reason.has(k)) group.classList.add("reason");
    if (steps.has(k)) group.classList.add("step");
    if (state.suspects.has(k)) group.classList.add("suspect");
    if (playing() && n !== null && bridgeCount(k) === n) group.classList.add("done");
    element("circle", { cx: x, cy: y, r: UNIT * 0.4 }, group);
    if (n !== null) element("text", { x, y: y + 7 }, group).textContent = String(n);
  }
  const over = element("g", { class: "overlays" }, board);
  const rim = UNIT * 0.22;  // from an island's centre: clear of its number
  for (const [a, b] of shown.differences) pairLine(pairKey(a, b), { class: "difference" }, over, rim);
  if (shown.step) pairLine(shown.step, { class: "pair-step" }, over, rim);
  drawNarrowed(over);
  for (const k of shown.mistakes) pairLine(k, { class: "pair-mistake" }, over, rim);
  // A proposed new island: a dashed ring with its number on the water cell.
  for (const [k, n] of shown.added) {
    if (state.islands.has(k)) continue;
    const [r, c] = cellOf(k), [x, y] = centre(r, c);
    const group = element("g", { class: "added", "data-cell": k, "data-row": r, "data-col": c }, over);
    element("circle", { cx: x, cy: y, r: UNIT * 0.4 }, group);
    element("text", { x, y: y + 7 }, group).textContent = String(n);
  }
  // A suspect of a picture's reading: what it probably is, in a badge on the island's corner
  // (or a dashed ring on water, for an island the reader did not take).
  for (const [k, [r, c, , suggested]] of state.suspects) {
    const [x, y] = centre(r, c);
    const group = element("g", { class: "suspect-mark", "data-cell": k, "data-row": r, "data-col": c }, over);
    if (!state.islands.has(k)) element("circle", { class: "ring", cx: x, cy: y, r: UNIT * 0.4 }, group);
    element("circle", { cx: x + UNIT * 0.32, cy: y - UNIT * 0.32, r: UNIT * 0.2 }, group);
    element("text", { x: x + UNIT * 0.32, y: y - UNIT * 0.32 + 4 }, group).textContent =
      suggested === null ? "✕" : String(suggested);
  }
  const [r, c] = state.cursor, [x, y] = centre(r, c);
  board.setAttribute("aria-activedescendant", state.islands.has(key(r, c)) ? `island-${r}-${c}` : "");
  element("rect", { class: "cursor", x: x - UNIT / 2 + 2, y: y - UNIT / 2 + 2,
    width: UNIT - 4, height: UNIT - 4 }, board);
  fit();
}

// What the hint under way says: first where to look, then the technique and its sentence.
function ladderWords(ladder) {
  if (!ladder) return "";
  const { step, rung } = ladder, n = step.reason.length;
  if (rung === 1) {
    const where = n ? `the ${n === 1 ? "island" : `${n} islands`} ringed: ${n === 1 ? "its number decides" : "their numbers decide"} a pair`
      : "the bridges already certain: they decide a pair";
    return `Hint (1 of 3): look at ${where}. Hint again for the technique.`;
  }
  return `Hint (2 of 3): ${step.technique.replaceAll("-", " ")} (${step.level}): ${step.text}. Hint again to apply it.`;
}

// An island as a screen reader names it: its number, where, and the bridges it has.
export function islandWords(k) {
  const n = state.islands.get(k), has = bridgeCount(k);
  const number = n === null ? "an island without a number" : `the ${n}`;
  const lines = `${has} bridge${has === 1 ? "" : "s"}${n === null ? "" : ` of ${n}`}`;
  return `${number} at ${cellName(cellOf(k))}: ${lines}${state.locked.has(k) ? ", locked" : ""}`;
}

// A cell as a screen reader hears it once selected: the island, and each way its pair: the
// bridges on it, its mark, or none.
export function describeCell(r, c) {
  const k = key(r, c);
  if (!state.islands.has(k)) return `water at ${cellName([r, c])}`;
  const ways = [["up", -1, 0], ["down", 1, 0], ["left", 0, -1], ["right", 0, 1]];
  const pairs = ways.flatMap(([name, dr, dc]) => {
    const other = neighbour(r, c, dr, dc);
    if (!other) return [];
    const p = pairKey([r, c], other), n = state.bridges.get(p) || 0, to = state.islands.get(key(...other));
    const what = state.ruledOut.has(p) ? "marked no bridge" : n === 0 ? "no bridge" : n === 1 ? "a bridge" : n === 2 ? "a double bridge" : `${n} bridges`;
    return [`${name}, ${what} to ${to === null ? "an island" : `the ${to}`} at ${cellName(other)}`];
  });
  return `${islandWords(k)}. ${pairs.join("; ")}.`;
}

// The guide line of a mark "no bridge", from each island to the first bridge drawn across the
// pair (it is not drawn through bridges).
function drawTrace(k, group) {
  const [a, b] = pairOf(k), [x1, y1] = centre(...a), [x2, y2] = centre(...b);
  const horizontal = a[0] === b[0];
  const across = [...state.bridges.keys()].filter((other) => crosses(pairOf(k), pairOf(other)))
    .map((other) => (horizontal ? centre(...pairOf(other)[0])[0] : centre(...pairOf(other)[0])[1]));
  const gap = UNIT / 5;
  const [from, to] = horizontal ? [x1, x2] : [y1, y2];
  const stops = [from, ...across.sort((p, q) => p - q).flatMap((at) => [at - gap, at + gap]), to];
  for (let i = 0; i + 1 < stops.length; i += 2) {
    if (stops[i + 1] <= stops[i]) continue;
    const ends = horizontal ? { x1: stops[i], y1, x2: stops[i + 1], y2: y1 } : { x1, y1: stops[i], x2: x1, y2: stops[i + 1] };
    element("line", { class: "trace", "data-pair": k, ...ends }, group);
  }
}

// The counts the steps left a pair that is not decided yet ("at most one bridge": ≤1), written
// small on the pair, so that a step stays visible once the next one is shown.
function drawNarrowed(parent) {
  for (const [k, counts] of state.narrowed) {
    if (counts.length < 2) continue;
    const most = Math.max(...counts), least = Math.min(...counts);
    const contiguous = most - least + 1 === counts.length;
    const words = contiguous && least === 0 ? `≤${most}` : contiguous && most === state.rules.maxBridges ? `≥${least}` : counts.join("/");
    const [a, b] = pairOf(k), [x1, y1] = centre(...a), [x2, y2] = centre(...b);
    const [x, y] = [(x1 + x2) / 2, (y1 + y2) / 2];
    const shift = a[0] === b[0] ? [0, -UNIT * 0.22] : [UNIT * 0.22, 4];
    element("text", { class: "narrowed", "data-pair": k, x: x + shift[0], y: y + shift[1] }, parent).textContent = words;
  }
}

// Where one more bridge can still go: a faint line on each pair still open.
function drawOpen(parent) {
  for (const k of neighbourPairs()) if (judges.open(k)) pairLine(k, { class: "open" }, parent, UNIT * 0.4);
}

// Row numbers down the left, column numbers along the top: the (row, column) of every message.
function drawLabels(group) {
  for (let c = 0; c < state.cols; c++) {
    element("text", { class: "label", x: centre(0, c)[0], y: LABELS * 0.62 }, group).textContent = String(c);
  }
  for (let r = 0; r < state.rows; r++) {
    element("text", { class: "label", x: LABELS * 0.45, y: centre(r, 0)[1] + 5 }, group).textContent = String(r);
  }
}

// The board's size on screen: as large as its frame is wide and the window leaves room below the
// frame's top for the play bar and a message of a few lines, within MOST_PER_CELL; never below
// LEAST_PER_CELL (the frame then scrolls).  Set as attributes and through the CSS object model,
// never as a style attribute, which the page's policy refuses.
const MESSAGE_ROOM = 72;      // pixels below the play bar

export function fit() {
  const board = $("board"), frame = $("board-frame");
  const below = $("play-bar").getBoundingClientRect().height + MESSAGE_ROOM;
  const top = frame.getBoundingClientRect().top + window.scrollY;
  const room = [frame.clientWidth, window.innerHeight - top - below];
  const wide = boardWidth() / UNIT, high = boardHeight() / UNIT;
  let perCell = Math.min(room[0] / wide, room[1] / high, MOST_PER_CELL);
  perCell = Math.max(LEAST_PER_CELL, Math.floor(perCell));
  board.setAttribute("width", Math.round(perCell * wide));
  board.setAttribute("height", Math.round(perCell * high));
  frame.style.maxHeight = `${Math.max(room[1], 8 * LEAST_PER_CELL)}px`;  // CSSOM: allowed
}

// The cell under a pointer, and where in it, from the board's own coordinates.
export function pointAt(event) {
  const board = $("board");
  const point = board.createSVGPoint();
  point.x = event.clientX; point.y = event.clientY;
  return point.matrixTransform(board.getScreenCTM().inverse());
}

export function cellAt(event) {
  const local = pointAt(event);
  const r = Math.floor((local.y - LABELS) / UNIT), c = Math.floor((local.x - LABELS) / UNIT);
  return r >= 0 && c >= 0 && r < state.rows && c < state.cols ? [r, c] : null;
}
