// The Obsidian parts of an opened note the page acts on: its images,
// block references and tags. Loaded before app.js, whose globals it uses
// once the page runs.
"use strict";

// fillNote puts a note the server rendered into root. Its images are the
// vault's, served by the API: where the server needs a token, which an
// <img> cannot send, they are fetched with it and shown from blob:
// addresses; the HTML is parsed inert first, so none is asked for
// without it.
function fillNote(root, html) {
  const token = sessionStorage.getItem("mdsearch-token");
  if (!token) {
    root.innerHTML = html;
    return;
  }
  const tpl = document.createElement("template");
  tpl.innerHTML = html;
  const images = [...tpl.content.querySelectorAll("img.attachment[src^='/api/']")];
  for (const img of images) {
    img.dataset.src = img.getAttribute("src");
    img.removeAttribute("src");
  }
  root.replaceChildren(tpl.content);
  for (const img of images) loadImage(img, token);
}

// loadImage shows an attachment fetched with the token.
async function loadImage(img, token) {
  try {
    const res = await fetch(img.dataset.src, { headers: { Authorization: "Bearer " + token } });
    if (!res.ok) throw new Error(res.statusText);
    img.addEventListener("load", () => URL.revokeObjectURL(img.src), { once: true });
    img.src = URL.createObjectURL(await res.blob());
  } catch {
    img.alt += " (not loaded)";
  }
}

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
