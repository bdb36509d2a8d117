// The parts of an opened note the page acts on: its images, block
// references and tags, the section and lines of a hit it marks, and its
// headings' own links. Loaded before app.js, whose globals it uses once
// the page runs.
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

// unfold opens the folded callouts (<details>) that hold node, or are it,
// so what a link points at shows.
function unfold(node) {
  for (let d = node.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
}

// showBlock marks the block a block reference ([[Note#^id]], the
// address's block=id) points at, in the note root shows, and scrolls to
// it; false when the note has no such block.
function showBlock(root, params) {
  const id = params.get("block");
  const node = id && root.querySelector("#" + CSS.escape("^" + id));
  if (!node) return false;
  node.classList.add("block-target");
  unfold(node);
  node.scrollIntoView({ block: "start" });
  return true;
}

// A tag in a note searches the notes with that tag for the words in the
// search box, or lists them when it is empty.
document.getElementById("reader-content").addEventListener("click", (e) => {
  const a = e.target.closest("a.tag");
  if (!a) return;
  e.preventDefault();
  el.tag.value = new URLSearchParams(a.getAttribute("href").split("?")[1] || "").get("tag") || "";
  location.hash = searchHash();
});

// markSection marks a heading and frames the blocks under it, up to the
// next heading of the same or a higher level. A top-level heading's
// section is most of the note, so only the heading is marked.
function markSection(heading) {
  if (!heading || heading.parentNode !== el.content) return;
  heading.classList.add("target");
  const level = Number(heading.tagName[1]);
  if (level < 2) return;
  const frame = document.createElement("div");
  frame.className = "section-frame";
  heading.before(frame);
  for (let n = heading; n; ) {
    const next = n.nextElementSibling;
    frame.append(n);
    if (next && /^H[1-6]$/.test(next.tagName) && Number(next.tagName[1]) <= level) break;
    n = next;
  }
}

// markLines marks the top-level blocks that overlap the lines "from-to"
// (a hit may start inside a paragraph), and the query's words inside them;
// it returns the marked blocks.
function markLines(range, query) {
  const m = /^(\d+)-(\d+)$/.exec(range || "");
  if (!m) return [];
  const from = Number(m[1]), to = Number(m[2]);
  const lined = [...el.content.children].filter((n) => n.dataset.line);
  const blocks = lined.filter((n, i) => {
    const start = Number(n.dataset.line);
    const end = i + 1 < lined.length ? Number(lined[i + 1].dataset.line) - 1 : Infinity;
    return start <= to && end >= from && !/^H[1-6]$/.test(n.tagName);
  });
  for (const b of blocks) {
    b.classList.add("hit");
    markWords(b, query);
    // A folded callout that holds the hit opens: shut, it hides it.
    for (const d of [b, ...b.querySelectorAll("details")]) {
      if (d.tagName === "DETAILS" && (!queryTerms(query) || d.querySelector("mark"))) d.open = true;
    }
  }
  return blocks;
}

// markWords wraps the query's words in <mark> inside node's text nodes.
function markWords(node, query) {
  if (!queryTerms(query)) return;
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  const texts = [];
  while (walker.nextNode()) texts.push(walker.currentNode);
  for (const t of texts) {
    if (!matchRanges(t.data, query).length) continue;
    const frag = document.createDocumentFragment();
    highlight(frag, t.data, query);
    t.replaceWith(frag);
  }
}

// addAnchors gives each heading a link to itself, for copying.
function addAnchors(params) {
  for (const h of el.content.querySelectorAll("h1[id], h2[id], h3[id], h4[id], h5[id], h6[id]")) {
    const p = new URLSearchParams(params);
    p.delete("lines");
    p.delete("q");
    p.delete("heading");
    p.delete("section");
    p.set("id", h.id);
    const a = document.createElement("a");
    a.className = "anchor";
    a.href = "#/note?" + p.toString();
    a.textContent = "#";
    a.setAttribute("aria-label", "Link to this section");
    h.append(a);
  }
}
