// What the page's controls do to the puzzle and the player's state, each one change (undo takes
// it back): editing islands and the rules, drawing and marking, a step applied (Next step),
// the first mistake shown, the puzzle solved or cleared, a fix applied.

import {
  state, key, pairKey, pairOf, cellName, pairName, maxNumber, crosses, bridgeCount, nothingShown,
  clearShown, $, draw,
} from "./board.js";
import { api, byPlacing, given, puzzleText } from "./api.js";
import { offer, say, solved } from "./words.js";
import { change, place, setProgress, snapshot, usedHint } from "./player.js";
import { chosenEdits, showFix } from "./fixes.js";
import { decided, showSuspects } from "./reading.js";

// ---------------------------------------------------------------------------- the author fix

// The fix shown applied, in one change.
export function applyFix() {
  const edits = chosenEdits();
  if (!edits) return;
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

export function setIsland(r, c, value) {  // value: a number, null (no number), or undefined (remove)
  decided(key(r, c));
  if (state.suspects.delete(key(r, c))) showSuspects();  // the player decided it
  change(() => {
    if (value === undefined) state.islands.delete(key(r, c));
    else state.islands.set(key(r, c), value);
    clearShown();
  });
}

export function cycle(r, c, down) {
  const k = key(r, c), top = maxNumber();
  const n = state.islands.has(k) ? state.islands.get(k) : undefined;
  let next;
  if (!down) next = n === undefined ? 1 : n === null ? 1 : n >= top ? undefined : n + 1;
  else next = n === undefined ? top : n === null || n <= 1 ? undefined : n - 1;
  setIsland(r, c, next);
}

export function setRules() {
  change(() => {
    state.rules = { maxBridges: Number($("max-bridges").value), noLoops: $("no-loops").checked };
    for (const [k, n] of state.islands) if (n !== null && n > maxNumber()) state.islands.set(k, maxNumber());
    for (const [k, n] of state.bridges) if (n > state.rules.maxBridges) state.bridges.set(k, state.rules.maxBridges);
    state.narrowed.clear();
  });
}

// ---------------------------------------------------------------------------- playing

// Why a pair cannot be changed now: an end locked (the player's own lock on a finished island).
function lockedEnd(k) {
  const end = pairOf(k).find((cell) => state.locked.has(key(...cell)));
  return end ? `the island ${cellName(end)} is locked: unlock it (tap it, or l) to change its bridges` : "";
}

// One more line between a pair; past the most the rules allow, the bridge goes.  (On a pair
// marked "no bridge" the mark goes and the first line comes.)  The pair is the player's now,
// whatever a step put there.
export function addLine(a, b) {
  const k = pairKey(a, b);
  if (lockedEnd(k)) { say(lockedEnd(k)); return; }
  const blocking = [...state.bridges.keys()].find((other) => crosses(pairOf(k), pairOf(other)));
  if (blocking) { say(`that bridge would cross the bridge ${pairName(pairOf(blocking))}`); return; }
  say("");
  change(() => {
    const next = (state.bridges.get(k) || 0) + 1;
    state.ruledOut.delete(k);
    state.narrowed.delete(k);
    state.stepped.delete(k);
    if (next > state.rules.maxBridges) state.bridges.delete(k);
    else { state.bridges.set(k, next); place(k); }
    clearShown();
  });
}

// The mark "no bridge" on a pair, or off again; marking a pair takes its lines away.
export function toggleMark(a, b) {
  const k = pairKey(a, b);
  if (lockedEnd(k)) { say(lockedEnd(k)); return; }
  say("");
  change(() => {
    if (state.ruledOut.has(k)) state.ruledOut.delete(k);
    else { state.bridges.delete(k); state.ruledOut.add(k); place(k); }
    state.narrowed.delete(k);
    state.stepped.delete(k);
    clearShown();
  });
}

// A finished island locked, or unlocked (as in Tatham's Bridges): while locked, its pairs
// cannot be changed.  Only an island with all its bridges locks.
export function toggleLock(r, c) {
  const k = key(r, c), n = state.islands.get(k);
  if (!state.locked.has(k) && (n === null || n === undefined || bridgeCount(k) !== n)) {
    say(`only an island with all its bridges locks: ${cellName([r, c])} has ${bridgeCount(k)}${n === null || n === undefined ? "" : ` of ${n}`}`);
    return;
  }
  say("");
  change(() => { if (!state.locked.delete(k)) state.locked.add(k); });
}

// A step applied: the counts it leaves the pair kept (so that it is never given again), the
// bridges it makes certain drawn, a pair it rules out marked; what it drew or marked is the
// step's, never counted as the player's mistake.
function applyStep(step) {
  const [r1, c1, r2, c2] = step.pair;
  const k = pairKey([r1, c1], [r2, c2]);
  state.narrowed.set(k, step.bridges);
  const least = Math.min(...step.bridges);
  if (least > (state.bridges.get(k) || 0)) { state.bridges.set(k, least); place(k); state.stepped.add(k); }
  if (step.bridges.length === 1 && step.bridges[0] === 0) { state.ruledOut.add(k); place(k); state.stepped.add(k); }
}

// The next step from the player's state, asked of `steps`; none where the state is wrong: a
// rule broken (the page sees that at once) or, as `steps` answers `mistaken`, no solution
// keeping to it.  A step from a wrong state would build on the mistake, so the player is
// offered the first mistake instead.  Resolves to the step (or null when none was given).
export async function askStep() {
  const sent = snapshot();
  if (state.broken.length) {
    offer("Your bridges break a rule (said under the board): no step follows from them.");
    return null;
  }
  const doc = await api("steps", { puzzle: puzzleText(), given: given(), steps: 1 });
  if (snapshot() !== sent) return null;
  const step = doc.steps[0];
  if (step) return step;
  if (doc.status === "solved") {
    say("Nothing left to find: solved.");
  } else if (doc.status === "mistaken") {
    offer("Your bridges and marks agree with no solution: no step follows from them.");
  } else if (doc.status === "stuck") {
    say("No further step follows: the puzzle has several solutions from here.");
  } else if (doc.status === "contradiction") {
    clearShown();
    state.shown.islands = new Set((doc.conflict || []).map(([r, c]) => key(r, c)));
    say("The puzzle itself has no solution.");  // (a state it has is answered `mistaken`)
  } else {
    say("No step found within the time limit.");
  }
  draw();
  return null;
}

// A step applied, in one change, its reason and pair shown, its sentence said.
export function showStep(step) {
  if (step.pair && step.bridges.length) change(() => { applyStep(step); clearShown(); });
  state.shown = nothingShown();
  state.shown.reason = new Set(step.reason.map(([r, c]) => key(r, c)));
  if (step.pair) state.shown.step = pairKey(step.pair.slice(0, 2), step.pair.slice(2));
  say(step.text);
  draw();
}

export async function nextStep() {
  try {
    const step = await askStep();
    if (step) { usedHint(); showStep(step); }
  } catch (error) { say(error.message); }
}

// The hint ladder, one rung a press, each rung one change (undo takes it back) and one hint of
// the game's record: first where to look (the step's reason islands ringed, no pair said), then
// the technique named with its sentence, then the move applied (as Next step).
export async function hintLadder() {
  try {
    const ladder = state.ladder;
    if (ladder && ladder.rung === 2) { usedHint(); showStep(ladder.step); return; }
    if (ladder) { usedHint(); say(""); change(() => { state.ladder = { rung: 2, step: ladder.step }; }); return; }
    const step = await askStep();
    if (!step) return;
    usedHint();
    say("");
    change(() => { clearShown(); state.ladder = { rung: 1, step }; });
  } catch (error) { say(error.message); }
}

function mistakeWords(k, count) {
  const pair = pairName(pairOf(k));
  if (count === undefined) return `the mark "no bridge" on ${pair}: every solution has a bridge there`;
  const lines = count === 1 ? "a bridge" : `${count} bridges`;
  return `the ${count === 1 ? "bridge" : count === 2 ? "double bridge" : `${count} bridges`} ${pair}: no solution has ${lines} there`;
}

// Whether the entry named (a pair's count, or its mark when `count` is undefined) is still
// on the board as it was: the mistake named stays said only so long.
const stillThere = (k, count) => () =>
  (count === undefined ? state.ruledOut.has(k) : state.bridges.get(k) === count);

// "Show my first mistake": the first bridge or mark the player made that no solution agrees
// with (the API proves each on its own), or that there is none, or that the puzzle has none.
// What the steps applied drew or marked is never counted: only the player's own are named.
// `quietly` (after each move, "mistakes as I play"): a mistake is named, nothing else is said
// (the rules broken are said under the board already, by rules.js).
export async function check({ quietly = false } = {}) {
  const sent = snapshot();
  if (quietly && !state.bridges.size && !state.ruledOut.size) return;
  try {
    const doc = await api("hint", { puzzle: puzzleText(), given: given() });
    if (snapshot() !== sent) return;
    if (quietly) { quietCheck(doc); return; }
    clearShown();
    const said = [];
    for (const v of doc.illegal || []) {
      for (const [r, c] of v.cells) state.shown.islands.add(key(r, c));
      said.push(v.message);
    }
    const wrong = doc.mistakes || { bridges: [], ruled_out: [], exhausted: true, solvable: null };
    const found = ownMistakes(wrong);
    let holds = null;
    if (wrong.solvable === false) {
      said.push("The puzzle itself has no solution.");
    } else if (found.length) {
      let sentence;
      [sentence, holds] = showFirst(found);
      said.push(sentence);
    } else if (solved) {
      said.push("Solved!");
    } else if (!wrong.exhausted) {
      said.push("No mistake found within the time limit (not every bridge and mark was asked about).");
    } else if (doc.status === "unsolvable" && !(doc.illegal || []).length) {
      // Each is in some solution, but no solution has them all: the smallest such set of the
      // player's bridges and marks.
      for (const [r1, c1, r2, c2] of doc.conflict || []) {
        const k = pairKey([r1, c1], [r2, c2]);
        if (!state.stepped.has(k)) state.shown.mistakes.add(k);
      }
      said.push("No bridge or mark is wrong on its own, but no solution has them all.");
    } else if (!said.length) {
      said.push("No mistake so far.");
    }
    say(said.join("\n"), holds);
    draw();
  } catch (error) { say(error.message); }
}

// The player's first own mistake of a `hint` answer, or none: as "Show my first mistake"
// names it, in red with its sentence; a mistake shown before and now mended goes.
function quietCheck(doc) {
  const found = ownMistakes(doc.mistakes);
  const had = state.shown.mistakes.size > 0;
  state.shown.mistakes = new Set();
  if (found.length) {
    say(...showFirst(found));
  } else if (had) {
    say("");
  }
  draw();
}

// The first of the player's mistakes `found` drawn red: its sentence, and how long it holds
// (so long as that bridge or mark is on the board as it was).
function showFirst(found) {
  const [k, n] = found[0];
  state.shown.mistakes.add(k);
  const more = found.length > 1 ? ` (${found.length - 1} more after it)` : "";
  return [`Your first mistake: ${mistakeWords(k, n)}${more}.`, stillThere(k, n)];
}

// The bridges and marks of a `hint` answer's mistakes that are the player's own (not a step's),
// in the order the player made them: [pair key, count], the count undefined for a mark.
function ownMistakes(mistakes) {
  const wrong = mistakes || { bridges: [], ruled_out: [] };
  return [
    ...wrong.bridges.map(([r1, c1, r2, c2, n]) => [pairKey([r1, c1], [r2, c2]), n]),
    ...wrong.ruled_out.map(([r1, c1, r2, c2]) => [pairKey([r1, c1], [r2, c2]), undefined]),
  ].filter(([k]) => !state.stepped.has(k)).sort(([a], [b]) => byPlacing(a, b));
}

export async function solve() {
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

export function clearPlay() {
  say("");
  change(() => { setProgress({}); clearShown(); });
}
