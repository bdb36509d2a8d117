// What the page says about a result beyond its text: its place in its
// note and why it ranked as it did. Loaded before app.js.
"use strict";

// placeText places a passage in its page as the command line's footer
// does (render.Footer): "chunks 4–5/12 · parts 1–2/2" when adjacent
// passages were merged, "chunk 3/12 · part 2/3" when its section's text
// was cut into parts.
function placeText(r) {
  const end = r.chunk_end || 0;
  const joined = end > r.chunk_index;
  let s = joined ? "chunks " + (r.chunk_index + 1) + "–" + (end + 1) + "/" + r.total_chunks
    : "chunk " + (r.chunk_index + 1) + "/" + r.total_chunks;
  const parts = r.parts || 0, part = r.part || 0, last = r.part_end || 0;
  if (parts <= 1) return s;
  if (last > part) return s + " · parts " + part + "–" + last + "/" + parts;
  return s + " · part " + part + "/" + parts;
}

// factorLabels name the factors of rescore.Factors and
// rescore.ScoreFactors in plain words; the command line's --explain keeps
// their names.
const factorLabels = {
  keywords: "its keyword match", meaning: "its match in meaning", coverage: "how much of the query it holds",
  heading: "the query naming its heading", phrase: "the query's words side by side",
  title: "the note's title and file name", note: "the note's other passages",
  common_heading: "a heading many notes share", length: "its length", depth: "how deep its heading is",
  ranking: "how high it ranks (and how far it leads other sections)", query_found: "the query's words found in the vault",
  query_cosine: "the query's best match in meaning", query_words: "how many words the query has",
  best_match: "how well the best results match", top_note: "how many of the first ten are the best result's note's",
  common_only: "a query of common words only", top_words: "how much of the query the first result holds",
};

// factorLines are factors as lines "↑ label +0.95", largest first as the
// API lists them.
function factorLines(factors) {
  return factors.map((f) => "  " + (f.effect >= 0 ? "↑ " : "↓ ") + (factorLabels[f.name] || f.name.replace(/_/g, " ")) +
    " " + (f.effect >= 0 ? "+" : "−") + Math.abs(f.effect).toFixed(2));
}

// whyText says what a result's place and score rest on, as the command
// line's --explain does, in plain words: its places in the two lists and
// cosines, the query's words and the fields that hold them, and what
// raised or lowered its ranking and its score (changes in log-odds).
function whyText(w) {
  const place = (n) => (n > 0 ? "#" + n : "–");
  const pct = (x) => (x * 100).toFixed(1) + "%";
  let first = "keyword " + place(w.keyword_rank) + " · meaning " + place(w.semantic_rank);
  if (w.cosine != null) {
    first += " · cosine " + w.cosine.toFixed(2);
    if (w.heading_cosine != null) first += ", heading " + w.heading_cosine.toFixed(2);
  }
  const lines = [first + " · first stage " + pct(w.first_stage)];
  if (w.words && w.words.length) {
    lines.push("words: " + w.words.map((m) => m.word + " (" + (m.in.length ? m.in.join(", ") : "not found") +
      (m.stem ? "; as " + m.stem + "…" : "") + ")").join(" · "));
  }
  if (w.factors && w.factors.length) {
    lines.push("second stage: what moved its ranking from the average candidate's (changes in log-odds):", ...factorLines(w.factors));
  }
  if (w.score_factors && w.score_factors.length) {
    lines.push("score: " + pct(w.score_base) + " for an average passage, then (changes in log-odds):", ...factorLines(w.score_factors));
  }
  if (w.reranker != null) {
    lines.push("reranker " + pct(w.reranker) + (w.local_score != null ? " (local ranking " + pct(w.local_score) + ")" : ""));
  } else if (w.local_score != null) {
    lines.push("reranker: not scored, the server left it out (local ranking " + pct(w.local_score) + ")");
  }
  return lines.join("\n");
}
