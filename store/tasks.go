package store

import "context"

// Boxed returns the text of each passage that a filter lets through,
// that matches match (an FTS5 MATCH expression) and whose text holds
// what may be a task's box ("[ ] ", "[x] "): the passages a task
// operator reads (task-todo:call), whose lines it then checks. SQLite
// reads the texts, so a common word's passages without a box cost no
// copy into Go.
func (s *Reader) Boxed(ctx context.Context, match string, f Filter) (map[int64]string, error) {
	cond, args := f.where()
	rows, err := s.r.QueryContext(ctx, `SELECT c.id, c.text FROM chunks_fts x JOIN chunks c ON c.id = x.rowid
		JOIN documents d ON d.id = c.doc_id
		WHERE chunks_fts MATCH ? AND c.text GLOB '*[[]?] *' AND `+cond, append([]any{match}, args...)...)
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
