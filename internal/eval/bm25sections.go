package eval

import (
	"context"
	"database/sql"
	"strings"
	"time"
	"unicode"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/sections"
)

// ChunkBM25Sections names the plain baseline: every heading section's own
// text in one SQLite FTS5 table, searched with BM25 and nothing else.
const ChunkBM25Sections = "bm25-sections"

// bm25Sections is the baseline mdsearch must beat: a short script's worth
// of search. Each heading section's own text (without its subsections) is
// one row of an FTS5 table (porter stemmer) with the file name and heading
// path weighted 5 and the body 1; a query is its words ORed. It shares the
// run's scoring, per-page cap and excluded pages with every other
// configuration.
type bm25Sections struct {
	db   *sql.DB
	rows []mdsearch.Result // by rowid - 1
}

// newBM25Sections indexes the vault's sections into an in-memory table,
// in one transaction.
func newBM25Sections(ctx context.Context, dir string) (_ *bm25Sections, idx IndexReport, err error) {
	start := time.Now()
	db, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		return nil, idx, err
	}
	defer func() {
		if err != nil {
			db.Close()
		}
	}()
	db.SetMaxOpenConns(1) // one in-memory database
	b := &bm25Sections{db: db}
	if _, err := db.ExecContext(ctx, `CREATE VIRTUAL TABLE s USING fts5(name, heading, body, tokenize='porter unicode61')`); err != nil {
		return nil, idx, err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, idx, err
	}
	defer tx.Rollback() // a no-op once committed
	ins, err := tx.PrepareContext(ctx, `INSERT INTO s(rowid, name, heading, body) VALUES (?, ?, ?, ?)`)
	if err != nil {
		return nil, idx, err
	}
	defer ins.Close()
	if err := eachNote(ctx, dir, func(path string, _ []byte, doc *sections.Document) error {
		return b.add(ctx, ins, path, doc)
	}); err != nil {
		return nil, idx, err
	}
	if err := ins.Close(); err != nil {
		return nil, idx, err
	}
	if err := tx.Commit(); err != nil {
		return nil, idx, err
	}
	idx.Chunks, idx.TookMS = len(b.rows), msSince(start)
	return b, idx, nil
}

// add indexes the sections of one note with the prepared insert.
func (b *bm25Sections) add(ctx context.Context, ins *sql.Stmt, path string, doc *sections.Document) error {
	name := strings.TrimSuffix(path[strings.LastIndex(path, "/")+1:], ".md")
	for _, s := range doc.Sections {
		body := doc.Text(s.StartByte, s.BodyEnd)
		if strings.TrimSpace(body) == "" {
			continue
		}
		b.rows = append(b.rows, mdsearch.Result{Path: path, Title: doc.Title, Section: s.Heading,
			SectionPath: s.Path, StartLine: s.StartLine, EndLine: ownEnd(doc, &s),
			Text: body, TotalChunks: len(doc.Sections), ChunkIndex: s.Index, PageWordCount: doc.WordCount})
		if _, err := ins.ExecContext(ctx, len(b.rows), name, strings.Join(s.Path, " "), body); err != nil {
			return err
		}
	}
	return nil
}

// search returns up to n sections, at most perPage from one note.
func (b *bm25Sections) search(ctx context.Context, query string, n, perPage int) ([]mdsearch.Result, error) {
	var terms []string
	for _, w := range strings.FieldsFunc(strings.ToLower(query), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		terms = append(terms, `"`+w+`"`)
	}
	if len(terms) == 0 {
		return nil, nil
	}
	rows, err := b.db.QueryContext(ctx, `SELECT rowid FROM s WHERE s MATCH ? ORDER BY bm25(s, 5, 5, 1) LIMIT 1000`,
		strings.Join(terms, " OR "))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []mdsearch.Result
	per := map[string]int{}
	for rows.Next() && len(out) < n {
		var id int
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		r := b.rows[id-1]
		if per[r.Path] < perPage {
			per[r.Path]++
			out = append(out, r)
		}
	}
	return out, rows.Err()
}

// Search answers a request the way the engine would, so the run scores
// the baseline like every other configuration.
func (b *bm25Sections) Search(ctx context.Context, req mdsearch.SearchRequest) (*mdsearch.SearchResponse, error) {
	rs, err := b.search(ctx, req.Query, req.N, req.PerNote()) // no probabilities: the default cap holds
	if err != nil {
		return nil, err
	}
	return &mdsearch.SearchResponse{Query: req.Query, Mode: mdsearch.ModeKeyword, Results: rs, Total: len(rs)}, nil
}

func (b *bm25Sections) Close() error { return b.db.Close() }
