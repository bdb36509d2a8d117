package store

import (
	"context"
	"strings"
)

// RowText is what a passage's keyword row holds, made again as indexing
// wrote it (Passage.Keywords): its text and property values, heading
// path, title, file name and aliases, and tags, as one text. Its words,
// read again, tell a word as written from the other words of its stem,
// which the keyword index cannot.
type RowText struct {
	Doc  int64
	Text string
}

// rowText is a passage's RowText.
func rowText(p Passage) RowText { return RowText{p.Doc, strings.Join(p.Keywords[:], "\n")} }

// RowTexts returns the RowText of each passage of ids still stored.
func (s *Reader) RowTexts(ctx context.Context, ids []int64) (map[int64]RowText, error) {
	out := make(map[int64]RowText, len(ids))
	for len(ids) > 0 {
		batch := ids[:min(len(ids), 1000)] // under SQLite's bound on a statement's variables
		ids = ids[len(batch):]
		ps, err := s.Passages(ctx, batch)
		if err != nil {
			return nil, err
		}
		for id, p := range ps {
			out[id] = rowText(p)
		}
	}
	return out, nil
}

// HoldingTexts calls fn with the RowText of each passage that a filter
// lets through and that matches one of terms (FTS5 MATCH expressions),
// row by row: a common word's passages may be most of the index.
func (s *Reader) HoldingTexts(ctx context.Context, terms []string, f Filter, fn func(id int64, t RowText)) error {
	cond, args := f.where()
	rows, err := s.r.QueryContext(ctx, s.passageSelect()+` JOIN chunks_fts x ON x.rowid = c.id
		WHERE chunks_fts MATCH ? AND `+cond, append([]any{anyOf(terms)}, args...)...)
	if err != nil {
		return err
	}
	return scanPassages(rows, func(id int64, p Passage) { fn(id, rowText(p)) })
}
