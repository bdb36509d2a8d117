package store

import (
	"context"
	"database/sql"
)

// RowText is what a passage's keyword row was made of, as stored: its
// text, property values, heading path (JSON), title, path and tags (JSON).
// Its words, read again, tell a word as written from the other words of
// its stem, which the keyword index cannot.
type RowText struct {
	Doc  int64
	Text string
}

// rowTextCols select a passage's RowText, by chunk id, from chunks c.
const rowTextCols = `c.id, c.doc_id, c.text || ' ' || coalesce(c.properties, '') || ' ' || s.section_path || ' ' || d.title || ' ' || d.path || ' ' || coalesce(c.tags, d.tags)
	FROM chunks c JOIN sections s ON s.id = c.section_id JOIN documents d ON d.id = c.doc_id`

// RowTexts returns the RowText of each passage of ids still stored.
func (s *Reader) RowTexts(ctx context.Context, ids []int64) (map[int64]RowText, error) {
	out := make(map[int64]RowText, len(ids))
	for len(ids) > 0 {
		batch := ids[:min(len(ids), 1000)] // under SQLite's bound on a statement's variables
		ids = ids[len(batch):]
		rows, err := s.queryIn(ctx, `SELECT `+rowTextCols+` WHERE c.id`, batch)
		if err != nil {
			return nil, err
		}
		if err := scanRowTexts(rows, func(id int64, t RowText) { out[id] = t }); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// HoldingTexts calls fn with the RowText of each passage that a filter
// lets through and that matches one of terms (FTS5 MATCH expressions),
// row by row: a common word's passages may be most of the index.
func (s *Reader) HoldingTexts(ctx context.Context, terms []string, f Filter, fn func(id int64, t RowText)) error {
	cond, args := f.where()
	rows, err := s.r.QueryContext(ctx, `SELECT `+rowTextCols+` JOIN chunks_fts x ON x.rowid = c.id
		WHERE chunks_fts MATCH ? AND `+cond, append([]any{anyOf(terms)}, args...)...)
	if err != nil {
		return err
	}
	return scanRowTexts(rows, fn)
}

// scanRowTexts reads rows of rowTextCols, and closes them.
func scanRowTexts(rows *sql.Rows, fn func(id int64, t RowText)) error {
	defer rows.Close()
	for rows.Next() {
		var id int64
		var t RowText
		if err := rows.Scan(&id, &t.Doc, &t.Text); err != nil {
			return err
		}
		fn(id, t)
	}
	return rows.Err()
}
