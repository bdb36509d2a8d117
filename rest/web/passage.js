// How the page shows a passage: as plain text, at the part that answers
// the query best, with the query's words marked. Loaded before app.js.
"use strict";

// stopWords are never marked: they are in every passage, so marking them
// shows nothing about why a passage was found.
const stopWords = new Set(("a about above after again against all am an and any are as at be because been " +
  "before being below between both but by can could did do does doing down during each few for from further " +
  "had has have having he her here hers herself him himself his how i if in into is it its itself just me " +
  "more most my myself no nor not now of off on once only or other our ours out over own same she should so " +
  "some such than that the their theirs them then there these they this those through to too under until up " +
  "very was we were what when where which while who whom why will with would you your yours").split(" "));

// stem strips the common English endings, so restore, restores, restored
// and restoring share one stem ("restor"). Light by design: it only has to
// agree with itself, on the query's words and the text's.
function stem(word) {
  let w = word.toLowerCase().replace(/['\u2019]s$/, "");
  if (w.length <= 3 || !/^[a-z]+$/.test(w)) return w;
  if (/[^aeiou]ies$|ied$/.test(w)) w = w.slice(0, -3) + "y";
  else if (/ing$/.test(w) && w.length > 5) w = w.slice(0, -3);
  else if (/ed$/.test(w) && w.length > 4) w = w.slice(0, -2);
  else if (/(ch|sh|x|ss|z)es$/.test(w)) w = w.slice(0, -2);
  else if (/[^su]s$/.test(w)) w = w.slice(0, -1);
  if (/([^aeiouls])\1$/.test(w)) w = w.slice(0, -1); // stopped → stopp → stop
  return w.length > 3 ? w.replace(/e$/, "") : w;
}

// unspacedRun matches a run of characters of the scripts written without
// spaces (Chinese, Japanese, Korean, Thai, Lao, Khmer, Burmese).
const unspacedRun = /([\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}\u30fc]+)/u;
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const wordRun = /[\p{L}\p{N}\p{M}]+/gu;

// queryTerms is what of a query the page marks: the stems of its words of
// three letters or more that are no stop words, and the pairs of
// neighbouring characters of its runs of unspaced scripts, as keyword
// search reads them. The filters (tag:, path:, file:, [property:value])
// are no words.
function queryTerms(query) {
  // Folded and quoted as the server reads it (store.KeywordFold, matchTerms).
  const text = (query || "").normalize("NFKC").replace(/[\u201c\u201d\u201e\u300c-\u300f]/g, '"')
    .replace(/(^|\s)-?(?:tag|path|file):(?:"[^"]*"|\S+)/giu, " ")
    // Obsidian's operators that filter nothing: their names are no words (engine.dropWordOperators).
    .replace(/(^|[\s(]-?)(?:line|block|section|content|task|task-todo|task-done|match-case|ignore-case):(?=[^\s:])/giu, "$1")
    .replace(/(^|[\s(])task-(?:todo|done):(?:""|\(\))?(?=[\s)]|$)/gu, "$1") // given nothing: any task
    .replace(/(^|\s)-?\[(?:"[^"]*"|[\p{L}\p{N}_. -]*\p{L}[\p{L}\p{N}_. -]*):(?:"[^"]*"|\[\[[^\]]*\]\]|[^\]"[])+\](?=\s|$)/gu, " ")
    .toLowerCase();
  const stems = new Set();
  const pairs = [];
  for (const w of text.split(/[^\p{L}\p{N}\p{M}]+/u)) {
    w.split(unspacedRun).forEach((part, i) => {
      if (i % 2 === 0) {
        if (part.length > 2 && !stopWords.has(part)) stems.add(stem(part));
        return;
      }
      // Characters as a reader sees them: a Thai letter with its vowel
      // and tone marks is one, as the server keeps marks with their letter.
      const chars = [...graphemes.segment(part)].map((g) => g.segment);
      if (chars.length === 1) pairs.push(part);
      for (let j = 0; j + 1 < chars.length; j++) pairs.push(chars[j] + chars[j + 1]);
    });
  }
  if (!stems.size && !pairs.length) return null;
  // A lookahead, so that pairs may overlap: 数据 and 据库 in 数据库.
  const re = pairs.length ? new RegExp("(?=(" + pairs.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|") + "))", "giu") : null;
  return { stems, pairs: re };
}

// matchRanges is where the query's words are in text, as [start, end)
// ranges in order: whole words whose stem is a query word's, and pairs of
// unspaced characters; overlapping ranges merged.
function matchRanges(text, query) {
  const terms = typeof query === "string" || query == null ? queryTerms(query) : query;
  if (!terms) return [];
  const found = [];
  for (const m of text.matchAll(wordRun)) {
    m[0].split(unspacedRun).reduce((at, part, i) => {
      if (i % 2 === 0 && part && terms.stems.has(stem(part.normalize("NFKC")))) found.push([at, at + part.length]);
      return at + part.length;
    }, m.index);
  }
  if (terms.pairs) for (const m of text.matchAll(terms.pairs)) found.push([m.index, m.index + m[1].length]);
  found.sort((a, b) => a[0] - b[0]);
  const ranges = [];
  for (const [start, end] of found) {
    const last = ranges[ranges.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else ranges.push([start, end]);
  }
  return ranges;
}

// bestPart splits a passage's text into its blocks (paragraphs, lists,
// code) and picks the block that holds the most distinct query words, then
// the most hits, the earliest of equals; a short block takes the next ones
// with it while they fit in `room` characters. It returns [start, end) in text:
// the card shows that part, so a long passage shows the lines that answer
// rather than its start.
function bestPart(text, query, room = 240) {
  const blocks = [...text.matchAll(/[^\n]+(?:\n(?!\s*\n)[^\n]*)*/g)].map((m) => [m.index, m.index + m[0].length]);
  const terms = queryTerms(query);
  if (!terms || blocks.length < 2) return [0, text.length];
  let best = -1, bestScore = 0;
  blocks.forEach(([start, end], i) => {
    const hits = matchRanges(text.slice(start, end), terms).map(([s, e]) => stem(text.slice(start + s, start + e)));
    const score = new Set(hits).size * 1000 + hits.length;
    if (score > bestScore) [best, bestScore] = [i, score];
  });
  if (best < 0) return [0, text.length];
  let last = best;
  while (last + 1 < blocks.length && blocks[last + 1][1] - blocks[best][0] <= room) last++;
  return [blocks[best][0], blocks[last][1]];
}

// excerpt shows the part of a passage with the most query words (a
// merged passage can be long, and its start may not be what was found),
// with a button for the whole passage that offerWhole shows where the
// card cuts the text; pressed again, it shows the part again.
function excerpt(chunk, query) {
  const text = document.createElement("p");
  text.className = "text";
  const [start, end] = bestPart(chunk, query);
  let from = start; // where the shown part starts: fitMarks may move it on
  const showPart = () => {
    text.replaceChildren();
    text.classList.remove("expanded");
    if (from > 0) text.append(span("more", "… "));
    highlight(text, chunk.slice(from, end), query);
    if (end < chunk.length) text.append(span("more", " …"));
  };
  showPart();
  const whole = document.createElement("button");
  whole.type = "button";
  whole.className = "whole";
  whole.hidden = true;
  whole.textContent = "Show the whole passage";
  whole.setAttribute("aria-expanded", "false");
  const isPart = () => {
    if (from > 0 || end < chunk.length) whole.dataset.part = "true";
    else delete whole.dataset.part;
  };
  isPart();
  // Where the card's clamp hides every marked word (a narrow screen, a
  // long table), the part starts a little before the first instead.
  fitters.set(text, () => {
    if (whole.getAttribute("aria-expanded") === "true") return;
    if (from !== start) {
      from = start;
      showPart();
    }
    if (!text.clientHeight || marksInView(text)) return isPart();
    const part = chunk.slice(start, end);
    const first = matchRanges(part, query)[0];
    if (!first) return isPart();
    from = start + leadIn(part, first[0]);
    showPart();
    // Up to two lines before it too (a table's rows above), while the
    // word stays in view.
    for (let i = 0; i < 2 && from > start && chunk[from - 1] === "\n"; i++) {
      const was = from;
      from = start + chunk.slice(start, from - 1).lastIndexOf("\n") + 1;
      showPart();
      if (!marksInView(text)) {
        from = was;
        showPart();
        break;
      }
    }
    isPart();
  });
  whole.addEventListener("click", (e) => {
    e.stopPropagation(); // the card's click opens the note
    const open = whole.getAttribute("aria-expanded") !== "true";
    if (open) {
      text.replaceChildren();
      text.classList.add("expanded");
      highlight(text, chunk, query);
    } else {
      showPart();
    }
    // The button stays, and keeps the focus, as "Show less".
    whole.setAttribute("aria-expanded", String(open));
    whole.textContent = open ? "Show less" : "Show the whole passage";
  });
  const box = document.createElement("div");
  box.append(text, whole);
  return box;
}

// fitters holds each card text's fitting (excerpt), which fitMarks runs.
const fitters = new WeakMap();

// fitMarks makes each card in list show one of its marked words at least
// (see excerpt); run once the cards are on the page, and at a new width.
function fitMarks(list) {
  for (const text of list.querySelectorAll(".text")) {
    const fit = fitters.get(text);
    if (fit) fit();
  }
}

// marksInView says whether a mark of a card's text, if it has any, is
// inside its clamped box.
function marksInView(text) {
  const marks = text.querySelectorAll("mark");
  if (!marks.length) return true;
  const bottom = text.getBoundingClientRect().bottom;
  return [...marks].some((m) => m.getClientRects()[0] && m.getClientRects()[0].bottom <= bottom + 1);
}

// leadIn is where to start showing text so that the word at `at` is near
// the top: the start of its line, or a word about 100 characters before
// it in a long line.
function leadIn(text, at) {
  const line = text.lastIndexOf("\n", at - 1) + 1;
  if (at - line <= 100) return line;
  const space = text.slice(at - 100, at).search(/\s\S/);
  return space < 0 ? at : at - 100 + space + 1;
}

// offerWhole shows the button of each card in list whose text is cut:
// a part of its passage, or more lines than the card's clamp shows (which
// only layout tells). Run once the cards are on the page.
function offerWhole(list) {
  for (const b of list.querySelectorAll("button.whole")) {
    const text = b.previousElementSibling;
    b.hidden = !(b.dataset.part || b.getAttribute("aria-expanded") === "true" || text.scrollHeight > text.clientHeight + 1);
  }
}

// joinSoftBreaks joins the wrapped lines of paragraphs so text reflows,
// keeping the line structure of code, lists, quotes, tables, headings,
// footnotes and fenced divs' marker lines (which plainMarkdown then drops).
function joinSoftBreaks(md) {
  const out = [];
  let fence = null;
  let prose = false; // the last line out is paragraph text
  let table = false; // the last line out is a table's row
  const lines = md.split("\n");
  lines.forEach((line, i) => {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence || f) {
      if (f && (!fence || f[1][0] === fence[0] && f[1].length >= fence.length)) {
        fence = fence ? null : f[1];
      }
      out.push(line);
      prose = false;
      return;
    }
    // A table's rows need no leading "|": its delimiter row tells them.
    table = /\|/.test(line) && (table || isTableDelimiter(line) || isTableDelimiter(lines[i + 1] || ""));
    const structural = table || /^\s*$|^\s*(#{1,6}|[-*+>|]|\d+[.)])(\s|$)|^\s*[=-]{2,}\s*$|^ {4}|^\s*\[\^[^\]\s]+\]:/.test(line) ||
      fencedDiv(line) !== null;
    if (prose && !structural) {
      out[out.length - 1] += " " + line.trim();
    } else {
      out.push(line);
    }
    prose = !structural;
  });
  return out.join("\n");
}

// plainInline drops a line of prose's inline markers: ==highlight==,
// ~~strike~~, **strong**, *emphasis* and _emphasis_, footnote references
// ([^1]) and backslash escapes. Code spans and URLs keep theirs ("x==1" in
// `a==b`, a_b_c in a link), and a * or _ inside a word is no marker
// (snake_case_names, 2*3*4), as CommonMark reads an underscore.
function plainInline(line) {
  return line.split(/(`[^`]*`|<[a-z][\w+.-]*:[^\s<>]*>|\bhttps?:\/\/[^\s<>]*[^\s<>*_.,;:!?)\]'"])/i)
    .map((part, i) => i % 2 ? part : part
      .replace(/==(?=\S)([^\n]*?\S)==/g, "$1")
      .replace(/~~(?=\S)([^\n]*?\S)~~/g, "$1")
      .replace(/\*\*(?=\S)([^\n]*?\S)\*\*/g, "$1")
      .replace(/(?<![\p{L}\p{N}\\_])__(?=\S)([^\n]*?\S)__(?![\p{L}\p{N}_])/gu, "$1")
      .replace(/(?<![\p{L}\p{N}\\*])\*(?![\s*])([^*\n]*?[^\s*\\])\*(?![\p{L}\p{N}*])/gu, "$1")
      .replace(/(?<![\p{L}\p{N}\\_])_(?![\s_])([^\n]*?[^\s_\\])_(?![\p{L}\p{N}_])/gu, "$1")
      .replace(/\[\^[^\]\s]+\]/g, "")
      .replace(/\\([!-/:-@[-`{-~])/g, "$1"))
    .join("");
}

// tableCells reads a table row as its cells' text, " · " between them;
// isTableDelimiter tells the row under a table's header (|---|:-:|).
function tableCells(line) {
  return line.trim().replace(/^\|/, "").replace(/(?<!\\)\|$/, "").split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, "|")).filter(Boolean).join(" · ");
}

function isTableDelimiter(line) {
  return /\|/.test(line) && /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/.test(line);
}

// taskMarker shows a task list item's box as ☐ or ☑ in place of "- [ ]".
function taskMarker(line) {
  return line.replace(/^(\s*)([-*+]|\d+[.)])\s+\[([ xX])\](?:\s+|$)/,
    (m, indent, bullet, done) => indent + (/\d/.test(bullet) ? bullet + " " : "") + (done === " " ? "☐ " : "☑ "));
}

