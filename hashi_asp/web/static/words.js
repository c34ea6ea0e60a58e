// What the page says: the verdict on top (solved, or the live analysis's verdict on the
// puzzle) and the message under the board.

import { $ } from "./board.js";

// A message under the board, with what it depends on: `holds`, if given, is asked after each
// change, and the message goes once it no longer holds ("Your first mistake: ..." once that
// bridge is undone).  "Show my first mistake" is offered beside it only when asked (offer).
let holds = null;

export function say(text, stillHolds = null) {
  $("message").textContent = text;
  $("offer-mistake").hidden = true;
  holds = stillHolds;
}

export function offer(text) {
  say(text);
  $("offer-mistake").hidden = false;
}

// After a change: the message goes if what it said no longer holds.
export function reconsider() {
  if (holds && !holds()) say("");
}

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

// What a screen reader hears as the selection moves on the board (a live region of its own).
export function announce(text) { $("announce").textContent = text; }
