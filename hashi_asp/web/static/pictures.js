// Puzzles from pictures: a picture dropped on the page, pasted from the clipboard, opened as a
// file or taken by a phone's camera is sent to the API (as a data URL in "puzzle", which every
// command reads like a file), and the puzzle read opens as any loaded one.  What the reader was
// least sure of is said, and its suspects (the islands probably misread, with the number each
// probably is) are marked on the board for the player to confirm or dismiss.
"use strict";

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
    showReading(doc.puzzle.read, file.name);
    return true;
  } catch (error) {
    verdict("error", "error");
    say(error.name === "InvalidStateError" || error.name === "EncodingError"
      ? `${file.name || "the picture"}: not a picture this browser can open` : error.message);
    return false;
  }
}

// ---------------------------------------------------------------------------- what was read

const an = (n) => (n === 8 || n === 11 || n === 18 ? `an ${n}` : `a ${n}`);

// A suspect as the command line says it: "probably a 3, not an 8, at (4, 6)".
function suspectWords([r, c, read, suggested]) {
  const where = cellName([r, c]);
  if (read === null) return `probably ${an(suggested)} at ${where}, not read`;
  if (suggested === null) return `probably no island, not ${an(read)}, at ${where}`;
  return `probably ${an(suggested)}, not ${an(read)}, at ${where}`;
}

function showReading(read, name) {
  state.suspects = new Map();
  const panel = $("reading");
  if (!read) { panel.hidden = true; return; }
  const islands = read.islands || [];
  const least = islands.reduce((low, entry) => (low && low[3] <= entry[3] ? low : entry), null);
  const sure = least && least[3] < 0.98
    ? `; least sure: ${least[2] === null ? "an island" : `the ${least[2]}`} at ${cellName(least)} (${Math.round(100 * least[3])} %)`
    : "";
  $("reading-summary").textContent = `Read ${islands.length} islands from ${name ? `"${name}"` : "the picture"}${sure}.`;
  for (const suspect of read.suspects || []) state.suspects.set(key(suspect[0], suspect[1]), suspect);
  panel.hidden = false;
  showSuspects();
  draw();
}

// The list of suspects still open, each with its buttons; the board marks the same islands.
function showSuspects() {
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
    dismiss.addEventListener("click", () => { state.suspects.delete(k); showSuspects(); draw(); });
    item.append(words, " ", confirm, " ", dismiss);
    list.append(item);
  }
  const open = state.suspects.size;
  $("suspects-heading").textContent = open
    ? `Probably misread (the puzzle read is not uniquely solvable; these ${open === 1 ? "change makes" : `${open} changes make`} it so):`
    : "";
  $("confirm-all").hidden = open < 2;
}

// The suspects of `cells` taken as right: each island gets the number it probably is (or goes),
// in one change of the puzzle, which undo takes back.
function confirmSuspects(cells) {
  const chosen = cells.map((k) => state.suspects.get(k)).filter(Boolean);
  if (!chosen.length) return;
  for (const k of cells) state.suspects.delete(k);
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

function forgetReading() {
  state.suspects = new Map();
  $("reading").hidden = true;
  $("suspects").replaceChildren();
}

// ---------------------------------------------------------------------------- where pictures come from

function firstPicture(files) {
  return [...(files || [])].find((file) => file.type.startsWith("image/"));
}

function pictureInputs() {
  for (const id of ["picture", "camera"]) {
    on(id, "change", async (event) => {
      const file = event.target.files[0];
      event.target.value = "";
      if (file) await loadPicture(file);
    });
  }
  on("confirm-all", "click", () => confirmSuspects([...state.suspects.keys()]));
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
