package store

import "context"

// Holding returns the passages (chunk ids) that match the FTS5 expression
// must, within f: the quoted phrases a search keeps its results to. One
// row per passage: a quoted phrase names few.
func (s *Reader) Holding(ctx context.Context, must string, f Filter) (map[int64]bool, error) {
	q := `SELECT x.rowid FROM chunks_fts x WHERE chunks_fts MATCH ?`
	args := []any{must}
	if !f.IsZero() {
		cond, cargs := f.where()
		q = `SELECT c.id FROM chunks_fts x JOIN chunks c ON c.id = x.rowid
			JOIN documents d ON d.id = c.doc_id WHERE chunks_fts MATCH ? AND ` + cond
		args = append(args, cargs...)
	}
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
