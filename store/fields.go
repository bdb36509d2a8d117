package store

import (
	"context"
	"errors"
	"strconv"
	"strings"
)

// FieldScores are a row's bm25 magnitudes for one MATCH expression, one
// per column of the keyword index (text, heading, title, tags): 0 where
// the column does not match. They are computed among the rows asked
// about (MatchFields), so their idf is that of those rows, not the
// index's.
type FieldScores [4]float64

// MatchFields scores the rows ids that match each of exprs (FTS5 MATCH
// expressions), column by column: out[i][id] for exprs[i]. Rows that do
// not match are absent. The answer is the one a table of these rows alone
// would give, with the keyword index's tokenizer: looking the rows up in
// the index instead costs a seek in every segment per row and, for bm25,
// a count of the expression's rows over the whole index per row, which
// grows with the index (over a second a query at a million windows). The
// rows' keyword text is made again as indexing wrote it and read in Go
// (matchInGo); an expression or a text Go cannot vouch for is matched in
// a scratch FTS5 table in memory instead (matchScratch). Ids no longer
// stored are left out.
func (s *Reader) MatchFields(ctx context.Context, exprs []string, ids []int64) ([]map[int64]FieldScores, error) {
	if len(exprs) == 0 || len(ids) == 0 {
		return emptyMatches(len(exprs)), nil
	}
	ps, err := s.Passages(ctx, ids)
	if err != nil {
		return nil, err
	}
	return MatchPassages(ctx, exprs, ps)
}

// MatchPassages is MatchFields on passages already read: the second
// stage reads its candidates once for its keyword features and the rest.
func MatchPassages(ctx context.Context, exprs []string, ps map[int64]Passage) ([]map[int64]FieldScores, error) {
	if len(exprs) == 0 || len(ps) == 0 {
		return emptyMatches(len(exprs)), nil
	}
	rows := make(map[int64][4]string, len(ps))
	for id, p := range ps {
		rows[id] = p.Keywords
	}
	return matchKeywordRows(ctx, exprs, rows)
}

// MatchProperties matches exprs on the passages whose text column holds
// their note's property values, telling the two apart: a match's
// FieldScores[0] is the passage's own text's, [1] the property values'.
// Other passages are left out.
func MatchProperties(ctx context.Context, exprs []string, ps map[int64]Passage) ([]map[int64]FieldScores, error) {
	rows := map[int64][4]string{}
	for id, p := range ps {
		if p.props != "" {
			rows[id] = [4]string{textKeywords(p.text), KeywordText(p.props)}
		}
	}
	if len(exprs) == 0 || len(rows) == 0 {
		return emptyMatches(len(exprs)), nil
	}
	return matchKeywordRows(ctx, exprs, rows)
}

// matchKeywordRows matches exprs on rows in Go, or in the scratch table
// where Go cannot vouch for the answer.
func matchKeywordRows(ctx context.Context, exprs []string, rows map[int64][4]string) ([]map[int64]FieldScores, error) {
	out, err := matchInGo(ctx, exprs, rows)
	if !errors.Is(err, errNotInGo) {
		return out, err
	}
	return matchScratch(ctx, exprs, rows)
}

func emptyMatches(n int) []map[int64]FieldScores {
	out := make([]map[int64]FieldScores, n)
	for i := range out {
		out[i] = map[int64]FieldScores{}
	}
	return out
}

// matchScratch matches exprs on rows written into a scratch FTS5 table
// in memory with the keyword index's tokenizer.
func matchScratch(ctx context.Context, exprs []string, rows map[int64][4]string) ([]map[int64]FieldScores, error) {
	out := emptyMatches(len(exprs))
	conn, err := scratch.get(ctx)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() { scratch.put(conn, ok) }()
	if err := fill(ctx, conn, rows); err != nil {
		return nil, err
	}
	var q strings.Builder
	args := make([]any, len(exprs))
	for i, e := range exprs {
		if i > 0 {
			q.WriteString(" UNION ALL ")
		}
		q.WriteString(`SELECT ` + strconv.Itoa(i) + `, rowid, bm25(f, 1, 0, 0, 0), bm25(f, 0, 1, 0, 0),
			bm25(f, 0, 0, 1, 0), bm25(f, 0, 0, 0, 1) FROM f WHERE f MATCH ?`)
		args[i] = e
	}
	st, err := conn.stmt(ctx, q.String())
	if err != nil {
		return nil, err
	}
	res, err := st.QueryContext(ctx, args...)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	for res.Next() {
		var i int
		var id int64
		var f FieldScores
		if err := res.Scan(&i, &id, &f[0], &f[1], &f[2], &f[3]); err != nil {
			return nil, err
		}
		for c := range f {
			f[c] = -f[c] // bm25() is more negative for a better match
		}
		out[i][id] = f
	}
	if err := res.Err(); err != nil {
		return nil, err
	}
	ok = true
	return out, nil
}

// HeadingNoteCount counts the notes of f's scope with a section under
// heading (in any case): a passage's own, or a stub merged into one (a
// passage's merged sections), which HeadingNotes does not see.
func (s *Reader) HeadingNoteCount(ctx context.Context, heading string, f Filter) (int, error) {
	cond, args := f.where()
	q := `SELECT count(*) FROM documents d WHERE ` + cond + ` AND d.id IN (
		SELECT doc_id FROM sections WHERE ` + lowerSQL("section", heading) + ` = ?
		UNION SELECT c.doc_id FROM chunks c, json_each(c.sections) p
			WHERE c.sections IS NOT NULL AND ` + lowerSQL("json_extract(p.value, '$[#-1]')", heading) + ` = ?)`
	var n int
	err := s.r.QueryRowContext(ctx, q, append(args, fold(heading), fold(heading))...).Scan(&n)
	return n, err
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
