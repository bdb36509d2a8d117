package store

import (
	"context"
	"database/sql"
)

// Tx is one write batch. Commit makes it durable and bumps the index
// generation so readers (in any process) notice the change.
type Tx struct {
	ctx     context.Context
	tx      *sql.Tx
	stmts   map[string]*sql.Stmt
	removed [][]byte // vector keys of chunks this batch deleted
	changes changes  // for the change log
	logged  bool     // the index keeps the change log
}

// Removed lists the vector keys of the chunks this batch replaced or
// deleted: the only vectors it can have orphaned (see DeleteOrphans).
func (t *Tx) Removed() [][]byte { return t.removed }

// forget records the vector keys of a document's chunks before they go.
func (t *Tx) forget(docID int64) error {
	t.changes.doc(docID)
	st, err := t.stmt(`SELECT vkey FROM windows WHERE doc_id = ?`)
	if err != nil {
		return err
	}
	rows, err := st.QueryContext(t.ctx, docID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var k []byte
		if err := rows.Scan(&k); err != nil {
			return err
		}
		t.removed = append(t.removed, k)
	}
	return rows.Err()
}

// Begin starts a write batch. Only one runs at a time per index file; other
// writers wait (busy_timeout) rather than fail.
func (s *Store) Begin(ctx context.Context) (*Tx, error) {
	if err := s.Replaced(); err != nil { // a run's later batches too
		return nil, err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	return &Tx{ctx: ctx, tx: tx, stmts: map[string]*sql.Stmt{}, logged: s.changeLog}, nil
}

// stmt prepares a statement once per batch; batches run thousands of
// inserts through the same few statements.
func (t *Tx) stmt(q string) (*sql.Stmt, error) {
	if st, ok := t.stmts[q]; ok {
		return st, nil
	}
	st, err := t.tx.PrepareContext(t.ctx, q)
	if err != nil {
		return nil, err
	}
	t.stmts[q] = st
	return st, nil
}

func (t *Tx) exec(q string, args ...any) (sql.Result, error) {
	st, err := t.stmt(q)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(t.ctx, args...)
}

// Commit bumps the generation, logs what changed (see changeLog) and
// commits.
func (t *Tx) Commit() error {
	var gen int64
	err := t.tx.QueryRowContext(t.ctx, `UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'
		RETURNING CAST(value AS INTEGER)`).Scan(&gen)
	if err == nil && t.logged {
		err = t.logChanges(gen)
	}
	if err != nil {
		t.Rollback()
		return err
	}
	t.closeStmts()
	return t.tx.Commit()
}

// Rollback abandons the batch. It is safe after Commit.
func (t *Tx) Rollback() error {
	t.closeStmts()
	return t.tx.Rollback()
}

func (t *Tx) closeStmts() {
	for q, st := range t.stmts {
		st.Close()
		delete(t.stmts, q)
	}
}

// column collects a one-column query's rows, then closes them: the shape
// of every list of keys, ids or paths the store returns.
func column[T any](rows *sql.Rows, err error) ([]T, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
