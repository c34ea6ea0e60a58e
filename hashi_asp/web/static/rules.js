// The rules the player's bridges break already, whatever is drawn next, worked out in the page
// the moment a bridge is drawn (no request: the board turns red at once): an island with more
// bridges than its number, a pair with more than one of its islands takes, a group of islands
// that each have all their bridges closed off from the rest, and, where loops are not allowed,
// a loop.  The same list, with the same words, as `hint --given` gives in `illegal`
// (hashi_asp/play.py's broken_so_far; a crossing the page never draws, it refuses it).  Also the
// pairs still open: where one more bridge can still go.

import { state, key, cellOf, pairOf, cellName, pairName, crosses, bridgeCount } from "./board.js";

const plural = (count, words) => `${count} ${words}${count === 1 ? "" : "s"}`;
const byCell = (a, b) => a[0] - b[0] || a[1] - b[1];
const shownCells = (cells, most) =>
  cells.slice(0, most).map(cellName).join(", ") + (cells.length > most ? ", ..." : "");

// The drawn bridges between islands, in reading order of their pairs: [[a, z], count].
function drawnPairs() {
  return [...state.bridges]
    .map(([k, n]) => [pairOf(k), n])
    .filter(([[a, z], n]) => n > 0 && state.islands.has(key(...a)) && state.islands.has(key(...z)))
    .sort(([p], [q]) => byCell(p[0], q[0]) || byCell(p[1], q[1]));
}

// Every rule broken, each {rule, message, cells} as the API's `illegal` lists it.
export function brokenRules() {
  const drawn = drawnPairs();
  const found = state.rules.noLoops ? loopOf(drawn) : [];
  const degree = new Map([...state.islands.keys()].map((k) => [k, 0]));
  const joined = new Map([...state.islands.keys()].map((k) => [k, []]));
  for (const [[a, z], n] of drawn) {
    degree.set(key(...a), degree.get(key(...a)) + n);
    degree.set(key(...z), degree.get(key(...z)) + n);
    joined.get(key(...a)).push(key(...z));
    joined.get(key(...z)).push(key(...a));
  }
  const explained = new Set();
  for (const [ends, n] of drawn) {
    const over = ends.filter((end) => { const number = state.islands.get(key(...end)); return number !== null && n > number; });
    if (!over.length) continue;
    for (const end of over) explained.add(key(...end));
    found.push({
      rule: "pair-count",
      message: `${pairName(ends)} has ${plural(n, "bridge")}, more than the ${state.islands.get(key(...over[0]))} at ${cellName(over[0])} takes`,
      cells: ends,
    });
  }
  for (const [k, number] of state.islands) {
    const has = degree.get(k);
    if (number !== null && has > number && !explained.has(k)) {
      found.push({ rule: "island-count", message: `island ${cellName(cellOf(k))} has ${plural(has, "bridge")}, more than its number ${number}`, cells: [cellOf(k)] });
    }
  }
  return [...found, ...closedOff(degree, joined)];
}

// The groups joined by bridges whose islands each have exactly their number, but not all the
// islands: no bridge can be added to any of them, and no solution joins them to the rest.
function closedOff(degree, joined) {
  const found = [], seen = new Set(), all = state.islands.size;
  for (const start of state.islands.keys()) {
    if (seen.has(start)) continue;
    seen.add(start);
    const group = [], stack = [start];
    while (stack.length) {
      const k = stack.pop();
      group.push(k);
      for (const other of joined.get(k)) if (!seen.has(other)) { seen.add(other); stack.push(other); }
    }
    const full = group.every((k) => state.islands.get(k) !== null && degree.get(k) === state.islands.get(k));
    if (group.length < all && full) {
      const cells = group.map(cellOf).sort(byCell), others = all - group.length;
      const rest = others === 1 ? "other island" : `other ${others} islands`;
      found.push({
        rule: "closed-off",
        message: `the ${group.length} islands ${shownCells(cells, 4)} have all their bridges and no way to the ${rest}`,
        cells,
      });
    }
  }
  return found;
}

// One cycle of the bridged pairs, as the independent checker finds it (a depth-first walk from
// the first island in reading order), or none.
function loopOf(drawn) {
  const around = new Map();
  for (const [[a, z]] of drawn) {
    for (const [p, q] of [[a, z], [z, a]]) {
      if (!around.has(key(...p))) around.set(key(...p), []);
      around.get(key(...p)).push(q);
    }
  }
  const parent = new Map();
  for (const start of [...around.keys()].map(cellOf).sort(byCell)) {
    if (parent.has(key(...start))) continue;
    parent.set(key(...start), null);
    const stack = [start];
    while (stack.length) {
      const cell = stack.pop();
      for (const other of [...around.get(key(...cell))].sort(byCell)) {
        const up = parent.get(key(...cell));
        if (up && up[0] === other[0] && up[1] === other[1]) continue;
        if (parent.has(key(...other))) return [loopWords(cycleThrough(parent, cell, other))];
        parent.set(key(...other), cell);
        stack.push(other);
      }
    }
  }
  return [];
}

// The cycle closed by a pair between two cells already reached: up from one to the common
// ancestor, then down to the other.
function cycleThrough(parent, cell, other) {
  const up = [cell];
  for (let above = parent.get(key(...cell)); above; above = parent.get(key(...above))) up.push(above);
  const upKeys = up.map((c) => key(...c));
  const down = [other];
  while (!upKeys.includes(key(...down[down.length - 1]))) down.push(parent.get(key(...down[down.length - 1])));
  const meet = upKeys.indexOf(key(...down[down.length - 1]));
  return [...up.slice(0, meet + 1), ...down.reverse().slice(1)];
}

function loopWords(cycle) {
  return { rule: "loop", message: `loop: the bridges form a cycle through ${cycle.length} islands: ${shownCells(cycle, 6)}`, cells: cycle };
}

// ---------------------------------------------------------------------------- pairs still open

// Whether one more bridge can still go on the pair `k` of neighbours: not marked "no bridge",
// below the most the rules allow, room at both islands, no bridge drawn across it, neither
// island locked.
export function stillOpen(k) {
  if (state.ruledOut.has(k)) return false;
  const [a, z] = pairOf(k), n = state.bridges.get(k) || 0;
  if (n >= state.rules.maxBridges) return false;
  for (const end of [a, z]) {
    const number = state.islands.get(key(...end));
    if (state.locked.has(key(...end))) return false;
    if (number !== null && bridgeCount(key(...end)) >= number) return false;
  }
  const counts = state.narrowed.get(k);
  if (counts && Math.max(...counts) <= n) return false;
  return ![...state.bridges.keys()].some((other) => other !== k && crosses(pairOf(k), pairOf(other)));
}

// ---------------------------------------------------------------------------- shown

// The rules broken, judged before each drawing (board.js colours their islands and pairs red)
// and said under the board, one sentence each; the list is rewritten only when it changes, so
// that a screen reader hears each once.
export function judgeRules() {
  const found = brokenRules();
  const list = document.getElementById("rules");
  const words = found.map((v) => v.message);
  if (list && JSON.stringify(words) !== list.dataset.said) {
    list.dataset.said = JSON.stringify(words);
    list.replaceChildren(...found.map((v) => {
      const item = document.createElement("li");
      item.dataset.rule = v.rule;
      item.dataset.cells = v.cells.map((cell) => cell.join(",")).join(" ");
      item.textContent = v.message;
      return item;
    }));
    list.hidden = !found.length;
  }
  return found;
}
