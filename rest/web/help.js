// What the page says besides results: the status line and the links it
// offers; on the start page, what it searches and how; when the server
// does not answer or a note is gone, what happened and what to do. Loaded
// before app.js, whose globals it uses once the page runs.
"use strict";

// setStatus shows msg in the status line; retry adds a link that asks
// the server again (the collections too, if they never came).
function setStatus(msg, isError = false, retry = false) {
  el.status.textContent = msg;
  el.status.classList.toggle("error", isError);
  if (!retry) return;
  el.status.append(" ", statusLink("retry", "Try again", () => {
    setStatus("");
    if (indexed === null) loadCollections();
    route();
  }));
}

// statusLink is a link of the status line that calls act when followed.
function statusLink(id, text, act) {
  const link = document.createElement("a");
  link.id = id;
  link.href = "#";
  link.textContent = text;
  link.addEventListener("click", (e) => {
    e.preventDefault();
    act();
  });
  return link;
}

// offerSuggestion turns what the notice offers ("did you mean "…"?": the
// query respelled, or for a long query its words, "a" → "b") into a link
// that searches for the suggestion.
function offerSuggestion(suggestion) {
  const text = el.status.textContent;
  let quoted = JSON.stringify(suggestion);
  let label = suggestion;
  const at = text.indexOf("did you mean ");
  if (at < 0) return;
  const start = at + "did you mean ".length;
  if (!text.startsWith(quoted, start)) {
    const end = text.indexOf("?", start);
    if (end < 0) return;
    quoted = label = text.slice(start, end);
  }
  const link = statusLink("suggestion", label, () => {
    el.q.value = suggestion;
    asTyped = false;
    searchNow(true);
  });
  el.status.replaceChildren(text.slice(0, start), link, text.slice(start + quoted.length));
}

// offerAsTyped turns what the notice of a search shown respelled says
// ("as_typed searches for the query as typed") into a link that searches
// for the query as typed.
function offerAsTyped() {
  const text = el.status.textContent;
  const hint = "as_typed searches for the query as typed";
  const at = text.indexOf(hint);
  if (at < 0) return;
  const link = statusLink("as-typed", "search for the query as typed", () => {
    asTyped = true;
    searchNow(true);
  });
  el.status.replaceChildren(text.slice(0, at), link, text.slice(at + hint.length));
}

// notAnswering is what a request that got no answer at all says: the
// browser's own words ("Failed to fetch") name no cause.
const notAnswering = "The mdsearch server is not answering: check that `mdsearch serve` is still running, then try again.";

let indexed = null; // the status's collections, once loaded
let scoresKind = "probability"; // what scores are here (status's scores)

// scoreSentences read a result's percentage by what scores are here, as
// the MCP tool's description does.
const scoreSentences = {
  "probability": "A result's percentage is the chance that its passage answers the question: " +
    "50% or more is a likely answer, 20–50% worth reading, under 20% probably not in your notes.",
  "first-stage": "A result's percentage orders one search's results (with this embedding model it is no chance of an answer): compare it within a search.",
  "reranker": "A result's percentage is the reranker's relevance, not a chance of an answer: compare it within a search.",
};

// showIntro says, while the search box is empty, what is indexed, what to
// type, and what a result's percentage means; a query hides it.
function showIntro() {
  const show = !el.q.value.trim() && !tagValue() && el.reader.hidden && indexed !== null;
  el.intro.hidden = !show;
  if (!show || el.intro.childElementCount) return;
  const notes = indexed.reduce((n, c) => n + c.files, 0);
  const what = indexed.length === 0 ? "Nothing is indexed yet: run `mdsearch index FOLDER`, then reload." :
    indexed.length === 1 ? "Searching " + count(notes, "note", "notes") + " in " + indexed[0].name + "." :
      "Searching " + count(notes, "note", "notes") + " in " + indexed.length + " collections: " +
      indexed.map((c) => c.name + " (" + c.files + ")").join(", ") + ".";
  const lines = [what,
    "Type words or a question; \"a phrase\" in quotes must match and -word must not; tag:name and path:text narrow it to some notes, and alone list them.",
    scoreSentences[scoresKind] || scoreSentences.probability];
  el.intro.replaceChildren(...lines.map((t) => {
    const p = document.createElement("p");
    p.textContent = t;
    return p;
  }));
}

// showGone says that a note opened from a result or a link is no longer
// where the index saw it, and offers to search again: for the query it was
// found by, else its name. The engine's words stay as a detail.
function showGone(r, params, message) {
  const name = r.path.split("/").pop().replace(/\.md$/i, "");
  const q = params.get("q") || name;
  const p = new URLSearchParams({ q });
  if (r.collection) p.set("collection", r.collection);
  const again = document.createElement("a");
  again.id = "search-again";
  again.href = "#/search?" + p.toString();
  again.textContent = "Search again for “" + q + "”";
  const detail = span("detail", message);
  el.notice.replaceChildren("This note is no longer at " + r.path +
    ": it was deleted or moved since it was indexed. ", again, document.createElement("br"), detail);
  el.notice.hidden = false;
}
