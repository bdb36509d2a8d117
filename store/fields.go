package store

import (
	"context"
	"strconv"
	"strings"
)

// FieldScores are a row's bm25 magnitudes for one MATCH expression, one
// per column of the keyword index (text, heading, title, tags): 0 where
// the column does not match.
type FieldScores [4]float64

// MatchFields scores the rows among ids that match each of exprs (FTS5
// MATCH expressions), column by column: out[i][id] for exprs[i]. Rows
// that do not match are absent. One statement answers every expression.
// An expression that few rows match (few[i]) is read whole and its rows
// kept where they are among ids; any other looks up each id's row. FTS5
// answers a looked-up row by seeking it in every index segment and, for
// bm25, counts the expression's rows again for each id, which costs
// more than reading a short list once.
func (s *Reader) MatchFields(ctx context.Context, exprs []string, few []bool, ids []int64) ([]map[int64]FieldScores, error) {
	out := make([]map[int64]FieldScores, len(exprs))
	for i := range out {
		out[i] = map[int64]FieldScores{}
	}
	if len(exprs) == 0 || len(ids) == 0 {
		return out, nil
	}
	var in strings.Builder
	for i, id := range ids {
		if i > 0 {
			in.WriteByte(',')
		}
		in.WriteString(strconv.FormatInt(id, 10))
	}
	var q strings.Builder
	args := make([]any, len(exprs))
	for i, e := range exprs {
		if i > 0 {
			q.WriteString(" UNION ALL ")
		}
		q.WriteString(`SELECT ` + strconv.Itoa(i) + `, rowid, bm25(chunks_fts, 1, 0, 0, 0), bm25(chunks_fts, 0, 1, 0, 0),
			bm25(chunks_fts, 0, 0, 1, 0), bm25(chunks_fts, 0, 0, 0, 1) FROM chunks_fts WHERE chunks_fts MATCH ?`)
		if !few[i] {
			q.WriteString(` AND rowid IN (` + in.String() + `)`)
		}
		args[i] = e
	}
	want := make(map[int64]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	rows, err := s.r.QueryContext(ctx, q.String(), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var i int
		var id int64
		var f FieldScores
		if err := rows.Scan(&i, &id, &f[0], &f[1], &f[2], &f[3]); err != nil {
			return nil, err
		}
		if !want[id] {
			continue
		}
		for c := range f {
			f[c] = -f[c] // bm25() is more negative for a better match
		}
		out[i][id] = f
	}
	return out, rows.Err()
}

// HeadingNotes counts, for each heading text (lower case) that more than
// one note has, the notes with a section under it: a template heading
// ("Summary", "See also") says little about what a section holds.
func (s *Reader) HeadingNotes(ctx context.Context) (map[string]int, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT lower(section), count(DISTINCT doc_id) FROM sections
		WHERE section <> '' GROUP BY lower(section) HAVING count(DISTINCT doc_id) > 1`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var h string
		var n int
		if err := rows.Scan(&h, &n); err != nil {
			return nil, err
		}
		out[h] = n
	}
	return out, rows.Err()
}

// Passage is what the second stage reads of a chunk besides its scores.
type Passage struct {
	Words   int    // the passage's words
	Level   int    // its section's heading level (0 before any heading)
	Heading string // its section's heading text, lower case
}

// Passages returns the passages with the given ids; ids no longer stored
// are left out.
func (s *Reader) Passages(ctx context.Context, ids []int64) (map[int64]Passage, error) {
	out := make(map[int64]Passage, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := s.r.QueryContext(ctx, `SELECT c.id, c.word_count, s.heading_level, lower(s.section)
		FROM chunks c JOIN sections s ON s.id = c.section_id WHERE c.id IN (?`+strings.Repeat(",?", len(ids)-1)+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var p Passage
		if err := rows.Scan(&id, &p.Words, &p.Level, &p.Heading); err != nil {
			return nil, err
		}
		out[id] = p
	}
	return out, rows.Err()
}
