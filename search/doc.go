// Package search is the mdsearch engine: it indexes vaults into a store,
// answers keyword, semantic and hybrid searches with per-page dedup, and
// reads whole notes or single sections. *Engine implements
// mdsearch.Searcher; the CLI, MCP, REST and web adapters only translate
// their input into its requests and print its responses.
//
// # Indexing
//
// Index walks a vault (see package vault) and brings its collection up to
// date in two phases, each committing small batches so an interrupted run
// loses at most one batch and the next run resumes:
//
//  1. Files whose mtime and size are unchanged are skipped. Others are
//     hashed; an unchanged hash only updates the mtime, a changed one
//     re-parses and re-chunks the note (documents, chunks and the keyword
//     index are written together, a few dozen files per transaction).
//     Notes gone from disk lose their chunks.
//  2. Every chunk in the index whose embed_text has no vector for the
//     current model is embedded, in batches that span files (one
//     transaction per batch). Identical embed_text is embedded once, so
//     editing a paragraph re-embeds only the chunks that changed, and a new
//     model re-embeds everything.
//
// A change of chunker settings (including the token budget, which follows
// the model) re-chunks every note of the collection.
//
// # Ranking
//
// keyword: SQLite FTS5 bm25 over chunk text, heading path, title and tags
// (heading path and title weighted up). Any input is turned into a valid
// query: every term is quoted, phrases in double quotes are kept, and
// terms are ORed so bm25 ranks chunks by how many rare terms they share.
// Displayed score: s/(1+s) for bm25 magnitude s.
//
// semantic: exact cosine over every chunk vector of the current model,
// scanned in parallel from memory (int8). Displayed score: the cosine,
// clamped to [0, 1]; distance is 1 − cosine.
//
// hybrid (default): reciprocal rank fusion of the two lists,
// score = Σ 1/(60 + rank), rank counted from 1 in each list. It is
// displayed divided by its maximum, 2/61, so a chunk ranked first by both
// lists shows 100% and one ranked first by only one list shows 50%. (When
// the query has no searchable words only the semantic list runs, and the
// maximum is 1/61.)
//
// Results are then cut to the best MaxPerPage chunks of each note and to N
// in total.
package search
