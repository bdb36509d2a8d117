// mdsearch search page: the places in other notes that link to the note
// shown (the outline endpoint's linked_from), listed under it, each a link
// to that note at its line.
"use strict";

// showLinkedFrom lists under note r the places that link to it; nothing
// when none does, or the reader moved on (seq) before they came.
async function showLinkedFrom(r, seq) {
  const box = document.getElementById("linked-from");
  box.hidden = true;
  box.replaceChildren();
  let o;
  try {
    o = await api("/api/v1/outline/" + notePath(r));
  } catch (e) {
    return; // the note is shown; its links are an extra
  }
  const links = o.linked_from || [];
  if (seq !== readerSeq || links.length === 0) return;
  const notes = new Set(links.map((l) => l.path)).size;
  const head = document.createElement("h2");
  head.textContent = "Linked from " + count(links.length, "place", "places") + " in " + count(notes, "note", "notes") +
    (o.linked_from_more ? ", and from " + count(o.linked_from_more, "more note", "more notes") : "");
  const list = document.createElement("ul");
  for (const l of links) {
    const p = new URLSearchParams({ path: l.path, lines: l.line + "-" + l.line });
    if (o.collection) p.set("collection", o.collection);
    const a = document.createElement("a");
    a.href = "#/note?" + p.toString();
    a.textContent = l.path + (l.section ? " › " + l.section : " › properties");
    const li = document.createElement("li");
    li.append(a, span("linked-text", l.text));
    list.append(li);
  }
  box.append(head, list);
  box.hidden = false;
}
