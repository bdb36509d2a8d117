// mdsearch search page. Result text reaches the page through textContent
// and text nodes only, so "<script>" in a note shows as text. The one
// innerHTML is a note rendered by the server (notehtml.HTML: raw HTML
// omitted, unsafe links dropped; fillNote in note.js), under a CSP that
// runs no inline script.
"use strict";

const $ = (id) => document.getElementById(id);
const el = {
  form: $("search-form"), q: $("q"), collection: $("collection"), tag: $("tag"), mode: $("mode"),
  status: $("status"), results: $("results"), reader: $("reader"),
  title: $("reader-title"), meta: $("reader-meta"), why: $("reader-why"), content: $("reader-content"),
  notice: $("reader-notice"), intro: $("intro"),
  back: $("back"), tokenForm: $("token-form"), token: $("token"),
};

let results = [];   // the results on screen
let selected = -1;  // index of the highlighted result
let searchSeq = 0;  // drops answers to superseded searches
let shownKey = "";  // the search (as a hash) whose results are on screen
let shownResp = null; // its answer, for the status line (showSearchStatus)
let shownParams = null; // the request that gave it, for the next page of a list (list.js)
let typingTimer = 0;
let typing = false; // the user has typed since the last search ran
let asTyped = false; // search the query as typed, not respelled; typing ends it
let cameFromResults = false;

// ---- API -------------------------------------------------------------------

class APIError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

async function api(path, accept = "application/json") {
  const headers = { Accept: accept };
  const token = sessionStorage.getItem("mdsearch-token");
  if (token) headers.Authorization = "Bearer " + token;
  let res;
  try {
    res = await fetch(path, { headers });
  } catch {
    throw new APIError(0, notAnswering);
  }
  if (res.status === 401) {
    el.tokenForm.hidden = false;
    el.token.focus();
  }
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new APIError(res.status, (body && body.error) || res.statusText);
  return body;
}

// notePath encodes "collection:path" segment by segment for /api/v1/notes/.
// A path with a dot segment goes as one segment: the browser would
// resolve "..", even encoded, and the API should see (and refuse) a path
// that climbs out of the vault.
function notePath(r) {
  const p = r.collection ? r.collection + ":" + r.path : r.path;
  const segs = p.split("/");
  return segs.map(encodeURIComponent).join(segs.some((s) => /^\.+$/.test(s)) ? "%2F" : "/");
}

// ---- routing: the hash holds the view, so Back and reload work --------------

