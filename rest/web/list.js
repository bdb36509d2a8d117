// mdsearch search page: lists of notes. A tag or operators alone list
// the notes they keep, 50 at a time (the API's most); "More notes" asks
// for the next 50 (offset) and adds them below.
"use strict";

// operatorsOnly reports whether q holds Obsidian's operators alone
// (tag:x, path:"a b", -[status:done], task-todo: given nothing,
// -task-todo:call, which keeps the notes without such a task) or
// exclusions (-draft, -"a b"), which list notes (or task passages) rather
// than rank passages: a list shows more of them.
function operatorsOnly(q) {
  return /^(\s*(?:OR|-(?:(?:\p{L}\p{M}*){3,}|"[^"]*[\p{L}\p{N}][^"]*")(?:(?![*'"_-])\p{P})*(?=\s|$)|-?\(*-?(?:(?:tag|path|file):(?:"[^"]*"?|[^\s)]+)|\[[^\]]*\])\)*|-?task(?:-todo|-done)?:(?:""|\(\))?(?=\s|$)|-task(?:-todo|-done)?:(?:"[^"]*"|\([^)]*\)|[^\s()"]+)(?=\s|$)))+\s*$/u.test(q);
}

// listLead says how many notes of a list are on screen, where More notes
// added pages (the answer's notice names the last page alone), or "".
function listLead(resp) {
  if (results.length === resp.results.length) return "";
  return (results.length >= resp.matching ? "all " + resp.matching : results.length + " of " + resp.matching) + " " + listUnit() + " shown · ";
}

// listUnit is what the list on screen holds: the passages holding a
// task, for task operators alone (task-todo:), else notes.
function listUnit() {
  const q = shownParams ? shownParams.get("q") || "" : "";
  return /(^|[\s(])task(-todo|-done)?:/.test(q) ? "passages" : "notes";
}

const moreButton = document.getElementById("more");
const orderButton = document.getElementById("order");

// listOrder is the order lists are asked in: "" by path, "modified" last
// changed first (the API's sort). It stays while lists are browsed, and
// is in the address.
let listOrder = "";

// lists reports whether query q asks for a list (no words, or operators
// alone) rather than a search.
function lists(q) {
  return !q || operatorsOnly(q);
}

// listSort is the sort to ask for query q: listOrder for a list, "" for a
// search, which refuses one.
function listSort(q) {
  return lists(q) ? listOrder : "";
}

// offerOrder shows, over a list on screen, the button that asks for it in
// the other order.
function offerOrder() {
  const resp = shownResp;
  orderButton.hidden = !(resp && resp.listing && resp.matching > 1);
  orderButton.textContent = listOrder === "modified" ? "By path" : "Last changed first";
}

orderButton.addEventListener("click", () => {
  listOrder = listOrder === "modified" ? "" : "modified";
  searchNow(true);
});

// offerMore shows the button while the list on screen (shownResp) has
// notes it does not show yet, saying how many.
function offerMore() {
  const resp = shownResp;
  const left = resp && resp.listing ? (resp.matching || 0) - results.length : 0;
  moreButton.hidden = left <= 0;
  moreButton.disabled = false;
  if (left > 0) moreButton.textContent = "More " + listUnit() + " (" + results.length + " of " + resp.matching + " shown)";
}

// loadMore adds the list's next page, and selects its first note; a
// search started meanwhile wins.
async function loadMore() {
  if (!shownResp || !shownResp.listing || !shownParams) return;
  const seq = searchSeq;
  const p = new URLSearchParams(shownParams);
  p.set("offset", String(results.length));
  moreButton.disabled = true;
  try {
    const resp = await api("/api/v1/semantic-search?" + p.toString());
    if (seq !== searchSeq) return;
    const first = results.length;
    results = results.concat(resp.results);
    shownResp = resp;
    renderResults(shownParams.get("q") || "", true); // the list's query, whatever the box holds now
    if (first < results.length) select(first, true);
    showSearchStatus();
  } catch (e) {
    if (seq !== searchSeq) return;
    moreButton.disabled = false;
    setStatus(e.message, true, e.status === 0);
  }
}

moreButton.addEventListener("click", loadMore);
