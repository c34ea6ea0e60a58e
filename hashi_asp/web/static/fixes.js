// The author's fix of a puzzle with several solutions: the words of a fix, and the fixes to
// choose from (`fix --alternatives`): the fix found first and the others the server offers,
// the fewest edits first, each listed with the difficulty it leaves the puzzle in; the one
// chosen is marked on the board and applied by "Apply the fix" (app.js).

import { state, key, $, draw } from "./board.js";
import { api, puzzleText } from "./api.js";
import { say } from "./words.js";

const FIX_LIMIT = 10;   // seconds: the fewest edits are mostly proven well within it
const FIX_CHOICES = 5;  // fixes asked for: the server proves and rates each
let chosen = null;      // the edits of the fix shown, until applied or the puzzle changes

export function fixWords(fix) {
  return fix.edits.map(editWords).join("; ");
}

function editWords(edit) {
  const [r, c] = edit.cell;
  if (edit.kind === "add") return `add an island ${edit.to} at (${r}, ${c})`;
  if (edit.kind === "remove") return `remove the island at (${r}, ${c})`;
  if (edit.from === null) return `give the island at (${r}, ${c}) the number ${edit.to}`;
  return `change the ${edit.from} at (${r}, ${c}) to ${edit.to}`;
}

// The button that asks for the fewest edits, shown for a puzzle of several solutions; no fix
// chosen.
export function showFix(shown) {
  $("fix-area").hidden = !shown;
  $("apply-fix").hidden = true;
  chosen = null;
  clearChoices();
}

// The edits of the fix shown, to apply; null when none is.
export function chosenEdits() { return chosen; }

// The fewest edits that make the puzzle unique (checked by the server): listed, their islands
// marked, ready to apply.
export async function findFix() {
  const puzzle = puzzleText();
  say("looking for the fewest edits…");
  try {
    const doc = await api("fix", { puzzle, "time-limit": FIX_LIMIT, alternatives: FIX_CHOICES });
    if (puzzleText() !== puzzle) return;  // edited meanwhile
    if (doc.status !== "fixed") { say(`No fix: ${doc.status}.`); return; }
    showChoices(doc);
  } catch (error) {
    say(error.message);
  }
}

// List the fixes of a `fix` document and show the first.
function showChoices(doc) {
  const list = $("fix-choices");
  const offered = doc.alternatives && doc.alternatives.length ? doc.alternatives : [doc];
  list.replaceChildren(...offered.map((fix, i) => choiceItem(fix, i, offered.length)));
  list.hidden = false;
  chooseFix(offered[0], 0, offered.length);
}

function clearChoices() {
  $("fix-choices").replaceChildren();
  $("fix-choices").hidden = true;
}

function choiceItem(fix, index, count) {
  const item = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "fix-choice";
  button.dataset.edits = JSON.stringify(fix.edits);
  button.dataset.band = fix.difficulty ? fix.difficulty.band : "";
  const edits = `${fix.edits.length} edit${fix.edits.length === 1 ? "" : "s"}`;
  button.textContent = `${fixWords(fix)} (${edits}; ${rating(fix.difficulty)})`;
  button.addEventListener("click", () => chooseFix(fix, index, count));
  item.append(button);
  return item;
}

function rating(difficulty) {
  return difficulty ? `${difficulty.band}, ${difficulty.score.toFixed(2)}` : "not rated in time";
}

// The fix chosen: its islands marked, a new island drawn on its water cell, ready to apply.
function chooseFix(fix, index, count) {
  chosen = fix.edits;
  state.shown.islands = new Set(fix.edits.map(({ cell: [r, c] }) => key(r, c)));
  state.shown.added = new Map(fix.edits.filter((e) => e.kind === "add").map(({ cell: [r, c], to }) => [key(r, c), to]));
  draw();
  $("fix-choices").querySelectorAll("button").forEach((button, i) => button.setAttribute("aria-pressed", String(i === index)));
  const fewest = fix.fewest ? "the fewest" : `at least ${fix.lower_bound} needed`;
  const which = count > 1 ? `fix ${index + 1} of ${count}, ` : "";
  say(`To make it unique (${which}${fewest}; ${rating(fix.difficulty)}): ${fixWords(fix)}.`);
  $("apply-fix").hidden = false;
}
