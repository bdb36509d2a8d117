// The Obsidian parts of an opened note the page acts on: block
// references and tags. Loaded before app.js, whose globals it uses once
// the page runs.
"use strict";

// showBlock marks the block a block reference ([[Note#^id]], the
// address's block=id) points at, in the note root shows, and scrolls to
// it; false when the note has no such block.
function showBlock(root, params) {
  const id = params.get("block");
  const node = id && root.querySelector("#" + CSS.escape("^" + id));
  if (!node) return false;
  node.classList.add("block-target");
  node.scrollIntoView({ block: "start" });
  return true;
}

// A tag in a note searches the notes with that tag for the words in the
// search box (a tag alone is no search: the status asks for words).
document.getElementById("reader-content").addEventListener("click", (e) => {
  const a = e.target.closest("a.tag");
  if (!a) return;
  e.preventDefault();
  el.tag.value = new URLSearchParams(a.getAttribute("href").split("?")[1] || "").get("tag") || "";
  location.hash = searchHash();
});
