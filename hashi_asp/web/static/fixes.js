// The fixes to choose from (`fix --alternatives`): the fix found first and the others the
// server offers, the fewest edits first, each listed with the difficulty it leaves the puzzle
// in; the one chosen is marked on the board and applied by "Apply the fix" (app.js).
"use strict";

const FIX_CHOICES = 5;  // fixes asked for: the server proves and rates each

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
  pendingFix = fix.edits;
  state.shown.islands = new Set(fix.edits.map(({ cell: [r, c] }) => key(r, c)));
  state.shown.added = new Map(fix.edits.filter((e) => e.kind === "add").map(({ cell: [r, c], to }) => [key(r, c), to]));
  draw();
  $("fix-choices").querySelectorAll("button").forEach((button, i) => button.setAttribute("aria-pressed", String(i === index)));
  const fewest = fix.fewest ? "the fewest" : `at least ${fix.lower_bound} needed`;
  const which = count > 1 ? `fix ${index + 1} of ${count}, ` : "";
  say(`To make it unique (${which}${fewest}; ${rating(fix.difficulty)}): ${fixWords(fix)}.`);
  $("apply-fix").hidden = false;
}
