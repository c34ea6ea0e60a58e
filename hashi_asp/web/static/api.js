// The server: POST /api/<command> of `hashi-asp serve` (the command line's --format json
// documents), and the forms of the puzzle and of the player's state that its commands read.

import { state, cellOf, pairOf } from "./board.js";

// ---------------------------------------------------------------------------- the API

// This page's name for the server, which shares its threads fairly between the programs that
// ask (all of them come from 127.0.0.1): random, new with each page load.
const CLIENT = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");

// POST /api/<command>; resolves to the document, or rejects with the server's message.  A
// document can come with an error status too (the command line's exit code, as HTTP: 422 for
// a question without an answer, 503 for what a stopping server had found); an error has none.
export async function api(command, body, signal) {
  const response = await fetch(`/api/${command}`, {
    method: "POST", headers: { "Content-Type": "application/json", "Hashi-Client": CLIENT },
    body: JSON.stringify(body), signal,
  });
  let doc;
  try { doc = await response.json(); } catch { throw new Error(`${command}: HTTP ${response.status}`); }
  if (!response.ok && (doc.error !== undefined || doc.status === undefined)) {
    throw new Error(doc.error ? readable(doc.error) : `${command}: HTTP ${response.status}`);
  }
  return doc;
}

// The server's message as the page says it: the text sent is named for what it is ("<text>"
// is the command line's name for a puzzle given as text, "given" for the player's state).
const SOURCES = { "<text>": "the puzzle", given: "your bridges and marks" };

export function readable(message) {
  const found = /^(<text>|given)(?::(\d+):(\d+))?:\s*/.exec(message);
  if (!found) return message;
  const where = found[2] ? ` (line ${found[2]}, column ${found[3]})` : "";
  return `${SOURCES[found[1]]}${where}: ${message.slice(found[0].length)}`;
}

// ---------------------------------------------------------------------------- the forms sent

export const listPairs = (k) => pairOf(k).flat();
export const byPlacing = (a, b) => (state.placed.get(a) ?? 0) - (state.placed.get(b) ?? 0);

// The player's state as `hint` and `steps` read it (`--given`): each list in the order the player
// drew or marked its pairs, so that the first mistake named is the first one made.  Empty lists
// are left out (every key is optional).
export function given() {
  const form = {};
  if (state.bridges.size) {
    form.bridges = [...state.bridges.keys()].sort(byPlacing).map((k) => [...listPairs(k), state.bridges.get(k)]);
  }
  if (state.ruledOut.size) form.ruled_out = [...state.ruledOut].sort(byPlacing).map(listPairs);
  if (state.narrowed.size) {
    form.narrowed = [...state.narrowed].sort().map(([k, counts]) => [...listPairs(k), counts]);
  }
  return form;
}

// The player's drawing as a solution, for `check` and the pictures.
export function drawing() {
  return { bridges: [...state.bridges].sort().map(([k, n]) => [...listPairs(k), n]) };
}

// The puzzle as the API reads it: the JSON notation.
export function puzzleDocument() {
  const doc = {
    rows: state.rows, cols: state.cols,
    islands: [...state.islands].map(([k, n]) => [...cellOf(k), n]),
  };
  if (state.rules.maxBridges !== 2) doc.max_bridges = state.rules.maxBridges;
  if (state.rules.noLoops) doc.no_loops = true;
  return doc;
}

export function puzzleText() { return JSON.stringify(puzzleDocument()); }
