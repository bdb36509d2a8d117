package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
)

// keywordTokenizer is the keyword index's tokenizer (schema.go), which
// the scratch table must share for its matches to be the index's.
const keywordTokenizer = "porter " + unstemmedTokenizer

// unstemmedTokenizer is keywordTokenizer without the stemmer: how it
// splits and folds text.
const unstemmedTokenizer = "unicode61 remove_diacritics 2"

// scratchPool keeps in-memory SQLite connections, each holding the
// scratch tables (scratchTables). Each connection is its own database,
// so concurrent searches take one each.
type scratchPool struct {
	db   *sql.DB
	free chan *scratchConn
}

var scratch = scratchPool{free: make(chan *scratchConn, 4)}

// scratchTables make each scratch table, on a connection's first use of
// it: a search matched in Go needs w alone, and u for characters new to
// the process. Contentless, as the index is: emptied without reading
// their rows back.
var scratchTables = map[string][]string{
	// MatchFields' rows, columns as chunks_fts.
	"f": {`CREATE VIRTUAL TABLE f USING fts5(text, heading, title, tags, content='', tokenize='` + keywordTokenizer + `')`},
	// Stems: words read back as the tokenizer made them.
	"w": {`CREATE VIRTUAL TABLE w USING fts5(word, content='', tokenize='` + keywordTokenizer + `')`,
		`CREATE VIRTUAL TABLE wv USING fts5vocab(w, instance)`},
	// How the tokenizer reads characters (learnRunes), unstemmed.
	"u": {`CREATE VIRTUAL TABLE u USING fts5(word, content='', tokenize='` + unstemmedTokenizer + `')`,
		`CREATE VIRTUAL TABLE uv USING fts5vocab(u, instance)`},
}

// scratchConn is a connection, the scratch tables made on it, and its
// prepared statements by text: their texts vary only with the number of
// rows and expressions, and preparing costs as much as running them.
type scratchConn struct {
	c     *sql.Conn
	made  map[string]bool
	stmts map[string]*sql.Stmt
}

// table makes scratch table name on the connection, unless it is made.
func (c *scratchConn) table(ctx context.Context, name string) error {
	if c.made[name] {
		return nil
	}
	for _, q := range scratchTables[name] {
		if _, err := c.c.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	c.made[name] = true
	return nil
}

// stmt returns q prepared on the connection.
func (c *scratchConn) stmt(ctx context.Context, q string) (*sql.Stmt, error) {
	if st, ok := c.stmts[q]; ok {
		return st, nil
	}
	st, err := c.c.PrepareContext(ctx, q)
	if err == nil {
		c.stmts[q] = st
	}
	return st, err
}

func init() {
	// Opening is lazy: no connection is made until get asks for one.
	scratch.db, _ = sql.Open("sqlite", "file::memory:")
	// A connection put back past the pool's room must close for good:
	// kept idle by database/sql, its database (tables and all) would be
	// handed to the next get as a new one.
	scratch.db.SetMaxIdleConns(0)
}

// get returns a free connection, or a new one.
func (p *scratchPool) get(ctx context.Context) (*scratchConn, error) {
	select {
	case c := <-p.free:
		return c, nil
	default:
	}
	c, err := p.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	return &scratchConn{c: c, made: map[string]bool{}, stmts: map[string]*sql.Stmt{}}, nil
}

// put keeps c for the next search, unless it failed (it may be inside
// a transaction or half filled) or enough are kept.
func (p *scratchPool) put(c *scratchConn, ok bool) {
	if ok {
		select {
		case p.free <- c:
			return
		default:
		}
	}
	for _, st := range c.stmts {
		st.Close()
	}
	c.c.Close()
}

// fill replaces the scratch table's rows with rows, keyed by their id.
func fill(ctx context.Context, c *scratchConn, rows map[int64][4]string) error {
	if err := c.table(ctx, "f"); err != nil {
		return err
	}
	tx, err := c.c.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	clear, err := c.stmt(ctx, `INSERT INTO f(f) VALUES ('delete-all')`)
	if err != nil {
		return err
	}
	if _, err := tx.StmtContext(ctx, clear).ExecContext(ctx); err != nil {
		return err
	}
	if len(rows) == 0 {
		return tx.Commit()
	}
	// One statement for every row: each call through database/sql costs
	// more than a row's insert.
	args := make([]any, 0, 5*len(rows))
	for id, r := range rows {
		args = append(args, id, r[0], r[1], r[2], r[3])
	}
	ins, err := c.stmt(ctx, `INSERT INTO f(rowid, text, heading, title, tags) VALUES (?, ?, ?, ?, ?)`+strings.Repeat(`, (?, ?, ?, ?, ?)`, len(rows)-1))
	if err != nil {
		return err
	}
	if _, err := tx.StmtContext(ctx, ins).ExecContext(ctx, args...); err != nil {
		return err
	}
	return tx.Commit()
}

// frontmatter reads a note's stored frontmatter; nil when it does not
// parse.
func frontmatter(fm string) map[string]any {
	var m map[string]any
	d := json.NewDecoder(strings.NewReader(fm))
	d.UseNumber() // a number alias reads as it was written
	if d.Decode(&m) != nil {
		return nil
	}
	return m
}