function currentRoute() {
  const h = location.hash.replace(/^#\/?/, "");
  const i = h.indexOf("?"); // only the first: a query may hold a "?" of its own
  const view = i < 0 ? h : h.slice(0, i);
  return { view: view || "search", params: new URLSearchParams(i < 0 ? "" : h.slice(i + 1)) };
}

// tagValue is the tag box without its '#': a lone '#' is no tag.
function tagValue() {
  return el.tag.value.trim().replace(/^#/, "").trim();
}

function searchHash() {
  const p = new URLSearchParams();
  if (el.q.value.trim()) p.set("q", el.q.value.trim());
  if (el.collection.value) p.set("collection", el.collection.value);
  if (tagValue()) p.set("tag", tagValue());
  if (el.mode.value) p.set("mode", el.mode.value);
  if (asTyped) p.set("as_typed", "true");
  if (listSort(el.q.value.trim())) p.set("sort", listOrder);
  return "#/search?" + p.toString();
}

function route() {
  const { view, params } = currentRoute();
  if (view === "note") {
    showReader(params);
    return;
  }
  // What the user is typing wins over a route that arrives meanwhile
  // (back from a note, say): the search it starts will update the address.
  if (!typing) {
    el.q.value = params.get("q") || "";
    el.tag.value = params.get("tag") || "";
  }
  el.mode.value = params.get("mode") || "";
  if (!typing) asTyped = params.get("as_typed") === "true";
  // A search's address holds no order: it keeps the one lists had.
  const q = params.get("q") || "";
  if (lists(q)) listOrder = params.get("sort") === "modified" ? "modified" : "";
  setCollection(params.get("collection") || "");
  showResults();
  if (!el.form.contains(document.activeElement)) el.q.focus();
  if (shownKey && searchHash() === shownKey) {
    select(selected, true); // back from a note: keep the list and the choice
    showSearchStatus();
    return;
  }
  runSearch();
}

// ---- search ----------------------------------------------------------------

async function runSearch() {
  const q = el.q.value.trim();
  const key = searchHash();
  const seq = ++searchSeq;
  if (!q && !tagValue()) {
    results = [];
    shownKey = "";
    shownResp = null;
    renderResults();
    setStatus("");
    showIntro();
    return;
  }
  // explain: each score's tooltip, and the note opened from it, say what
  // it rests on (whyText). A tag without words lists its notes.
  const p = new URLSearchParams({ q, n: lists(q) ? "50" : "10", explain: "true" });
  if (el.collection.value) p.set("collection", el.collection.value);
  if (tagValue()) p.set("tag", tagValue());
  if (el.mode.value) p.set("mode", el.mode.value);
  if (asTyped) p.set("as_typed", "true");
  if (listSort(q)) p.set("sort", listOrder);
  setStatus("Searching…");
  showIntro();
  try {
    let resp;
    try {
      resp = await api("/api/v1/semantic-search?" + p.toString());
    } catch (e) {
      // Operators the engine reads as words ([nosuch:x]) make a search,
      // which refuses an order: ask again without it.
      if (e.status !== 400 || !p.has("sort") || !/^sort is .*the request has words/.test(e.message)) throw e;
      p.delete("sort");
      resp = await api("/api/v1/semantic-search?" + p.toString());
    }
    if (seq !== searchSeq) return;
    results = resp.results;
    shownKey = key;
    shownResp = resp;
    shownParams = p;
    renderResults(searchedQuery(), resp.listing);
    showSearchStatus();
  } catch (e) {
    if (seq !== searchSeq) return;
    results = [];
    shownKey = "";
    shownResp = null;
    renderResults();
    setStatus(e.message, true, e.status === 0);
  }
}

// showSearchStatus says what the search on screen found (shownResp): how
// many, in which mode, its notice and its suggestion; again when the list
// comes back from a note.
function showSearchStatus() {
  const resp = shownResp;
  if (!resp) return;
  const ms = Math.round(resp.took_ms) + " ms";
  if (resp.listing && resp.notice) { // it counts the notes and says how they are listed
    setStatus(listLead(resp) + resp.notice + " · " + ms);
  } else {
    setStatus(count(resp.total, "result", "results") + " · " + resp.mode + " · " + ms + (resp.notice ? " · " + resp.notice : ""));
  }
  if (resp.respelled) offerAsTyped();
  else if (resp.suggestion) offerSuggestion(resp.suggestion);
}

// untitled names a heading with no text ("#") as result headers do.
function untitled(h) {
  return h || "(untitled)";
}

// renderResults shows results, or a list of notes (listing: no scores).
function renderResults(query, listing) {
  el.results.replaceChildren();
  results.forEach((r, i) => {
    const li = document.createElement("li");
    li.className = "result";
    li.id = "result-" + i;
    li.setAttribute("role", "option");
    li.tabIndex = -1;

    const head = document.createElement("div");
    head.className = "head";
    const link = document.createElement("a");
    link.className = "path";
    link.href = resultHref(r);
    link.tabIndex = -1;
    link.textContent = r.path;
    head.append(link);
    const path = r.section_path || [];
    path.slice(0, -1).forEach((h) => head.append(span("sep", " › "), span("crumb", untitled(h))));
    if (path.length) head.append(span("sep", " › "), span("section", untitled(r.section)));
    // A passage with stub sections merged in names the others too.
    (r.sections || []).slice(1).forEach((p) => head.append(span("sep", " + "), span("also", untitled(p[p.length - 1]))));
    if (!listing) {
      const score = span("score", (r.score * 100).toFixed(1) + "%");
      if (r.why) score.title = whyText(r.why);
      head.append(score);
    }
    if (r.stale) head.append(span("stale", "changed or deleted since indexed"));

    // The passage's text (the heading line above names its place), soft
    // line breaks joined, at the part that answers the query best.
    const text = excerpt(plainMarkdown(joinSoftBreaks(r.text)), query);

    const meta = document.createElement("div");
    meta.className = "meta";
    meta.textContent = (r.start_line === r.end_line ? "line " + r.start_line : "lines " + r.start_line + "–" + r.end_line) +
      (r.section_end ? " · section continues to line " + r.section_end : "") + " · " + placeText(r) +
      " · page " + count(r.page_word_count, "word", "words") + (r.collection ? " · " + r.collection : "") +
      (r.modified ? " · changed " + r.modified.slice(0, 16).replace("T", " ") + " UTC" : "");

    li.append(head, text, meta);
    li.addEventListener("click", (e) => {
      if (e.target.closest("a") && (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0)) return;
      e.preventDefault();
      openResult(i);
    });
    el.results.append(li);
  });
  el.q.setAttribute("aria-expanded", String(results.length > 0));
  fitMarks(el.results);
  offerWhole(el.results);
  select(results.length ? 0 : -1, false);
  offerMore();
  offerOrder();
}

// resultHref is the page's address of a result: its note, opened at the
// lines of the hit (app.js finds the section that holds them).
function resultHref(r) {
  const p = new URLSearchParams({ path: r.path });
  if (r.collection) p.set("collection", r.collection);
  p.set("lines", r.start_line + "-" + r.end_line);
  const q = searchedQuery();
  if (q) p.set("q", q);
  return "#/note?" + p.toString();
}

// searchedQuery is the query whose words the results on screen hold, as
// cards and notes mark them: the box's, or the respelled one a search
// showed in its place (the box keeps what was typed).
function searchedQuery() {
  const q = el.q.value.trim();
  return shownResp && shownResp.respelled && q === shownResp.query ? shownResp.suggestion : q;
}

// count is "1 word" or "n words", as the CLI writes counts.
function count(n, one, many) {
  return n + " " + (n === 1 ? one : many);
}

function span(cls, text) {
  const s = document.createElement("span");
  s.className = cls;
  s.textContent = text;
  return s;
}

function select(i, scroll = true) {
  const items = el.results.children;
  if (selected >= 0 && items[selected]) items[selected].setAttribute("aria-selected", "false");
  selected = i;
  if (i >= 0 && items[i]) {
    items[i].setAttribute("aria-selected", "true");
    el.q.setAttribute("aria-activedescendant", items[i].id);
    if (scroll) items[i].scrollIntoView({ block: "nearest" });
  } else {
    el.q.removeAttribute("aria-activedescendant");
  }
}

function openResult(i) {
  const r = results[i];
  if (!r) return;
  select(i, false);
  location.hash = resultHref(r);
}

function showResults() {
  el.reader.hidden = true;
  el.results.hidden = false;
  showIntro();
}


function goBack() {
  if (cameFromResults) {
    history.back();
  } else {
    location.hash = searchHash();
  }
}

// ---- filters ---------------------------------------------------------------

let pendingCollection = "";

function setCollection(name) {
  pendingCollection = name;
  if (name && ![...el.collection.options].some((o) => o.value === name)) {
    el.collection.append(new Option(name, name));
  }
  el.collection.value = name;
}

async function loadCollections() {
  try {
    const st = await api("/api/v1/status");
    indexed = st.collections || [];
    scoresKind = st.scores || "probability";
    showIntro();
    for (const c of st.collections || []) {
      if (![...el.collection.options].some((o) => o.value === c.name)) {
        el.collection.append(new Option(c.name + " (" + c.files + ")", c.name));
      }
    }
    el.collection.value = pendingCollection;
  } catch (e) {
    if (e.status !== 401) setStatus(e.message, true, e.status === 0);
  }
}

// trackHeader keeps --header at the sticky header's height (it wraps on a
// narrow screen), so the page's scroll-padding keeps what it scrolls to in
// sight below it.
function trackHeader() {
  const header = document.querySelector("header");
  const set = () => document.documentElement.style.setProperty("--header", header.offsetHeight + "px");
  set();
  new ResizeObserver(set).observe(header);
}

// ---- events ----------------------------------------------------------------

// settled: the search on screen was asked for (Enter, a filter, the
// suggestion) or a note opened from it, so the next search gets a
// history entry of its own and Back returns to this one; searches made
// while typing replace each other.
let settled = false;

function searchNow(settle = false) {
  clearTimeout(typingTimer);
  typing = false;
  const h = searchHash();
  if (location.hash !== h) {
    if (settled && location.hash.startsWith("#/search")) history.pushState(null, "", h);
    else history.replaceState(null, "", h);
  }
  settled = settle;
  showResults();
  runSearch();
}

el.form.addEventListener("submit", (e) => {
  e.preventDefault();
  searchNow(true);
});
// Typing searches after a pause, but not while an input method is still
// composing (pinyin "shujuku" before 数据库 is chosen): its end searches.
for (const [field, pause] of [[el.q, 200], [el.tag, 300]]) {
  field.addEventListener("input", (e) => {
    showIntro();
    if (field === el.q) asTyped = false; // the query typed anew; a tag narrows the same one
    if (e.isComposing) return;
    typing = true;
    clearTimeout(typingTimer);
    typingTimer = setTimeout(searchNow, pause);
  });
  field.addEventListener("compositionend", () => {
    typing = true;
    clearTimeout(typingTimer);
    typingTimer = setTimeout(searchNow, pause);
  });
}
el.collection.addEventListener("change", () => searchNow(true));
el.mode.addEventListener("change", () => searchNow(true));
el.back.addEventListener("click", (e) => {
  e.preventDefault();
  goBack();
});
// In-note links to "#id" scroll within the note; "#/…" routes.
el.content.addEventListener("click", (e) => {
  const a = e.target.closest("a[href^='#']");
  const href = a && a.getAttribute("href");
  if (!href || href.startsWith("#/")) return;
  e.preventDefault();
  let id = href.slice(1);
  try { id = decodeURIComponent(id); } catch { /* keep it as written */ }
  const target = el.content.querySelector("#" + CSS.escape(id));
  if (!target) return;
  unfold(target);
  target.scrollIntoView({ block: "start" });
});
el.tokenForm.addEventListener("submit", (e) => {
  e.preventDefault();
  sessionStorage.setItem("mdsearch-token", el.token.value.trim());
  el.tokenForm.hidden = true;
  loadCollections();
  route();
});

// A wider or narrower window clamps the cards' text at other lines: once
// it settles, each card shows a marked word again.
let resizeTimer = 0;
window.addEventListener("resize", () => {
  offerWhole(el.results);
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    fitMarks(el.results);
    offerWhole(el.results);
  }, 150);
});
window.addEventListener("hashchange", () => {
  cameFromResults = currentRoute().view === "note" && !el.results.hidden;
  route();
});

