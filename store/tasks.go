package store

import (
	"context"
	"strings"
)

// Boxed returns the text of each passage that a filter lets through,
// that matches match (an FTS5 MATCH expression) and whose text holds
// what may be a task's box ("[ ] ", "[x]\t"): the passages a task
// operator reads (task-todo:call), whose lines it then checks. SQLite
// reads the texts, so a common word's passages without a box cost no
// copy into Go.
func (s *Reader) Boxed(ctx context.Context, match string, f Filter) (map[int64]string, error) {
	cond, args := f.where()
	rows, err := s.r.QueryContext(ctx, `SELECT c.id, c.text FROM chunks_fts x JOIN chunks c ON c.id = x.rowid
		JOIN documents d ON d.id = c.doc_id
		WHERE chunks_fts MATCH ? AND c.text GLOB '*[[]?][ `+"\t"+`]*' AND `+cond, append([]any{match}, args...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var text string
		if err := rows.Scan(&id, &text); err != nil {
			return nil, err
		}
		out[id] = text
	}
	return out, rows.Err()
}

// TaskLine reads line as a task, as the keyword index reads one
// (taskBox): its box's mark (' ' open, any other done) and its text.
func TaskLine(line string) (mark byte, text string, ok bool) {
	at := taskBox(line)
	if at < 0 {
		return 0, "", false
	}
	return line[at+1], strings.TrimSpace(line[at+3:]), true
}

// KeywordAll returns up to limit passages that match every one of all
// (terms of terms, each named once) and any of terms, best bm25 first,
// with the bm25 KeywordAny gives them, as KeywordHolding does for a
// phrase: the keyword list's rows of the passages that may hold a task
// operator's words, however deep in it they rank.
func (s *Reader) KeywordAll(ctx context.Context, terms, all []string, f Filter, w Weights, limit int) ([]KeywordHit, error) {
	return s.keywordHeld(ctx, terms, all, "("+strings.Join(all, " AND ")+")", f, w, limit)
}
