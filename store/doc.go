// Package store keeps an mdsearch index in one SQLite file: collections,
// documents, chunks, an FTS5 keyword index and vectors per embedding model.
//
// The file runs in WAL mode, so one writer and many readers work at the
// same time: searches keep answering while an index run commits its
// batches. Writes go through Tx, one short transaction per batch, so an
// interrupted run loses at most the batch in flight. Each write leaves the
// keyword index another segment to look terms up in; OptimizeKeywords
// merges them into one, which the engine asks for once a tenth of the
// index has been written since the last merge.
//
// Vectors are keyed by (model, hash of the text the model saw), not by
// chunk: a chunk whose embed_text is unchanged, or identical to another
// chunk's, reuses the stored vector. They are stored as int8 with one
// float32 scale per vector (see Quantize), a quarter of float32's size.
//
// The search's second stage matches query words on a few candidates
// (MatchFields, MatchPassages) among those candidates alone, never in the
// file, so the cost does not grow with the index: their keyword rows are
// made again as indexing wrote them and read in Go as the keyword index's
// tokenizer reads them (characters classed and words stemmed by SQLite
// itself, remembered across searches), or, for what Go cannot vouch for,
// written into a scratch FTS5 table in memory. Passages reads a
// candidate's row once for that and for the rest of the second stage.
//
// A word no passage holds is respelled from the keyword index's own
// terms (Respell): FTS5's vocabulary views (chunks_vocab, chunks_instances)
// read them, and the stems near the word lead to the words the passages
// spell them with.
//
// The statements a search runs on every call (its keyword list, term
// counts, the rows of its candidates and results) are kept prepared on the
// read pool: SQLite would parse and plan them again each time. A list of
// ids is padded to one of a few lengths so that a few texts serve it.
//
// The file is marked with PRAGMA application_id = ApplicationID ("mdsx"),
// and its schema is numbered (SchemaVersion). Open changes only files so
// marked (or a version 1 index, written before the mark, recognised by its
// tables): it refuses any other file, an empty file and an index of a newer
// version, untouched. An older index is rebuilt empty by Open, which
// reports the collections it held so the caller can re-index them from
// their vaults; OpenReadOnly refuses it instead and changes nothing, and
// ReadOlder reads of it, for status, what the rebuild will index again.
//
// Room 5 of the pipeline (docs/architecture.md): it keeps what chunks and
// embed made (notes, passages, windows, the keyword index, vectors) for the
// engine.
package store
