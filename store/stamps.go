package store

import (
	"context"
	"database/sql"
)

// Stamp is what the index recorded of a note's file, to tell whether the
// file has changed since.
type Stamp struct {
	Collection string
	Root       string // the collection's folder
	Path       string // vault-relative
	MTime      int64  // Unix nanoseconds
	Size       int64
	Hash       []byte // SHA-256 of the bytes indexed
}

// StampOf returns the recorded stamp of a note in a named collection; ok is
// false when the note is not indexed.
func (s *Reader) StampOf(ctx context.Context, collection, path string) (st Stamp, ok bool, err error) {
	err = s.r.QueryRowContext(ctx, `SELECT c.name, c.root, d.path, d.mtime, d.size, d.hash
		FROM documents d JOIN collections c ON c.id = d.collection_id
		WHERE c.name = ? AND d.path = ?`, collection, path).Scan(&st.Collection, &st.Root, &st.Path, &st.MTime, &st.Size, &st.Hash)
	if err == sql.ErrNoRows {
		return st, false, nil
	}
	return st, err == nil, err
}
