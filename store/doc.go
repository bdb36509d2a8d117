// Package store keeps an mdsearch index in one SQLite file: collections,
// documents, chunks, an FTS5 keyword index and vectors per embedding model.
//
// The file runs in WAL mode, so one writer and many readers work at the
// same time: searches keep answering while an index run commits its
// batches. Writes go through Tx, one short transaction per batch, so an
// interrupted run loses at most the batch in flight.
//
// Vectors are keyed by (model, hash of the text the model saw), not by
// chunk: a chunk whose embed_text is unchanged, or identical to another
// chunk's, reuses the stored vector. They are stored as int8 with one
// float32 scale per vector (see Quantize), a quarter of float32's size.
//
// The schema is numbered (SchemaVersion). A file with another number is
// rebuilt empty; Open reports the collections it held so the caller can
// re-index them from their vaults.
package store
