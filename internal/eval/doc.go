// Package eval measures retrieval quality: it indexes a vault once per
// configuration (a chunker and a search mode) with the same engine that
// `mdsearch search` uses, runs labelled queries through it and scores the
// answers.
//
// # Query files
//
// One JSON object a line (JSON Lines); blank lines are ignored. Two label
// styles are accepted, alone or mixed:
//
//	{"query": "...", "relevant": [{"path": "Note.md", "section_path": ["Note", "Part", "Sub"]}]}
//	{"query": "...", "expected_path_contains": "api-design", "difficulty": "easy"}
//
// A relevant path is vault-relative; its section_path lists the heading
// texts from the top down to the answering section (empty means the whole
// note). expected_path_contains marks every note whose path contains it as
// relevant. difficulty is optional in both styles.
//
// # Metrics
//
// Every query is searched with N = k (at least 3, for Hit@3) and the
// default per-page cap, and judged on the first k results in the order an
// agent reads them:
//
//   - page recall@k: relevant notes among the results / relevant notes;
//   - page MRR: 1/rank of the first result on a relevant note (0 if none);
//   - Hit@3: a relevant note among the first 3 results;
//   - section hit@k (labelled queries only): a result on the labelled note
//     whose section_path equals the label or lies under it. Chunkers that
//     ignore headings return no section path and score 0 here;
//   - span hit@k (labelled queries only): a result on the labelled note
//     whose line range overlaps the labelled section's lines (subsections
//     included). It applies one rule to every chunker: did the returned
//     text include part of the answer;
//   - tokens per query: 1.3 × the words of each result's text with its
//     "[Title > Heading]" prefix, summed over the results; the same
//     estimate for every configuration, independent of the embedding model;
//   - latency p50/p95: wall time of Engine.Search per query, query
//     embedding included, after one untimed warm-up query.
//
// # Configurations
//
// A configuration name is a chunker optionally followed by a search mode:
// whole-doc, paragraph and fixed (the baselines, semantic by default),
// sections and h2h3 (mdsearch's chunker and its profile, hybrid by
// default), e.g. "sections-keyword" or "paragraph-hybrid". Configurations
// that share a chunker share one throwaway index. One caching embedder
// serves the whole run, so a text embedded for one configuration is not
// embedded again for another; queries bypass it. Tuning tries other engine
// settings (fusion constant, bm25 weights, window budget, overlap, stub
// merging) without code changes. docs/evaluation.md has the results on the
// dev sets and how to read them.
//
// Beside the engine, room 6 of the pipeline (docs/architecture.md): a
// research harness that runs the whole pipeline on labelled queries.
package eval
