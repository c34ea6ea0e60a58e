// What the page says: the verdict on top (solved, or the live analysis's verdict on the
// puzzle) and the message under the board.

import { $ } from "./board.js";

export function say(text) { $("message").textContent = text; }

// The line on top: "solved" once the player's drawing is a solution, else the live verdict of
// the puzzle (whether it has one solution, several or none).
let analysis = { text: "no puzzle yet", kind: "", status: null };
export let solved = false;

export function verdict(text, kind, status = null) {
  analysis = { text, kind, status };
  showVerdict();
}

// Whether the player's drawing is a solution, as the server's checker last said (player.js).
export function setSolved(value) { solved = value; }

export function showVerdict() {
  const line = $("verdict");
  line.textContent = solved ? "solved" : analysis.text;
  line.className = solved ? "solved" : analysis.kind;
}
