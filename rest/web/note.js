// The Obsidian parts of an opened note the page acts on: block
// references. Loaded before app.js.
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
