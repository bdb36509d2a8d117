package store

import (
	"context"
	"database/sql"
	"strings"
	"sync"
)

// stmtCache keeps statements prepared once on the read pool. SQLite
// parses and plans a statement anew on every call otherwise: a quarter
// of the second stage's time went to parsing its few queries again.
// Only fixed texts are kept (see inList), so the cache stays small.
type stmtCache struct {
	db *sql.DB
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// maxStmts bounds the cache; a text beyond it is prepared per call.
const maxStmts = 64

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, m: map[string]*sql.Stmt{}}
}

// get returns q prepared, or nil when it cannot be kept. It prepares
// outside the lock: a prepare may wait for a connection, and other
// searches' kept statements must not wait with it.
func (c *stmtCache) get(ctx context.Context, q string) (*sql.Stmt, error) {
	c.mu.Lock()
	st, ok := c.m[q]
	full := len(c.m) >= maxStmts
	c.mu.Unlock()
	if ok || full {
		return st, nil
	}
	st, err := c.db.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if kept, ok := c.m[q]; ok { // another search prepared it meanwhile
		st.Close()
		return kept, nil
	}
	if len(c.m) >= maxStmts {
		st.Close()
		return nil, nil
	}
	c.m[q] = st
	return st, nil
}

func (c *stmtCache) close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, st := range c.m {
		st.Close()
		delete(c.m, q)
	}
}

// prepared returns q prepared for this reader: on its transaction when it
// reads in one, on the pool otherwise; nil when it has no cache.
func (s *Reader) prepared(ctx context.Context, q string) (*sql.Stmt, error) {
	if s.stmts == nil {
		return nil, nil
	}
	st, err := s.stmts.get(ctx, q)
	if st == nil || err != nil {
		return nil, err
	}
	if tx, ok := s.r.(*sql.Tx); ok {
		return tx.StmtContext(ctx, st), nil
	}
	return st, nil
}

// query is s.r.QueryContext through a kept statement.
func (s *Reader) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	st, err := s.prepared(ctx, q)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return s.r.QueryContext(ctx, q, args...)
	}
	return st.QueryContext(ctx, args...)
}

// queryRow is s.r.QueryRowContext through a kept statement.
func (s *Reader) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	st, err := s.prepared(ctx, q)
	if st == nil || err != nil {
		return s.r.QueryRowContext(ctx, q, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// queryIn runs head, then an IN list of ids in parentheses. Up to 64
// ids the list is padded with the first id to a multiple of 16, so that
// four statement texts serve every call and are kept prepared (IN reads
// a repeated id once); a longer list is prepared for the call. ids must
// not be empty.
func (s *Reader) queryIn(ctx context.Context, head string, ids []int64) (*sql.Rows, error) {
	n := len(ids)
	query := s.r.QueryContext
	if n <= 64 {
		n = max(1, (n+15)/16*16)
		query = s.query
	}
	args := make([]any, n)
	for i := range args {
		args[i] = ids[0]
		if i < len(ids) {
			args[i] = ids[i]
		}
	}
	return query(ctx, head+" IN (?"+strings.Repeat(",?", n-1)+")", args...)
}
