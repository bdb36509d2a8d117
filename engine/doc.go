// Package engine is the mdsearch engine: it indexes vaults into a store,
// answers keyword, semantic and hybrid searches with per-page dedup, and
// reads whole notes or single sections. *Engine implements
// mdsearch.Searcher; the CLI, MCP, REST and web adapters only translate
// their input into its requests and print its responses.
//
// # Files
//
// The engine's parts share one Engine value, so they are one package; a
// file's prefix says which part it belongs to:
//
//   - engine*.go: opening an index, the process lock, following a rebuilt
//     index, the bound on concurrent searches, status, stale-note notices.
//   - index*.go: Index, Refresh and Drop: the vault scan, cutting and
//     writing notes, embedding windows (timing a text's cost on the
//     first batches: the probe), rebuilding vectors in place.
//   - query*.go: Search: query terms and operators, filters, the first
//     stage (query.go, query_fuse.go), the second stage
//     (query_stage2.go), results and the answer budget, a remote reranker.
//   - snapshot*.go: the in-memory vectors a semantic search scans: loading,
//     catching up with a commit, the nibble planes, the scan, the cache file.
//   - read*.go: Read and Outline: whole notes, sections, line ranges, long
//     notes in parts, links between notes.
//
// # Indexing
//
// Index walks a vault (see package vault) and brings its collection up to
// date in two phases, each committing small batches so an interrupted run
// loses at most one batch and the next run resumes:
//
//  1. Files whose mtime and size are unchanged are skipped, unless that
//     mtime is not safely before the moment the last run that walked the
//     vault began reading it (index_racy.go: "racily clean", as git says).
//     Others are hashed; an unchanged hash only updates the mtime, a
//     changed one re-parses and re-chunks the note (documents, chunks and
//     the keyword index are written together, a few dozen files per
//     transaction). Notes gone from disk lose their chunks.
//  2. Every window in the index whose embed text has no vector for the
//     current model is embedded, in batches that span files (one
//     transaction per batch). Identical embed_text is embedded once, so
//     editing a paragraph re-embeds only the windows that changed, and a new
//     model re-embeds everything.
//
// A change of chunker settings (including the token budget, which follows
// the model) re-chunks every note of the collection.
//
// # Ranking
//
// The unit of retrieval is the passage (a chunk: a section's own text, or
// a part of a long one); the model sees its windows.
//
// keyword: SQLite FTS5 bm25 over passage text, heading path, title (with
// the file name) and tags (the note's frontmatter tags and the inline
// #tags written in the passage; heading path and title weighted 2.5). Any input
// is turned into a valid query: every term is quoted, phrases in double
// quotes are kept, and terms are ORed so bm25 ranks passages by how many
// rare terms they share. In an index of fewer than 100 rows, bm25
// magnitudes are first raised to that size's scale (rowScale). Score:
// t/(t+4) for t = s × cover/√terms, bm25
// magnitude s per square root of the query's term count, since a long
// question shares some words with almost any note, times the share of the
// terms' idf that the index (or the collection searched) holds at all
// (coverage).
//
// semantic: exact cosine over every window vector of the current model,
// scanned in parallel from memory (int8; the integer dot products of
// package engine/dot are exact, so every CPU ranks alike); a passage takes
// its best window's cosine (a heading window's counts × 0.9). Score:
// (cos − 0.2) / 0.6, clamped to [0, 1]; distance is 1 − cosine.
//
// hybrid (default): 0.6 × s/(s+8) + 0.4 × the semantic score.
// Both are absolute, so a score means the same for every query and a query
// about nothing in the vault scores low (Fusion, DefaultFusion; the
// numbers that chose them are in docs/evaluation.md).
//
// Second stage: the first secondK (50) passages of that fused list are
// scored again by the learned model of package rescore, on features the
// index already holds (bm25 per field, query-word coverage of text and
// heading, proximity, window cosines, list ranks, the page's other
// passages, how many notes share the heading). Its ranker reorders them;
// its calibrator makes each score the probability that the passage
// answers the query, fitted with questions no note answers, so a low
// score means what it says on any vault. Semantic mode's stage keeps the
// cosine's order and gives the score alone, for which the query's words
// are read (they never add to its list). Hybrid and semantic mode use it
// only with the embedder it was fitted on (the local model); keyword mode
// with any. With another embedder they keep the fusion.
//
// Results are then cut to the best MaxPerPage passages of each note and to
// N in total; a passage next to a kept one of the same section joins it.
// The default cap (MaxPerPage 0: two a note) gives way where the second
// stage's probabilities say so: a passage it left out that is at least
// likelyAnswer likely is shown before another note's that is not.
// With MaxTokens, results fill that budget with whole passages (and an
// estimate of their header and footer lines, and of the notice), the last
// is cut at a block boundary with the lines that read the rest, and a
// notice counts the results left out.
//
// Suggestion (query_suggest.go): a word of the query that matches no
// passage is respelled as the nearest word the index holds (one or two
// edits away, compared by stems; store.Respell), unless the model knows it
// as a whole word; the query so respelled is searched in the mode asked
// (by keywords where that mode's scores are no probabilities), offered as
// SearchResponse.Suggestion only when it finds a strong answer, and its
// results shown where its best is likelier to answer than the typed
// query's (query_respelled.go; SearchRequest.AsTyped keeps the typed
// query's). With a reranker, the local scores choose, and the reranker
// reorders the results of the query shown alone (query_rerank.go).
//
// Room 6 of the pipeline (docs/architecture.md): the engine. It drives
// rooms 1 to 5 to index, runs the first stage and hands the best candidates
// to rescore (the second stage) and rerank, and reads notes; the adapters
// (room 7) call it through mdsearch.Searcher.
package engine
