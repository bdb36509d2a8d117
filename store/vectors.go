package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"unsafe"

	"github.com/mdsearch/mdsearch"
)

// Quantize encodes a vector for storage: a little-endian float32 scale s,
// then one int8 q[i] per dimension with v[i] ≈ s·q[i] (s = max|v|/127).
// For unit vectors this keeps cosines within about 1e-3 of float32 at a
// quarter of the size.
func Quantize(v []float32) []byte {
	var max float32
	for _, x := range v {
		if a := float32(math.Abs(float64(x))); a > max {
			max = a
		}
	}
	b := make([]byte, 4+len(v))
	scale := max / 127
	binary.LittleEndian.PutUint32(b, math.Float32bits(scale))
	if scale == 0 {
		return b
	}
	inv := 1 / scale
	for i, x := range v {
		b[4+i] = byte(int8(math.Round(float64(x * inv))))
	}
	return b
}

// Dequantize decodes a stored vector to float32.
func Dequantize(b []byte) []float32 {
	scale, q := Int8(b)
	v := make([]float32, len(q))
	for i, x := range q {
		v[i] = float32(x) * scale
	}
	return v
}

// Int8 splits a stored vector into its scale and int8 components. q aliases
// b: no copy is made.
func Int8(b []byte) (scale float32, q []int8) {
	if len(b) <= 4 {
		return 0, nil
	}
	return math.Float32frombits(binary.LittleEndian.Uint32(b)), unsafe.Slice((*int8)(unsafe.Pointer(&b[4])), len(b)-4)
}

// Model returns the id of an embedding model, registering it on first use.
// A model name seen before with another dimension is an error.
func (s *Store) Model(ctx context.Context, name string, dim int) (int64, error) {
	if _, err := s.w.ExecContext(ctx, `INSERT INTO models(name, dim) VALUES (?, ?) ON CONFLICT(name) DO NOTHING`, name, dim); err != nil {
		return 0, err
	}
	var id int64
	var d int
	if err := s.w.QueryRowContext(ctx, `SELECT id, dim FROM models WHERE name = ?`, name).Scan(&id, &d); err != nil {
		return 0, err
	}
	if d != dim {
		return 0, mdsearch.Errorf(mdsearch.KindInvalid, "embed", name, "",
			"model %s gave %d-dimensional vectors, but the index holds %d-dimensional ones under that name", name, dim, d)
	}
	return id, nil
}

// ModelID returns the id of a registered model, or 0.
func (s *Store) ModelID(ctx context.Context, name string) (int64, error) {
	var id int64
	err := s.r.QueryRowContext(ctx, `SELECT id FROM models WHERE name = ?`, name).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return id, err
}

