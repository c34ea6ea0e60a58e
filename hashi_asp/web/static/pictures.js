// Puzzles from pictures: a picture dropped on the page, pasted from the clipboard, opened as a
// file or taken by a phone's camera is sent to the API (as a data URL in "puzzle", which every
// command reads like a file), and the puzzle read opens as any loaded one.  What the reader was
// least sure of is said, and its suspects (the islands probably misread, with the number each
// probably is) are marked on the board for the player to confirm or dismiss (reading.js).

import { state, $ } from "./board.js";
import { api } from "./api.js";
import { say, verdict } from "./words.js";
import { stopAnalysis } from "./analysis.js";
import { load, openPuzzle } from "./opening.js";
import { confirmSuspects, showReading, takeDrawn } from "./reading.js";

// The request body's limit on the server is 1 000 000 bytes; a picture is sent within it, made
// smaller here when it is not: the reader needs no more than SIDE pixels a side (a 25x25 page
// at that size has cells of 80 pixels), and a photo's JPEG at QUALITY keeps its numbers sharp.
const PICTURE_BYTES = 900_000;  // of the data URL, leaving room for the rest of the request
const SIDE = 2400;
const QUALITY = [0.92, 0.8, 0.65];

// ---------------------------------------------------------------------------- sending

function dataUrl(blob) {
  return new Promise((done, fail) => {
    const reader = new FileReader();
    reader.onload = () => done(reader.result);
    reader.onerror = () => fail(reader.error);
    reader.readAsDataURL(blob);
  });
}

function encoded(canvas, quality) {
  return new Promise((done) => canvas.toBlob(done, "image/jpeg", quality));
}

// The picture as a data URL under PICTURE_BYTES: as it is when it fits (a screenshot's PNG,
// lossless), else drawn again at most SIDE pixels a side, as JPEG, smaller until it fits.
async function pictureUrl(file) {
  const bitmap = await createImageBitmap(file);
  const side = Math.max(bitmap.width, bitmap.height);
  if (side <= SIDE) {
    const url = await dataUrl(file);
    if (url.length <= PICTURE_BYTES) { bitmap.close(); return url; }
  }
  let scale = Math.min(1, SIDE / side);
  for (;;) {
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const context = canvas.getContext("2d");
    context.fillStyle = "#fff";  // a transparent screenshot read as on white
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    for (const quality of QUALITY) {
      const blob = await encoded(canvas, quality);
      const url = blob && await dataUrl(blob);
      if (url && url.length <= PICTURE_BYTES) { bitmap.close(); return url; }
    }
    scale *= 0.75;
  }
}

// Read the puzzle in the picture `file` and open it; false when there is none.
async function loadPicture(file) {
  if (!file.type.startsWith("image/")) { say(`${file.name || "that"} is not a picture`); return false; }
  stopAnalysis();
  verdict("reading the picture…", "busy");
  say("");
  try {
    const url = await pictureUrl(file);
    const doc = await api("convert", { puzzle: url, to: "txt" });
    openPuzzle(doc.puzzle, "play");
    $("source").value = doc.text.trimEnd();
    showReading(doc.puzzle.read, file.name, takeDrawn(doc.puzzle.read));
    return true;
  } catch (error) {
    verdict("error", "error");
    say(error.name === "InvalidStateError" || error.name === "EncodingError"
      ? `${file.name || "the picture"}: not a picture this browser can open` : error.message);
    return false;
  }
}

// ---------------------------------------------------------------------------- where pictures come from

function firstPicture(files) {
  return [...(files || [])].find((file) => file.type.startsWith("image/"));
}

// The inputs and events that hand the page a picture: read, and its puzzle opened.
export function pictureInputs() {
  for (const id of ["picture", "camera"]) {
    $(id).addEventListener("change", async (event) => {
      const file = event.target.files[0];
      event.target.value = "";
      if (file) await loadPicture(file);
    });
  }
  $("confirm-all").addEventListener("click", () => confirmSuspects([...state.suspects.keys()]));
  // A file dropped anywhere on the page: a picture is read, a text file loaded.
  document.addEventListener("dragover", (event) => {
    if ([...event.dataTransfer.types].includes("Files")) { event.preventDefault(); document.body.classList.add("dropping"); }
  });
  document.addEventListener("dragleave", (event) => {
    if (!event.relatedTarget) document.body.classList.remove("dropping");
  });
  document.addEventListener("drop", async (event) => {
    document.body.classList.remove("dropping");
    const files = event.dataTransfer && event.dataTransfer.files;
    if (!files || !files.length) return;
    event.preventDefault();
    const picture = firstPicture(files);
    if (picture) { await loadPicture(picture); return; }
    const notation = files[0].name.toLowerCase().endsWith(".has") ? "has" : undefined;
    load(await files[0].text(), notation);
  });
  // A picture pasted (a screenshot copied to the clipboard); pasted text goes where it went.
  document.addEventListener("paste", async (event) => {
    const picture = firstPicture(event.clipboardData && event.clipboardData.files);
    if (!picture) return;
    event.preventDefault();
    await loadPicture(picture);
  });
}