document.addEventListener("keydown", (e) => {
  // A key an input method takes (Enter choosing a candidate) is its own.
  if (e.isComposing || e.keyCode === 229) return;
  const inField = e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement;
  const reading = !el.reader.hidden;
  if (e.key === "/" && !inField) {
    e.preventDefault();
    if (reading) goBack();
    el.q.focus();
    el.q.select();
    return;
  }
  if (e.key === "Escape") {
    if (reading) {
      e.preventDefault();
      goBack();
    } else if (e.target === el.q && el.q.value) {
      // the browser clears a search field on Esc; keep the results in step
      setTimeout(searchNow, 0);
    } else if (inField) {
      e.target.blur();
    }
    return;
  }
  if (reading || !results.length) return;
  if (e.key === "ArrowDown" || (e.key === "j" && !inField)) {
    e.preventDefault();
    select(Math.min(selected + 1, results.length - 1));
  } else if (e.key === "ArrowUp" || (e.key === "k" && !inField)) {
    e.preventDefault();
    select(Math.max(selected - 1, 0));
  } else if (e.key === "Enter" && selected >= 0 && (e.target === el.q || !inField && !e.target.closest("button, summary"))) {
    // Enter on changed input searches (the form submits); otherwise it opens.
    if (e.target === el.q && searchHash() !== shownKey) return;
    e.preventDefault();
    openResult(selected);
  }
});

// A plain ?q= (a link, a browser's search shortcut) opens that search,
// over whatever search the address's hash held: the link's query is the
// one asked for.
if (new URLSearchParams(location.search).has("q")) {
  history.replaceState(null, "", location.pathname + "#/search?" + location.search.slice(1));
}
// A page the browser brings back from its back-forward cache shows the
// address's search, not what the box held when the page was left.
window.addEventListener("pageshow", (e) => {
  if (!e.persisted) return;
  typing = false;
  clearTimeout(typingTimer);
  route();
});
trackHeader();
loadCollections();
route();
if (currentRoute().view !== "note") el.q.focus();
