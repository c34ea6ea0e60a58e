// What a picture's reader said (pictures.js sends the picture): how many islands it read and
// the one it was least sure of, and its suspects, the islands probably misread, each with the
// number it probably is, marked on the board and listed for the player to confirm or dismiss.

import { state, key, cellName, pairName, clearShown, $, draw } from "./board.js";
import { api, puzzleText } from "./api.js";
import { change, setProgress } from "./player.js";

const an = (n) => (n === 8 || n === 11 || n === 18 ? `an ${n}` : `a ${n}`);

// A suspect as the command line says it: "probably a 3, not an 8, at (4, 6)".
function suspectWords([r, c, read, suggested]) {
  const where = cellName([r, c]);
  if (read === null) return `probably ${an(suggested)} at ${where}, not read`;
  if (suggested === null) return `probably no island, not ${an(read)}, at ${where}`;
  return `probably ${an(suggested)}, not ${an(read)}, at ${where}`;
}

// The bridges drawn in the picture (a game going on, "bridges" of the reading) taken as the
// player's, one step of undo: the sentence that says so, for the summary ("" when none are
// drawn).  Not taken where two islands have more lines than the rules allow: said instead.
export function takeDrawn(read) {
  const drawn = (read && read.bridges) || [];
  if (!drawn.length) return "";
  const most = state.rules.maxBridges;
  const over = drawn.find((b) => b[4] > most);
  if (over) {
    return ` The bridges drawn in it are not taken: ${pairName([[over[0], over[1]], [over[2], over[3]]])} has ${over[4]}; allowed 1..${most}.`;
  }
  change(() => setProgress({ bridges: drawn.map((b, i) => [...b, i + 1]) }));
  const lines = drawn.reduce((sum, b) => sum + b[4], 0);
  return ` Continuing from the ${lines} bridge${lines === 1 ? "" : "s"} drawn in it.`;
}

export function showReading(read, name, drawn = "") {
  state.suspects = new Map();
  const panel = $("reading");
  if (!read) { panel.hidden = true; return; }
  const islands = read.islands || [];
  const least = islands.reduce((low, entry) => (low && low[3] <= entry[3] ? low : entry), null);
  summary = { count: islands.length, name, least: least && least[3] < 0.98 ? least : null, drawn };
  for (const suspect of read.suspects || []) state.suspects.set(key(suspect[0], suspect[1]), suspect);
  showSummary();
  panel.hidden = false;
  showSuspects();
  draw();
}

// What the reader said of the picture: the islands read, the one it was least sure of (until
// the player confirms, dismisses or edits that island), the bridges drawn in it taken.
let summary = null;

function showSummary() {
  if (!summary) return;
  const { count, name, least, drawn } = summary;
  const sure = least
    ? `; least sure: ${least[2] === null ? "an island" : `the ${least[2]}`} at ${cellName(least)} (${Math.round(100 * least[3])} %)`
    : "";
  $("reading-summary").textContent = `Read ${count} island${count === 1 ? "" : "s"} from ${name ? `"${name}"` : "the picture"}${sure}.${drawn}`;
}

// The player decided the island at `k` (confirmed, dismissed, or edited it): the reader's doubt
// about it is said no more.
export function decided(k) {
  if (summary && summary.least && key(summary.least[0], summary.least[1]) === k) {
    summary.least = null;
    showSummary();
  }
}

// The list of suspects still open, each with its buttons; the board marks the same islands.
export function showSuspects() {
  const list = $("suspects");
  list.replaceChildren();
  for (const [k, suspect] of state.suspects) {
    const item = document.createElement("li");
    item.dataset.cell = k;
    const words = document.createElement("span");
    words.textContent = suspectWords(suspect);
    const confirm = document.createElement("button");
    confirm.type = "button"; confirm.className = "confirm"; confirm.textContent = "Confirm";
    confirm.addEventListener("click", () => confirmSuspects([k]));
    const dismiss = document.createElement("button");
    dismiss.type = "button"; dismiss.className = "dismiss"; dismiss.textContent = "Dismiss";
    dismiss.addEventListener("click", () => { state.suspects.delete(k); decided(k); showSuspects(); draw(); });
    item.append(words, " ", confirm, " ", dismiss);
    list.append(item);
  }
  const open = state.suspects.size;
  $("suspects-heading").textContent = open
    ? `Probably misread (the puzzle read is not uniquely solvable; ${open === 1 ? "this change makes" : `these ${open} changes make`} it so):`
    : "";
  $("confirm-all").hidden = open < 2;
}

// The suspects of `cells` taken as right: each island gets the number it probably is (or goes),
// in one change of the puzzle, which undo takes back.
export function confirmSuspects(cells) {
  const chosen = cells.map((k) => state.suspects.get(k)).filter(Boolean);
  if (!chosen.length) return;
  for (const k of cells) { state.suspects.delete(k); decided(k); }
  change(() => {
    for (const [r, c, , suggested] of chosen) {
      if (suggested === null) state.islands.delete(key(r, c));
      else state.islands.set(key(r, c), suggested);
    }
    clearShown();
  });
  showSuspects();
  exportSource();
}

// The puzzle text box follows the puzzle confirmed, so that it can be edited further.
async function exportSource() {
  try { $("source").value = (await api("convert", { puzzle: puzzleText(), to: "txt" })).text.trimEnd(); }
  catch (error) { /* the box keeps what was read */ }
}

export function forgetReading() {
  summary = null;
  state.suspects = new Map();
  $("reading").hidden = true;
  $("suspects").replaceChildren();
}