// untag drops a line's inline HTML tags outside its code spans, as the
// note's page omits them; an <img> shows its alt text.
function untag(line) {
  return line.split(/(`[^`]*`)/).map((part, i) => i % 2 ? part : part
    .replace(/<img\b[^<>]*>/gi, (tag) => {
      const alt = /\salt\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(tag);
      return alt ? alt[1] ?? alt[2] : "";
    })
    .replace(/<\/?[A-Za-z][\w-]*(?:\s[^<>]*)?\/?>/g, "")).join("");
}

// fencedDiv reads a docs site's container marker line ("::: tip Title",
// ":::danger[Title]", ":::"), returning its title ("" for none), or null
// for another line.
function fencedDiv(line) {
  const m = /^ {0,3}:{3,}\s*(?:\{[^}]*\}|[A-Za-z][\w-]*)?(.*)$/.exec(line);
  if (!m) return null;
  return m[1].replace(/\{[^}]*\}\s*$/, "").trim().replace(/^\[(.*)\]$/, "$1").trim();
}

// plainMarkdown makes a hit's markdown read as text: heading lines go
// (the result's title line names the section), as do code fences, a
// fenced div's markers (its title stays), inline HTML tags, the inline
// markers plainInline drops, footnote markers and tables' delimiter rows;
// links show their text, table rows their cells, tasks a ☐ or ☑.
function plainMarkdown(md) {
  const lines = md.split("\n");
  const out = [];
  const code = []; // a fenced block's lines, kept aside while links are read
  let fence = null;
  let table = false; // inside a table, after its delimiter row
  lines.forEach((line, i) => {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (f && (!fence || f[1][0] === fence[0] && f[1].length >= fence.length)) {
      fence = fence ? null : f[1];
      return;
    }
    if (fence) {
      code.push(line);
      out.push("\uE000" + (code.length - 1) + "\uE001"); // as written: the links below are the prose's
      return;
    }
    if (/^ {0,3}#{1,6}(\s|$)/.test(line) || /^ {0,3}(=+|-+)\s*$/.test(line) && i > 0 && lines[i - 1].trim()) {
      if (/^ {0,3}(=+|-+)\s*$/.test(line)) out.pop(); // a setext heading's text
      return;
    }
    const div = fencedDiv(line);
    if (div !== null) {
      if (div) out.push(untag(div));
      return;
    }
    // A quote keeps one "> " however deep; a callout's marker ("[!faq]- ")
    // and a block's id ("text ^id", "> ^id") are Obsidian's markup, not
    // the note's words, and a line of nothing else is a break.
    const q = /^\s*(?:>[ \t]?)+/.exec(line);
    const text = (q ? line.slice(q[0].length).replace(/^\[![\w-]+\][+-]?\s*/, "") : line)
      .replace(/(^|\s)\^[\w-]+\s*$/, "");
    // A table's delimiter row goes; its rows, and a passage's rows cut
    // from their header, read as cells.
    if (isTableDelimiter(text)) {
      table = true;
      return;
    }
    table = table && /\|/.test(text);
    const row = table || /^\s*\|.*\|\s*$/.test(text) ||
      /\|/.test(text) && i + 1 < lines.length && isTableDelimiter(lines[i + 1].replace(/^\s*(?:>[ \t]?)+/, ""));
    let shown = untag(text).replace(/^\s*\[\^[^\]\s]+\]:\s*/, ""); // a footnote's "[^1]: "
    shown = row ? tableCells(shown) : taskMarker(shown);
    out.push(shown.trim() ? (q ? "> " : "") + plainInline(shown) : "");
  });
  return out.join("\n").replace(/^\n+|\n+$/g, "").replace(/\n{3,}/g, "\n\n")
    // An embedded image (an icon, a drawing) is no words of the passage;
    // a link or an embedded note reads as its text.
    .replace(/!?\[\[([^\]|#]*)(?:#([^\]|]*))?(?:\|([^\]]*))?\]\]/g, (m, t, h, a) =>
      m[0] === "!" && /\.(png|jpe?g|gif|svg|webp|avif|bmp)$/i.test(t.trim()) ? "" : a || (t && h ? t + " > " + h : t || h))
    // A link's destination may hold balanced parentheses ("Foo_(bar)").
    .replace(/!?\[([^\]]*)\]\((?:[^()\n]|\([^()\n]*\))*\)/g, "$1")
    .replace(/(?<!`)`([^`\n]+)`(?!`)/g, "$1")
    .replace(/\uE000(\d+)\uE001/g, (m, i) => code[Number(i)] ?? m)
    .replace(/^\n+|\n+$/g, "").replace(/\n{3,}/g, "\n\n"); // a fence's blank lines too
}

// highlight appends text to node with the query's words wrapped in <mark>,
// built from text nodes only.
function highlight(node, text, query) {
  let at = 0;
  for (const [start, end] of matchRanges(text, query)) {
    if (start > at) node.append(document.createTextNode(text.slice(at, start)));
    const m = document.createElement("mark");
    m.textContent = text.slice(start, end);
    node.append(m);
    at = end;
  }
  if (at < text.length) node.append(document.createTextNode(text.slice(at)));
}
