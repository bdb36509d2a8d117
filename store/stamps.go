package store

import (
	"context"
	"database/sql"
	"strings"
)

// Stamp is what the index recorded of a note's file, to tell whether the
// file has changed since.
type Stamp struct {
	Collection string
	Root       string // the collection's folder
	Path       string // vault-relative
	MTime      int64  // Unix nanoseconds
	Size       int64
}

// Stamps returns the recorded stamps of the given documents by id; ids no
// longer stored are left out.
func (s *Reader) Stamps(ctx context.Context, docIDs []int64) (map[int64]Stamp, error) {
	out := make(map[int64]Stamp, len(docIDs))
	if len(docIDs) == 0 {
		return out, nil
	}
	args := make([]any, len(docIDs))
	for i, id := range docIDs {
		args[i] = id
	}
	rows, err := s.r.QueryContext(ctx, `SELECT d.id, c.name, c.root, d.path, d.mtime, d.size
		FROM documents d JOIN collections c ON c.id = d.collection_id
		WHERE d.id IN (?`+strings.Repeat(",?", len(docIDs)-1)+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var st Stamp
		if err := rows.Scan(&id, &st.Collection, &st.Root, &st.Path, &st.MTime, &st.Size); err != nil {
			return nil, err
		}
		out[id] = st
	}
	return out, rows.Err()
}

// StampOf returns the recorded stamp of a note in a named collection; ok is
// false when the note is not indexed.
func (s *Reader) StampOf(ctx context.Context, collection, path string) (st Stamp, ok bool, err error) {
	err = s.r.QueryRowContext(ctx, `SELECT c.name, c.root, d.path, d.mtime, d.size
		FROM documents d JOIN collections c ON c.id = d.collection_id
		WHERE c.name = ? AND d.path = ?`, collection, path).Scan(&st.Collection, &st.Root, &st.Path, &st.MTime, &st.Size)
	if err == sql.ErrNoRows {
		return st, false, nil
	}
	return st, err == nil, err
}
