package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"time"
)

// Collection is one indexed vault.
type Collection struct {
	ID        int64
	Name      string
	Root      string
	Chunking  string    // signature of the chunker settings its chunks were cut with
	IndexedAt time.Time // zero until a run completes
}

// CollectionStats counts what a collection holds.
type CollectionStats struct {
	Files, Chunks, Windows, Vectors int
}

const collectionCols = `id, name, root, chunking, indexed_at`

func scanCollection(sc interface{ Scan(...any) error }) (Collection, error) {
	var c Collection
	var at int64
	err := sc.Scan(&c.ID, &c.Name, &c.Root, &c.Chunking, &at)
	if at > 0 {
		c.IndexedAt = time.Unix(at, 0)
	}
	return c, err
}

// Collections lists every collection by name.
func (s *Store) Collections(ctx context.Context) ([]Collection, error) {
	rows, err := s.query(ctx, `SELECT `+collectionCols+` FROM collections ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Collection
	for rows.Next() {
		c, err := scanCollection(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// Collection returns the named collection, or nil when there is none.
func (s *Store) Collection(ctx context.Context, name string) (*Collection, error) {
	c, err := scanCollection(s.r.QueryRowContext(ctx, `SELECT `+collectionCols+` FROM collections WHERE name = ?`, name))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// AddCollection creates a collection, or returns the existing one.
func (s *Store) AddCollection(ctx context.Context, name, root string) (*Collection, error) {
	return s.AddCollectionWith(ctx, name, root, "", nil)
}

// AddCollectionWith is AddCollection recording a new collection's chunking
// signature and meta values (its size limit) as it is made, in one
// transaction: a stop right after it leaves the collection with the
// settings its first run was given. An existing collection keeps its own.
func (s *Store) AddCollectionWith(ctx context.Context, name, root, chunking string, meta map[string]string) (*Collection, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO collections(name, root, chunking) VALUES (?, ?, ?) ON CONFLICT(name) DO NOTHING`, name, root, chunking)
	if err != nil {
		return nil, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		meta = nil // not made here: its settings are its own
	}
	for k, v := range meta {
		if _, err := tx.ExecContext(ctx, setMeta, k, v); err != nil {
			return nil, err
		}
	}
	c, err := scanCollection(tx.QueryRowContext(ctx, `SELECT `+collectionCols+` FROM collections WHERE name = ?`, name))
	if err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	return &c, nil
}

// SetChunking records a collection's chunker signature alone: what a run
// that cuts its notes anew marks before it starts (see engine's recutMark).
func (s *Store) SetChunking(ctx context.Context, id int64, chunking string) error {
	_, err := s.w.ExecContext(ctx, `UPDATE collections SET chunking = ? WHERE id = ?`, chunking, id)
	return err
}

// SetIndexed records a completed run: its chunker signature and the time.
func (s *Store) SetIndexed(ctx context.Context, id int64, chunking string, at time.Time) error {
	_, err := s.w.ExecContext(ctx, `UPDATE collections SET chunking = ?, indexed_at = ? WHERE id = ?`, chunking, at.Unix(), id)
	return err
}

// CollectionStats counts the files, chunks (passages), windows and windows
// with a vector of the given model (0: none) in a collection.
func (s *Store) CollectionStats(ctx context.Context, id, modelID int64) (CollectionStats, error) {
	var st CollectionStats
	// CROSS JOIN keeps the collection's windows as the outer loop. Left to
	// itself SQLite walks every vector of the model and looks up each
	// window using it: the whole index once per collection, and minutes
	// at a million windows.
	err := s.r.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM documents WHERE collection_id = ?1),
		(SELECT count(*) FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE d.collection_id = ?1),
		w.n, w.vectors FROM (SELECT count(*) AS n, count(v.id) AS vectors FROM documents d
			CROSS JOIN windows w ON w.doc_id = d.id
			LEFT JOIN vectors v ON v.model_id = ?2 AND v.vkey = w.vkey WHERE d.collection_id = ?1) w`,
		id, modelID).Scan(&st.Files, &st.Chunks, &st.Windows, &st.Vectors)
	return st, err
}

// Meta reads a value of the meta table ("" when unset).
func (s *Reader) Meta(ctx context.Context, key string) (string, error) {
	var v string
	err := s.queryRow(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

// SetMeta writes a value of the meta table.
func (s *Store) SetMeta(ctx context.Context, key, value string) error {
	_, err := s.w.ExecContext(ctx, setMeta, key, value)
	return err
}

// setMeta writes a meta value, replacing the one it had.
const setMeta = `INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`

// DeleteMeta removes a value of the meta table.
func (s *Store) DeleteMeta(ctx context.Context, key string) error {
	_, err := s.w.ExecContext(ctx, `DELETE FROM meta WHERE key = ?`, key)
	return err
}

// SetMeta is Store.SetMeta inside the transaction: the value is kept only
// if the batch is.
func (t *Tx) SetMeta(key, value string) error {
	_, err := t.exec(setMeta, key, value)
	return err
}

// DeleteMeta is Store.DeleteMeta inside the transaction.
func (t *Tx) DeleteMeta(key string) error {
	_, err := t.exec(`DELETE FROM meta WHERE key = ?`, key)
	return err
}

// Generation counts committed write batches. Readers compare it to notice
// that the index changed, in this process or another.
func (s *Reader) Generation(ctx context.Context) (int64, error) {
	v, err := s.Meta(ctx, "generation")
	if err != nil {
		return 0, err
	}
	n, _ := strconv.ParseInt(v, 10, 64)
	return n, nil
}

// Instance is the index's random ID, made with the file (or when an index
// written before instance IDs is first opened for writing; "" until then).
// The generation counts commits from that point, so the ID and the
// generation together name one state of the index: a file deleted and
// built again starts a new ID.
func (s *Reader) Instance(ctx context.Context) (string, error) { return s.Meta(ctx, "instance") }

// SetRoot moves a collection to another folder (a vault that was moved).
func (s *Store) SetRoot(ctx context.Context, id int64, root string) error {
	_, err := s.w.ExecContext(ctx, `UPDATE collections SET root = ? WHERE id = ?`, root, id)
	return err
}

// addInstance gives an index written before instance IDs its own. It reads
// first, so opening an index that has one never waits for the write lock.
func (s *Store) addInstance(ctx context.Context) error {
	if id, err := (&Reader{r: s.w}).Instance(ctx); err != nil || id != "" {
		return err
	}
	_, err := s.w.ExecContext(ctx, instanceRow)
	return err
}
