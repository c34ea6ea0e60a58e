// The puzzle shown and the mode the board is in: opening a puzzle (loaded, linked, generated, a
// new grid, or the last one shown), and the modes (play, mark, edit islands).

import { state, clearShown, $, draw } from "./board.js";
import { api } from "./api.js";
import { say, verdict } from "./words.js";
import { stopAnalysis } from "./analysis.js";
import { change, puzzleChanged, resume, runTimer, save, setPuzzleOnly } from "./player.js";
import { forgetReading } from "./reading.js";

// ---------------------------------------------------------------------------- modes

const HELP = { play: "help-play", mark: "help-play", edit: "help-edit" };

export function setMode(mode) {
  state.mode = mode;
  for (const radio of document.querySelectorAll("input[name=mode]")) radio.checked = radio.value === mode;
  for (const [m, id] of Object.entries(HELP)) if (m !== mode) $(id).hidden = true;
  $(HELP[mode]).hidden = false;
  state.laying = false;
  $("board").classList.remove("laying");
  runTimer();
  save();
  draw();
}

// ---------------------------------------------------------------------------- loading, generating

// A puzzle opened (loaded, linked, generated, created, or the last one shown): in `mode`, with
// the player's state kept for it.  Undo goes back to the puzzle before.
export function openPuzzle(doc, mode) {
  stopAnalysis();
  forgetReading();
  setMode(mode);
  if (!change(() => { setPuzzleOnly(doc); state.cursor = [0, 0]; clearShown(); resume(); })) puzzleChanged();
}

export async function load(text, notation) {
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

export async function generate() {
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

export function newGrid() {
  const rows = Number($("rows").value), cols = Number($("cols").value);
  if (!(rows >= 1 && cols >= 1 && rows <= 100 && cols <= 100)) { say("a grid is 1 to 100 cells each way"); return; }
  openPuzzle({ rows, cols, islands: [], max_bridges: Number($("max-bridges").value), no_loops: $("no-loops").checked }, "edit");
}
