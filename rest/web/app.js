// mdsearch search page. Every piece of note text reaches the page through
// textContent or text nodes, never innerHTML, so a heading like
// "<script>" shows as text.
"use strict";

const $ = (id) => document.getElementById(id);
const el = {
  form: $("search-form"), q: $("q"), collection: $("collection"), tag: $("tag"), mode: $("mode"),
  status: $("status"), results: $("results"), reader: $("reader"),
  title: $("reader-title"), meta: $("reader-meta"), content: $("reader-content"),
  back: $("back"), whole: $("whole"), tokenForm: $("token-form"), token: $("token"),
};

let results = [];   // the results on screen
let selected = -1;  // index of the highlighted result
let searchSeq = 0;  // drops answers to superseded searches
let shownKey = "";  // the search (as a hash) whose results are on screen
let typingTimer = 0;
let cameFromResults = false;

// ---- API -------------------------------------------------------------------

class APIError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

async function api(path, accept = "application/json") {
  const headers = { Accept: accept };
  const token = sessionStorage.getItem("mdsearch-token");
  if (token) headers.Authorization = "Bearer " + token;
  const res = await fetch(path, { headers });
  if (res.status === 401) {
    el.tokenForm.hidden = false;
    el.token.focus();
  }
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new APIError(res.status, (body && body.error) || res.statusText);
  return body;
}

// notePath encodes "collection:path" segment by segment for /api/v1/notes/.
function notePath(r) {
  const p = r.collection ? r.collection + ":" + r.path : r.path;
  return p.split("/").map(encodeURIComponent).join("/");
}

// ---- routing: the hash holds the view, so Back and reload work --------------