// HasVector reports whether a vector is stored for key under model.
func (t *Tx) HasVector(model int64, key []byte) (bool, error) {
	st, err := t.stmt(`SELECT 1 FROM vectors WHERE model_id = ? AND vkey = ?`)
	if err != nil {
		return false, err
	}
	var one int
	err = st.QueryRowContext(t.ctx, model, key).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// PutVector stores the vector of key under model.
func (t *Tx) PutVector(model int64, key []byte, vec []float32) error {
	t.changes.key(key)
	_, err := t.exec(`INSERT INTO vectors(model_id, vkey, vec) VALUES (?, ?, ?)
		ON CONFLICT(model_id, vkey) DO UPDATE SET vec = excluded.vec`, model, key, Quantize(vec))
	return err
}

// Pending is a text that has no vector yet, or needs another.
type Pending struct {
	Key       []byte
	EmbedText string
	Tokens    int  // its length by the embedder's counter when it was cut
	Zero      bool // the model cannot read it: it gets the zero vector
	// Earlier is set by a run on texts it embeds but did not write: an
	// earlier run left them, whichever collection's, so its count of
	// its own windows leaves them out.
	Earlier bool
}

// MissingVectors lists the distinct embed texts of all windows, in every
// collection, that have no vector under model.
func (s *Store) MissingVectors(ctx context.Context, model int64) ([]Pending, error) {
	return s.pending(ctx, `SELECT w.vkey, `+windowText+`, max(w.token_count)
		FROM windows w JOIN chunks c ON c.id = w.chunk_id WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.model_id = ? AND v.vkey = w.vkey)
		GROUP BY w.vkey`, model)
}

// Unembedded reports whether some window of a collection (0: of any)
// has no vector of model.
func (s *Store) Unembedded(ctx context.Context, model, collection int64) (bool, error) {
	q := `SELECT EXISTS (SELECT 1 FROM windows w JOIN chunks c ON c.id = w.chunk_id
		JOIN documents d ON d.id = c.doc_id WHERE d.collection_id = ?2
		AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.model_id = ?1 AND v.vkey = w.vkey))`
	if collection == 0 { // half the time of the joins, on a million windows
		q = `SELECT EXISTS (SELECT 1 FROM windows w
		WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.model_id = ?1 AND v.vkey = w.vkey))`
	}
	var some bool
	err := s.r.QueryRowContext(ctx, q, model, collection).Scan(&some)
	return some, err
}

// pending runs a query of (vector key, embed text, tokens) rows.
func (s *Store) pending(ctx context.Context, query string, args ...any) ([]Pending, error) {
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Pending
	for rows.Next() {
		var p Pending
		if err := rows.Scan(&p.Key, &p.EmbedText, &p.Tokens); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// GCVectors deletes, when keep is not 0, every other model's vectors and,
// when orphans is set, vectors no chunk refers to any more. It returns how
// many were deleted.
func (s *Store) GCVectors(ctx context.Context, keep int64, orphans bool) (int64, error) {
	var n int64
	var others int
	if keep != 0 {
		if err := s.w.QueryRowContext(ctx, `SELECT count(*) FROM models WHERE id != ?`, keep).Scan(&others); err != nil {
			return 0, err
		}
	}
	if others > 0 {
		res, err := s.w.ExecContext(ctx, `DELETE FROM vectors WHERE model_id != ?`, keep)
		if err != nil {
			return 0, err
		}
		k, _ := res.RowsAffected()
		n += k
		if _, err := s.w.ExecContext(ctx, `DELETE FROM models WHERE id != ?`, keep); err != nil {
			return n, err
		}
	}
	if !orphans {
		return n, nil
	}
	res, err := s.w.ExecContext(ctx, `DELETE FROM vectors WHERE NOT EXISTS (SELECT 1 FROM windows w WHERE w.vkey = vectors.vkey)`)
	if err != nil {
		return n, err
	}
	k, _ := res.RowsAffected()
	return n + k, nil
}

// DropVectors deletes every model's vectors and forgets the models and
// the index's current model, in one write batch: the index is then for
// keyword search only until a run with a model embeds again. It returns
// how many vectors were deleted.
func (s *Store) DropVectors(ctx context.Context) (int64, error) {
	t, err := s.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer t.Rollback()
	t.changes.all = true
	res, err := t.exec(`DELETE FROM vectors`)
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	if _, err := t.exec(`DELETE FROM models`); err != nil {
		return 0, err
	}
	if _, err := t.exec(`INSERT INTO meta(key, value) VALUES ('model', '')
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`); err != nil {
		return 0, err
	}
	return n, t.Commit()
}

// DeleteOrphans deletes the vectors of the given keys that no chunk refers
// to any more, in every model. It returns how many were deleted.
func (s *Store) DeleteOrphans(ctx context.Context, keys [][]byte) (int64, error) {
	return deleteOrphans(func(q string, args ...any) (sql.Result, error) { return s.w.ExecContext(ctx, q, args...) }, keys)
}

// DeleteOrphans is Store.DeleteOrphans inside the transaction: a drop that
// is interrupted then leaves no vector behind that nothing refers to.
func (t *Tx) DeleteOrphans(keys [][]byte) (int64, error) {
	return deleteOrphans(func(q string, args ...any) (sql.Result, error) { return t.tx.ExecContext(t.ctx, q, args...) }, keys)
}

func deleteOrphans(exec func(q string, args ...any) (sql.Result, error), keys [][]byte) (int64, error) {
	var n int64
	for start := 0; start < len(keys); start += 500 {
		part := keys[start:min(start+500, len(keys))]
		args := make([]any, len(part))
		for i, k := range part {
			args[i] = k
		}
		res, err := exec(`DELETE FROM vectors WHERE model_id IN (SELECT id FROM models)
			AND vkey IN (?`+strings.Repeat(",?", len(part)-1)+`)
			AND NOT EXISTS (SELECT 1 FROM windows w WHERE w.vkey = vectors.vkey)`, args...)
		if err != nil {
			return n, err
		}
		k, _ := res.RowsAffected()
		n += k
	}
	return n, nil
}

// Vacuum returns free pages to the file system.
func (s *Store) Vacuum(ctx context.Context) error {
	_, err := s.w.ExecContext(ctx, `PRAGMA incremental_vacuum`)
	return err
}

// WindowRef places a window: its chunk, and the chunk's note, section and
// index within the note.
type WindowRef struct {
	ChunkID, DocID, SectionID int64
	Index                     int
	Heading                   bool // the passage's heading window (no text)
}

// ScanVectors calls fn for every window that has a vector under model, with
// its chunk and the stored vector (valid only during the call), the windows
// of one chunk one after another.
func (s *Store) ScanVectors(ctx context.Context, model int64, fn func(w WindowRef, vec []byte) error) error {
	rows, err := s.r.QueryContext(ctx, `SELECT w.chunk_id, w.doc_id, c.section_id, c.chunk_index,
		w.embed_full IS NULL AND w.text_end = w.text_start, v.vec FROM windows w
		JOIN chunks c ON c.id = w.chunk_id
		JOIN vectors v ON v.model_id = ? AND v.vkey = w.vkey ORDER BY w.id`, model)
	if err != nil {
		return err
	}
	return eachWindow(rows, fn)
}

// WindowCount is the number of windows in the index: an upper bound on
// the vectors a scan of one model visits, cheap to count.
func (s *Store) WindowCount(ctx context.Context) (int, error) {
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM windows`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count windows: %w", err)
	}
	return n, nil
}

// HasWindows reports whether the index holds any window: whether a
// search has anything to rank.
func (s *Store) HasWindows(ctx context.Context) (bool, error) {
	var some bool
	err := s.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM windows)`).Scan(&some)
	return some, err
}

// Counts reports index-wide totals: documents, chunks (passages), their
// windows, and windows with a vector under model.
func (s *Store) Counts(ctx context.Context, model int64) (docs, chunks, windows, vectors int, err error) {
	err = s.r.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM documents), (SELECT count(*) FROM chunks),
		(SELECT count(*) FROM windows), (SELECT count(*) FROM windows w JOIN vectors v ON v.model_id = ? AND v.vkey = w.vkey)`, model).
		Scan(&docs, &chunks, &windows, &vectors)
	if err != nil {
		err = fmt.Errorf("count index: %w", err)
	}
	return
}

// windowText is the SQL for a window's embed text (w joined with its chunk
// c): a byte slice of the chunk's text after the head, or embed_full.
const windowText = `coalesce(w.embed_full, w.head || CAST(substr(CAST(c.text AS BLOB), w.text_start + 1, w.text_end - w.text_start) AS TEXT))`

// EmbedTexts lists the distinct embed texts of all windows.
func (s *Store) EmbedTexts(ctx context.Context) ([]string, error) {
	return column[string](s.pool.QueryContext(ctx, `SELECT `+windowText+`
		FROM windows w JOIN chunks c ON c.id = w.chunk_id GROUP BY w.vkey`))
}
