package store

import (
	"context"
	"database/sql"
)

// ScanVectorRows reads what ScanVectors does, for loading every vector at
// once: windows gets, in window order, each window that has a vector under
// model; then vec gets each of them by its index in that list (in no set
// order), with the stored vector (valid only during the call). Both run
// in one read transaction; v is the version it read.
//
// It reads the windows, chunks and vectors tables each in one pass and
// joins them in memory: the join of ScanVectors seeks two B-trees per
// window, several times the cost for a process that loads the vectors once
// and searches once (the command line). Memory stays near the caller's
// own copy: only window refs and one int32 chain per window are extra.
func (s *Store) ScanVectorRows(ctx context.Context, model int64, windows func([]WindowRef) error, vec func(i int, b []byte) error) (v Version, err error) {
	tx, err := s.pool.BeginTx(ctx, nil)
	if err != nil {
		return v, err
	}
	defer tx.Rollback()
	if v, err = version(ctx, tx); err != nil {
		return v, err
	}
	heads, err := vectorKeys(ctx, tx, model)
	if err != nil {
		return v, err
	}
	chunks, err := chunkPlaces(ctx, tx)
	if err != nil {
		return v, err
	}
	refs, next, err := vectorWindows(ctx, tx, heads, chunks)
	if err != nil {
		return v, err
	}
	if err := windows(refs); err != nil {
		return v, err
	}
	refs = nil // the caller has its copy; a million refs are 40 MB
	return v, eachVector(ctx, tx, model, func(key, b []byte) error {
		for i := heads[string(key)]; i >= 0; i = next[i] {
			if err := vec(int(i), b); err != nil {
				return err
			}
		}
		return nil
	})
}

// vectorKeys maps the key of every vector under model to -1, the end of
// its (empty) chain of windows. It reads the (model_id, vkey) index only.
func vectorKeys(ctx context.Context, tx *sql.Tx, model int64) (map[string]int32, error) {
	rows, err := tx.QueryContext(ctx, `SELECT vkey FROM vectors WHERE model_id = ?`, model)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	heads := map[string]int32{}
	for rows.Next() {
		var key sql.RawBytes
		if err := rows.Scan(&key); err != nil {
			return nil, err
		}
		heads[string(key)] = -1
	}
	return heads, rows.Err()
}

// vectorWindows lists the windows whose key is in heads and whose chunk is
// in chunks (as the join of ScanVectors does), in window order, with their
// chunk's place, and chains the windows of each key: heads[key] is the last
// of them and next[i] the one before window i (-1 at the end).
func vectorWindows(ctx context.Context, tx *sql.Tx, heads map[string]int32, chunks map[int64]chunkPlace) (refs []WindowRef, next []int32, err error) {
	rows, err := tx.QueryContext(ctx, `SELECT chunk_id, doc_id, embed_full IS NULL AND text_end = text_start, vkey
		FROM windows ORDER BY id`)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var w WindowRef
		var key sql.RawBytes
		if err := rows.Scan(&w.ChunkID, &w.DocID, &w.Heading, &key); err != nil {
			return nil, nil, err
		}
		head, ok := heads[string(key)]
		p, found := chunks[w.ChunkID]
		if !ok || !found {
			continue
		}
		w.SectionID, w.Index = p.section, p.index
		heads[string(key)] = int32(len(refs))
		next = append(next, head)
		refs = append(refs, w)
	}
	return refs, next, rows.Err()
}

// chunkPlace is a chunk's section and index within its note.
type chunkPlace struct {
	section int64
	index   int
}

// chunkPlaces reads the place of every chunk.
func chunkPlaces(ctx context.Context, tx *sql.Tx) (map[int64]chunkPlace, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, section_id, chunk_index FROM chunks`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	chunks := map[int64]chunkPlace{}
	for rows.Next() {
		var id int64
		var p chunkPlace
		if err := rows.Scan(&id, &p.section, &p.index); err != nil {
			return nil, err
		}
		chunks[id] = p
	}
	return chunks, rows.Err()
}

// eachVector calls fn with the key and stored bytes of every vector under
// model, in table order.
func eachVector(ctx context.Context, tx *sql.Tx, model int64, fn func(key, b []byte) error) error {
	rows, err := tx.QueryContext(ctx, `SELECT vkey, vec FROM vectors WHERE model_id = ?`, model)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var key, b sql.RawBytes
		if err := rows.Scan(&key, &b); err != nil {
			return err
		}
		if err := fn(key, b); err != nil {
			return err
		}
	}
	return rows.Err()
}
