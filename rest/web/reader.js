// mdsearch search page: the reader. A whole note rendered by the server,
// scrolled to the place a result or a link named (app.js routes to it).
"use strict";

let readerSeq = 0; // drops notes that arrive after another was asked for

// showReader shows a whole note rendered, scrolled to its target: the
// heading named by id or heading, else the section holding the lines of a
// search hit, whose blocks are marked.
async function showReader(params) {
  settled = true; // back from it, a new search keeps the one it came from
  const r = { path: params.get("path") || "", collection: params.get("collection") || "" };
  const seq = ++readerSeq;
  el.results.hidden = true;
  el.intro.hidden = true;
  el.reader.hidden = false;
  // Keys now belong to the note: "/" returns to the search, not into it.
  if (el.form.contains(document.activeElement)) document.activeElement.blur();
  el.title.textContent = r.path;
  el.meta.textContent = "Loading…";
  el.why.hidden = true;
  el.notice.hidden = true;
  el.notice.replaceChildren();
  el.content.replaceChildren();
  setStatus("");
  try {
    // The text as the file has it: the renderer hides comments as
    // Obsidian's reading view does, with no notice of them.
    const note = await api("/api/v1/notes/" + notePath(r) + "?render=html&full=true&comments=true");
    if (seq !== readerSeq) return;
    el.title.replaceChildren(span("path", note.path));
    if (note.title && note.title !== note.path) el.title.append(span("sep", " · "), span("crumb", note.title));
    el.meta.textContent = count(note.word_count, "word", "words") + " · " + count(note.end_line, "line", "lines") +
      (note.collection ? " · " + note.collection : "");
    // Server-rendered by goldmark with raw HTML omitted and unsafe links
    // dropped; the page's CSP forbids inline scripts besides.
    showWhy(params);
    // The read's own notice: the index behind the file, say, as read warns.
    if (note.notice) showNotice(note.notice);
    fillNote(el.content, note.html);
    showLinkedFrom(r, seq);
    addAnchors(params);
    if (showBlock(el.content, params)) {
      el.back.focus({ preventScroll: true });
      return;
    }
    const target = findTarget(note.headings || [], params);
    if (params.get("block")) {
      showNotice('no block "^' + params.get("block") + '" in this note');
    } else if (target.missed) {
      showNotice('no heading "' + target.missed + '" in this note');
    }
    const hits = markLines(params.get("lines"), params.get("q"));
    markSection(target.heading);
    scrollToTarget(target.heading, hits[0]);
    if (target.heading && params.get("id") !== target.heading.id) {
      params.set("id", target.heading.id);
      history.replaceState(null, "", "#/note?" + params.toString());
    }
    el.back.focus({ preventScroll: true });
  } catch (e) {
    if (seq !== readerSeq) return;
    el.meta.textContent = "";
    if (e.status === 404) {
      showGone(r, params, e.message);
    } else {
      setStatus(e.message, true, e.status === 0);
    }
  }
}


// showWhy says, above a note opened from a result on screen, why that
// result ranked as it did: the score's tooltip is out of reach of a
// keyboard or a finger, the note is not.
function showWhy(params) {
  const r = results.find((x) => x.path === params.get("path") &&
    (x.collection || "") === (params.get("collection") || "") &&
    x.start_line + "-" + x.end_line === params.get("lines"));
  if (!r || !r.why) return;
  el.why.querySelector("summary").textContent = "Why this result scored " + (r.score * 100).toFixed(1) + "%";
  el.why.querySelector("pre").textContent = whyText(r.why);
  el.why.hidden = false;
}

// scrollToTarget brings the hit on screen, with its section's heading
// when both fit or the heading is just above the hit's start.
function scrollToTarget(heading, hit) {
  let at = hit || heading;
  const top = heading && heading.getBoundingClientRect().top;
  if (heading && hit && (hit.getBoundingClientRect().bottom - top < innerHeight * 0.7 ||
    hit.getBoundingClientRect().top - top < innerHeight * 0.2)) {
    at = heading;
  }
  if (at) {
    at.scrollIntoView({ block: "start" });
  } else {
    window.scrollTo(0, 0);
  }
}

// findTarget picks the heading a note link points at: by id, by heading
// text (wikilinks, older links' section path) or by the heading's id (a
// markdown link's "Other.md#setup-guide"), or as the last heading at or
// above the first line of a hit.
function findTarget(headings, params) {
  let h = null;
  const id = params.get("id");
  const anchor = (params.get("heading") || "").toLowerCase();
  const text = (anchor || (params.get("section") || "").split("/").pop() || "").toLowerCase();
  const lines = /^(\d+)-(\d+)$/.exec(params.get("lines") || "");
  if (id) h = headings.find((x) => x.id === id);
  // A section's heading before one inside a quote or list, as read picks.
  const byText = (same) => headings.find((x) => !x.nested && same(x)) || headings.find(same);
  if (!h && text) h = byText((x) => x.text.toLowerCase() === text);
  if (!h && anchor) h = headings.find((x) => x.id.toLowerCase() === anchor);
  // As read finds it: the heading's words, its punctuation and markup
  // aside ([[Note#How large can it be]] of "How large can it be?").
  if (!h && text) h = byText((x) => headingWords(x.text) === headingWords(text));
  // missed: the heading the link names, when the note has none such.
  const missed = h ? "" : params.get("heading") || (params.get("section") || "").split("/").pop() || id || "";
  if (!h && lines) h = headings.filter((x) => x.line <= Number(lines[1])).pop();
  const node = h && el.content.querySelector("#" + CSS.escape(h.id));
  return { heading: node || null, missed };
}

// headingWords is a heading's words, lower case, one space apart.
function headingWords(text) {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) || []).join(" ");
}

// showNotice says something above the note: that the place a link named is
// not in it (the note opens at its top, which would otherwise look like
// success), or the read's notice; each on a line of its own.
function showNotice(text) {
  if (el.notice.hidden) el.notice.replaceChildren();
  else el.notice.append(document.createElement("br"));
  el.notice.append(text);
  el.notice.hidden = false;
}