function currentRoute() {
  const h = location.hash.replace(/^#\/?/, "");
  const [view, query = ""] = h.split("?");
  return { view: view || "search", params: new URLSearchParams(query) };
}

function searchHash() {
  const p = new URLSearchParams();
  if (el.q.value.trim()) p.set("q", el.q.value.trim());
  if (el.collection.value) p.set("collection", el.collection.value);
  if (el.tag.value.trim()) p.set("tag", el.tag.value.trim().replace(/^#/, ""));
  if (el.mode.value) p.set("mode", el.mode.value);
  return "#/search?" + p.toString();
}

function route() {
  const { view, params } = currentRoute();
  if (view === "note") {
    showReader(params);
    return;
  }
  el.q.value = params.get("q") || "";
  el.tag.value = params.get("tag") || "";
  el.mode.value = params.get("mode") || "";
  setCollection(params.get("collection") || "");
  showResults();
  if (!el.form.contains(document.activeElement)) el.q.focus();
  if (shownKey && searchHash() === shownKey) {
    select(selected, true); // back from a note: keep the list and the choice
    return;
  }
  runSearch();
}

// ---- search ----------------------------------------------------------------

async function runSearch() {
  const q = el.q.value.trim();
  const key = searchHash();
  const seq = ++searchSeq;
  if (!q) {
    results = [];
    shownKey = "";
    renderResults();
    setStatus("");
    return;
  }
  const p = new URLSearchParams({ q, n: "10" });
  if (el.collection.value) p.set("collection", el.collection.value);
  if (el.tag.value.trim()) p.set("tag", el.tag.value.trim().replace(/^#/, ""));
  if (el.mode.value) p.set("mode", el.mode.value);
  setStatus("Searching…");
  try {
    const resp = await api("/api/v1/semantic-search?" + p.toString());
    if (seq !== searchSeq) return;
    results = resp.results;
    shownKey = key;
    renderResults(q);
    const summary = resp.total === 1 ? "1 result" : resp.total + " results";
    setStatus(summary + " · " + resp.mode + " · " + Math.round(resp.took_ms) + " ms" +
      (resp.notice ? " · " + resp.notice : ""));
  } catch (e) {
    if (seq !== searchSeq) return;
    results = [];
    shownKey = "";
    renderResults();
    setStatus(e.message, true);
  }
}

function renderResults(query) {
  el.results.replaceChildren();
  results.forEach((r, i) => {
    const li = document.createElement("li");
    li.className = "result";
    li.id = "result-" + i;
    li.setAttribute("role", "option");
    li.tabIndex = -1;

    const head = document.createElement("div");
    head.className = "head";
    head.append(span("path", r.path));
    if (r.section) head.append(span("sep", " › "), span("section", r.section));
    head.append(span("score", (r.score * 100).toFixed(1) + "%"));
    if (r.stale) head.append(span("stale", "changed since indexed"));

    const text = document.createElement("p");
    text.className = "text";
    // The snippet without its [Title > Heading] prefix, soft line breaks joined.
    const chunk = joinSoftBreaks(stripPrefix(r));
    highlight(text, chunk, query);

    const meta = document.createElement("div");
    meta.className = "meta";
    meta.textContent = "chunk " + (r.chunk_index + 1) + "/" + r.total_chunks +
      " · page " + r.page_word_count + " words" + (r.collection ? " · " + r.collection : "");

    li.append(head, text, meta);
    li.addEventListener("click", () => openResult(i));
    el.results.append(li);
  });
  el.q.setAttribute("aria-expanded", String(results.length > 0));
  select(results.length ? 0 : -1, false);
}

// joinSoftBreaks joins the wrapped lines of paragraphs so text reflows,
// keeping the line structure of code, lists, quotes, tables and headings.
function joinSoftBreaks(md) {
  const out = [];
  let fence = null;
  let prose = false; // the last line out is paragraph text
  for (const line of md.split("\n")) {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence || f) {
      if (f && (!fence || f[1][0] === fence[0] && f[1].length >= fence.length)) {
        fence = fence ? null : f[1];
      }
      out.push(line);
      prose = false;
      continue;
    }
    const structural = /^\s*$|^\s*([-*+>|#]|\d+[.)])(\s|$)|^\s*[=-]{2,}\s*$|^ {4}/.test(line);
    if (prose && !structural) {
      out[out.length - 1] += " " + line.trim();
    } else {
      out.push(line);
    }
    prose = !structural;
  }
  return out.join("\n");
}

// stripPrefix drops the "[Title > … > Section] " the engine puts before
// each chunk, which the result's heading line already shows.
function stripPrefix(r) {
  const m = /^\[([^\]\n]*)\] /.exec(r.snippet);
  if (!m) return r.snippet;
  const last = m[1].split(" > ").pop();
  return last === (r.section || r.title) ? r.snippet.slice(m[0].length) : r.snippet;
}

function span(cls, text) {
  const s = document.createElement("span");
  s.className = cls;
  s.textContent = text;
  return s;
}

// highlight appends text to node with the query's words wrapped in <mark>,
// built from text nodes only.
function highlight(node, text, query) {
  const words = (query || "").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2);
  if (!words.length) {
    node.textContent = text;
    return;
  }
  const re = new RegExp("(" + words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|") + ")", "giu");
  text.split(re).forEach((part, i) => {
    if (i % 2 === 1) {
      const m = document.createElement("mark");
      m.textContent = part;
      node.append(m);
    } else if (part) {
      node.append(document.createTextNode(part));
    }
  });
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
  const p = new URLSearchParams({ path: r.path });
  if (r.collection) p.set("collection", r.collection);
  if (r.section_path && r.section_path.length) p.set("section", r.section_path.join("/"));
  location.hash = "#/note?" + p.toString();
}

// ---- reader ----------------------------------------------------------------

async function showReader(params) {
  const r = { path: params.get("path") || "", collection: params.get("collection") || "" };
  const section = params.get("section") || "";
  el.results.hidden = true;
  el.reader.hidden = false;
  el.title.textContent = r.path;
  el.meta.textContent = "Loading…";
  el.content.replaceChildren();
  setStatus("");

  const whole = new URLSearchParams({ path: r.path });
  if (r.collection) whole.set("collection", r.collection);
  el.whole.href = "#/note?" + whole.toString();
  el.whole.hidden = !section;

  try {
    const q = section ? "?section=" + encodeURIComponent(section) : "?full=true";
    const note = await api("/api/v1/notes/" + notePath(r) + q);
    el.title.replaceChildren(span("path", note.path));
    if (note.section_path && note.section_path.length) {
      el.title.append(span("sep", " › "), span("section", note.section_path.join(" › ")));
    }
    el.meta.textContent = "lines " + note.start_line + "–" + note.end_line + " · " + note.word_count + " words" +
      (note.collection ? " · " + note.collection : "");
    renderMarkdown(el.content, note.content);
    el.back.focus();
  } catch (e) {
    el.meta.textContent = "";
    setStatus(e.message, true);
  }
}

// renderMarkdown shows markdown source with light structure: headings,
// fenced code and paragraphs. Text goes in through textContent only.
function renderMarkdown(node, src) {
  node.replaceChildren();
  const hardBreak = /^\s*([-*+]|\d+[.)]|>|\|)\s/; // list items, quotes and tables keep their lines
  let fence = null;
  let para = null;
  let prev = "";
  for (const line of src.split("\n")) {
    if (fence) {
      if (/^\s*(```|~~~)/.test(line)) { fence = null; continue; }
      fence.textContent += line + "\n";
      continue;
    }
    if (/^\s*(```|~~~)/.test(line)) {
      const pre = document.createElement("pre");
      fence = document.createElement("code");
      pre.append(fence);
      node.append(pre);
      para = null;
      continue;
    }
    const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      const hd = document.createElement("h" + Math.min(h[1].length + 1, 6));
      hd.textContent = h[2];
      node.append(hd);
      para = null;
      continue;
    }
    if (!line.trim()) { para = null; continue; }
    if (!para) {
      para = document.createElement("p");
      node.append(para);
      para.append(document.createTextNode(line));
    } else if (hardBreak.test(line) || /(\s{2}|\\)$/.test(prev)) {
      para.append(document.createElement("br"), document.createTextNode(line));
    } else {
      para.append(document.createTextNode(" " + line.trim())); // a soft line break
    }
    prev = line;
  }
}

function showResults() {
  el.reader.hidden = true;
  el.results.hidden = false;
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
    for (const c of st.collections || []) {
      if (![...el.collection.options].some((o) => o.value === c.name)) {
        el.collection.append(new Option(c.name + " (" + c.files + ")", c.name));
      }
    }
    el.collection.value = pendingCollection;
  } catch (e) {
    if (e.status !== 401) setStatus(e.message, true);
  }
}

function setStatus(msg, isError = false) {
  el.status.textContent = msg;
  el.status.classList.toggle("error", isError);
}

// ---- events ----------------------------------------------------------------

function searchNow() {
  clearTimeout(typingTimer);
  const h = searchHash();
  if (location.hash !== h) history.replaceState(null, "", h);
  showResults();
  runSearch();
}

el.form.addEventListener("submit", (e) => {
  e.preventDefault();
  searchNow();
});
el.q.addEventListener("input", () => {
  clearTimeout(typingTimer);
  typingTimer = setTimeout(searchNow, 200);
});
el.tag.addEventListener("input", () => {
  clearTimeout(typingTimer);
  typingTimer = setTimeout(searchNow, 300);
});
el.collection.addEventListener("change", searchNow);
el.mode.addEventListener("change", searchNow);
el.back.addEventListener("click", (e) => {
  e.preventDefault();
  goBack();
});
el.tokenForm.addEventListener("submit", (e) => {
  e.preventDefault();
  sessionStorage.setItem("mdsearch-token", el.token.value.trim());
  el.tokenForm.hidden = true;
  loadCollections();
  route();
});

window.addEventListener("hashchange", () => {
  cameFromResults = currentRoute().view === "note" && !el.results.hidden;
  route();
});

document.addEventListener("keydown", (e) => {
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
  } else if (e.key === "Enter" && selected >= 0 && (e.target === el.q || !inField)) {
    // Enter on changed input searches (the form submits); otherwise it opens.
    if (e.target === el.q && searchHash() !== shownKey) return;
    e.preventDefault();
    openResult(selected);
  }
});

loadCollections();
route();
if (currentRoute().view !== "note") el.q.focus();
