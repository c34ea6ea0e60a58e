// The live analysis: after every change to the puzzle, once the edits pause, the server says
// whether it has one solution, several (where two differ, how many, a fix) or none (why).
// A newer edit aborts the request running; the server then cancels its search.

import { state, key, draw } from "./board.js";
import { api, puzzleText } from "./api.js";
import { say, verdict } from "./words.js";
import { fixWords, showFix } from "./fixes.js";

const LIVE_DELAY = 150;      // ms after the last edit before the live analysis starts
const LIVE_LIMIT = 5;        // seconds a live analysis may take

let live = null;        // the AbortController of the analysis running, if any
let liveTimer = null;

// The analysis of the puzzle shown, once the edits pause (a newer call puts it off again).
export function analyseSoon() {
  stopAnalysis();
  verdict("analysing…", "busy");
  liveTimer = setTimeout(analyse, LIVE_DELAY);
}

// The analysis of the puzzle shown ends, waiting or running: its answer shows nothing. (Also when
// another puzzle is asked for: whether it loads or not, the verdict is no longer that one's.)
export function stopAnalysis() {
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
      const words = core.length === 1 ? ["This island cannot have its number (marked)."]
        : core.length ? [`These ${core.length} islands cannot all have their numbers (marked).`] : [];
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
