package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Weights are the bm25 column weights of the keyword index: passage text,
// heading path (with the headings of merged stubs), note title (with its
// file name), tags. Headings and titles name what a section is about in a
// few words, so a match there counts for more.
type Weights struct {
	Text, Heading, Title, Tags float64
}

// DefaultWeights were chosen on the dev query sets (docs/evaluation.md).
var DefaultWeights = Weights{Text: 1, Heading: 2.5, Title: 2.5, Tags: 1.5}

// KeywordHit is a chunk matched by the keyword index. BM25 is SQLite's
// bm25(): more negative is better.
type KeywordHit struct {
	ChunkID int64
	DocID   int64
	Section int64 // the chunk's sections row: chunks of one section share it
	Index   int   // the chunk's index within its note
	BM25    float64
}

// Keyword runs an FTS5 MATCH expression (build it with a query parser; raw
// user input may be a syntax error) and returns up to limit chunks, best
// first.
func (s *Reader) Keyword(ctx context.Context, match string, f Filter, w Weights, limit int) ([]KeywordHit, error) {
	var q string
	var args []any
	if f.IsZero() {
		// Rank inside FTS5 first and join only the rows kept: about half
		// the time of joining every match.
		q = `SELECT x.id, c.doc_id, c.section_id, c.chunk_index, x.rank FROM (
				SELECT rowid AS id, bm25(chunks_fts, ?, ?, ?, ?) AS rank FROM chunks_fts
				WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ?
			) x JOIN chunks c ON c.id = x.id ORDER BY x.rank`
		args = []any{w.Text, w.Heading, w.Title, w.Tags, match, limit}
	} else {
		cond, cargs := f.where()
		q = `SELECT f.rowid, c.doc_id, c.section_id, c.chunk_index, bm25(chunks_fts, ?, ?, ?, ?) AS rank FROM chunks_fts f
			JOIN chunks c ON c.id = f.rowid JOIN documents d ON d.id = c.doc_id
			WHERE chunks_fts MATCH ? AND ` + cond + ` ORDER BY rank LIMIT ?`
		args = append(append([]any{w.Text, w.Heading, w.Title, w.Tags, match}, cargs...), limit)
	}
	query := s.query // one statement text: kept prepared
	if !f.IsZero() {
		query = s.r.QueryContext // a text a filter's shape makes
	}
	rows, err := query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []KeywordHit
	for rows.Next() {
		var h KeywordHit
		if err := rows.Scan(&h.ChunkID, &h.DocID, &h.Section, &h.Index, &h.BM25); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// KeywordAny returns up to limit chunks matching any of terms (each a
// quoted FTS5 phrase, optionally with a trailing '*'), best bm25 first.
//
// bm25 costs far more per matched row than finding the row, and an OR of
// common words matches a large share of a big index. So rows are ranked in
// tiers: those holding every term, then (for up to maxTieredTerms terms)
// those holding all but one, and the first tier, or pair of tiers, that
// holds tierRows rows or more stands for the OR query; the OR query runs
// only when none does. A row's bm25 is the same in every one of these
// queries: each names the same phrases in the same order, and a phrase a
// row lacks adds exactly zero. What can change is the bottom of a full
// list: a row holding fewer terms that outscores some of the rows kept (a
// term repeated many times) is left out. On the Rust RFCs benchmark
// (docs/benchmarks.md) every top 10 was the OR query's.
//
// Which tier answers does not depend on limit, so a shorter list is the
// start of a longer one: a search's candidates, and so its scores, are the
// same however many results it asks for. Asked for more rows than the
// tier holds, the OR query's other rows follow it, best first.
func (s *Reader) KeywordAny(ctx context.Context, terms []string, f Filter, w Weights, limit int) ([]KeywordHit, error) {
	depth := max(limit, tierRows)
	if len(terms) > 1 {
		hits, err := s.Keyword(ctx, strings.Join(terms, " AND "), f, w, depth)
		if err != nil || len(hits) >= tierRows {
			return s.thenAny(ctx, terms, f, w, limit, hits, err)
		}
		if len(terms) > 2 && len(terms) <= maxTieredTerms {
			for i := range terms {
				// Rows holding every term but terms[i]: disjoint from each
				// other and from the rows holding all.
				rest := strings.Join(slices.Delete(slices.Clone(terms), i, i+1), " AND ")
				more, err := s.Keyword(ctx, "("+rest+") NOT "+terms[i], f, w, depth)
				if err != nil {
					return nil, err
				}
				hits = append(hits, more...)
			}
			if len(hits) >= tierRows {
				slices.SortStableFunc(hits, CompareHits)
				return s.thenAny(ctx, terms, f, w, limit, hits, nil)
			}
		}
	}
	return s.Keyword(ctx, strings.Join(terms, " OR "), f, w, limit)
}

// tierRows is how many rows a tier of KeywordAny must hold to stand for
// the OR query, whatever the limit: a search's first round keeps 100, and
// the OR query answers wherever a tier is thinner than that and half
// again, as it did for a search of five results when the tier was chosen
// at the depth read. A variable for tests' small fixtures.
var tierRows = 160

// thenAny is the first limit rows of a tier's (hits, best first, each of
// its queries read to limit rows or more), then the OR query's best rows
// outside it where the tier holds fewer: of the OR query's first limit
// rows, at most len(hits) are the tier's.
func (s *Reader) thenAny(ctx context.Context, terms []string, f Filter, w Weights, limit int, hits []KeywordHit, err error) ([]KeywordHit, error) {
	if err != nil || len(hits) >= limit {
		return hits[:min(limit, len(hits))], err
	}
	or, err := s.Keyword(ctx, strings.Join(terms, " OR "), f, w, limit)
	if err != nil {
		return nil, err
	}
	return AppendUnseen(hits, or, KeywordHit.Passage, limit), nil
}

// Passage is the passage (chunk) a hit is of.
func (h KeywordHit) Passage() int64 { return h.ChunkID }

// AppendUnseen appends to rows those of more whose passage (id) rows
// lacks, in their order, until rows holds limit.
func AppendUnseen[T any](rows, more []T, id func(T) int64, limit int) []T {
	in := make(map[int64]bool, len(rows))
	for _, r := range rows {
		in[id(r)] = true
	}
	for _, r := range more {
		if len(rows) < limit && !in[id(r)] {
			in[id(r)] = true
			rows = append(rows, r)
		}
	}
	return rows
}

// CompareHits orders keyword hits best bm25 first, then by chunk id.
func CompareHits(a, b KeywordHit) int {
	return cmp.Or(cmp.Compare(a.BM25, b.BM25), cmp.Compare(a.ChunkID, b.ChunkID))
}

// KeywordHolding returns up to limit chunks that match one of must (FTS5
// phrases: the query's quoted ones) and any of terms (which hold must
// too), best bm25 first, with the bm25 KeywordAny gives them. Each
// phrase is named once in a statement, as bm25 adds a phrase's score as
// often as it is named: the chunks holding a phrase and another term,
// then those holding a phrase alone.
func (s *Reader) KeywordHolding(ctx context.Context, terms, must []string, f Filter, w Weights, limit int) ([]KeywordHit, error) {
	return s.keywordHeld(ctx, terms, must, anyOf(must), f, w, limit)
}

// keywordHeld returns up to limit chunks that match held (an expression
// of named, terms of terms or not) and any of the other terms, best bm25
// first: those holding another term, then those holding none, each
// statement naming each term once, so bm25 is KeywordAny's.
func (s *Reader) keywordHeld(ctx context.Context, terms, named []string, held string, f Filter, w Weights, limit int) ([]KeywordHit, error) {
	others := slices.DeleteFunc(slices.Clone(terms), func(t string) bool { return slices.Contains(named, t) })
	if len(others) == 0 {
		return s.Keyword(ctx, held, f, w, limit)
	}
	rest := anyOf(others)
	hits, err := s.Keyword(ctx, held+" AND "+rest, f, w, limit)
	if err != nil {
		return nil, err
	}
	alone, err := s.Keyword(ctx, held+" NOT "+rest, f, w, limit)
	if err != nil {
		return nil, err
	}
	hits = append(hits, alone...)
	slices.SortStableFunc(hits, CompareHits)
	return hits[:min(limit, len(hits))], nil
}

// TermRows returns how many rows of the keyword index match each of terms
// (each an FTS5 MATCH expression), counting at most limit: the n of bm25's
// idf, ln((N − n + 0.5) / (n + 0.5)), whose N is KeywordRows. Counting
// stops at limit because a common term weighs little whatever its count.
func (s *Reader) TermRows(ctx context.Context, terms []string, limit int) ([]int, error) {
	counts := make([]int, len(terms))
	for i, t := range terms {
		err := s.queryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)`,
			t, limit).Scan(&counts[i])
		if err != nil {
			return nil, err
		}
	}
	return counts, nil
}

// TermsInScope reports, for each of terms (FTS5 MATCH expressions),
// whether some row of the keyword index that a filter lets through
// matches it: one statement for all, as a filter's SQL is prepared anew.
// A zero filter asks the keyword index alone, through a kept statement.
func (s *Reader) TermsInScope(ctx context.Context, terms []string, f Filter) ([]bool, error) {
	out := make([]bool, len(terms))
	if len(terms) == 0 {
		return out, nil
	}
	exists, query := `EXISTS (SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ?)`, s.queryRow
	var cargs []any
	if !f.IsZero() {
		var cond string
		cond, cargs = f.where()
		exists = `EXISTS (SELECT 1 FROM chunks_fts f JOIN chunks c ON c.id = f.rowid
			JOIN documents d ON d.id = c.doc_id WHERE chunks_fts MATCH ? AND ` + cond + `)`
		query = s.r.QueryRowContext
	}
	cols := make([]string, len(terms))
	var args []any
	dst := make([]any, len(terms))
	for i, t := range terms {
		cols[i] = exists
		args = append(append(args, t), cargs...)
		dst[i] = &out[i]
	}
	return out, query(ctx, `SELECT `+strings.Join(cols, ", "), args...).Scan(dst...)
}

// KeywordRows is the keyword index's row count as FTS5 keeps it for bm25
// (the N of its idf): the first varint of its averages record (row 1 of
// its data table), read without counting rows. Read it outside a write
// transaction: FTS5 updates the record when the transaction commits.
func (s *Reader) KeywordRows(ctx context.Context) (int, error) {
	var rec []byte
	err := s.r.QueryRowContext(ctx, `SELECT block FROM chunks_fts_data WHERE id = 1`).Scan(&rec)
	switch {
	case errors.Is(err, sql.ErrNoRows) || err == nil && len(rec) == 0:
		return 0, nil // nothing indexed yet
	case err != nil:
		return 0, err
	}
	n, size := varint(rec)
	if size == 0 {
		return 0, fmt.Errorf("keyword index: unreadable row count")
	}
	return int(min(n, math.MaxInt32)), nil
}

// varint decodes SQLite's variable-length integer: big-endian groups of
// seven bits, high bit set on all but the last, the ninth byte whole. It
// returns the value and its length in bytes, 0 when b ends first.
func varint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < len(b) && i < 9; i++ {
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}

// maxTieredTerms bounds the all-but-one tier, one query per term: with
// more terms it costs more than it saves.
const maxTieredTerms = 6

// FilterDocs returns the ids of the documents a filter lets through.
func (s *Reader) FilterDocs(ctx context.Context, f Filter) (map[int64]bool, error) {
	cond, args := f.where()
	return s.ids(ctx, `SELECT d.id FROM documents d WHERE `+cond, args...)
}

// Holding returns the passages (chunk ids) that match one of must (FTS5
// phrases: the quoted ones a search keeps its results to), within f.
// One row per passage: a quoted phrase names few.
func (s *Reader) Holding(ctx context.Context, must []string, f Filter) (map[int64]bool, error) {
	if f.IsZero() {
		return s.ids(ctx, `SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?`, anyOf(must))
	}
	cond, args := f.where()
	return s.ids(ctx, `SELECT c.id FROM chunks_fts x JOIN chunks c ON c.id = x.rowid
		JOIN documents d ON d.id = c.doc_id WHERE chunks_fts MATCH ? AND `+cond, append([]any{anyOf(must)}, args...)...)
}

// anyOf is an FTS5 expression matching any of terms.
func anyOf(terms []string) string { return "(" + strings.Join(terms, " OR ") + ")" }

// ids runs a query of one id column and returns its ids as a set.
func (s *Reader) ids(ctx context.Context, q string, args ...any) (map[int64]bool, error) {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rows.Err()
}
