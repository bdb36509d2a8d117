package store

import (
	"context"
	"database/sql"
	"strings"
)

// Linking is a passage, or a note's properties (as JSON), that may link
// to a note: it holds a link's syntax and the texts asked for.
type Linking struct {
	Path       string
	Text       string
	Properties bool // Text is the note's properties, as JSON
}

// Linking returns the passages of the collection named whose text holds
// a link ("[[" or "](") and matches match (an FTS5 expression: a word
// every link to the note holds), then the notes whose properties hold
// "[[" and one of needles, compared without regard to case: what may
// link to the note. Which of them does is the links' to tell, read again
// from the notes (sections.Links). With match "" (a name of no word), the
// passages holding one of needles are read instead, by a scan.
func (s *Reader) Linking(ctx context.Context, collection, match string, needles []string) ([]Linking, error) {
	if len(needles) == 0 {
		return nil, nil
	}
	var holds []string
	args := []any{collection}
	for _, n := range needles {
		holds = append(holds, `instr(`+lowerSQL("%s", n)+`, ?) > 0`)
		args = append(args, fold(n))
	}
	holdsOne := func(col string) string { return strings.ReplaceAll(strings.Join(holds, " OR "), "%s", col) }
	q := `SELECT d.path, c.text FROM chunks c JOIN documents d ON d.id = c.doc_id JOIN collections col ON col.id = d.collection_id`
	textArgs := args
	if match != "" {
		q += ` JOIN chunks_fts x ON x.rowid = c.id WHERE chunks_fts MATCH ? AND col.name = ?`
		textArgs = []any{match, collection}
	} else {
		q += ` WHERE col.name = ? AND (` + holdsOne("c.text") + `)`
	}
	rows, err := s.r.QueryContext(ctx, q+` AND (instr(c.text, '[[') > 0 OR instr(c.text, '](') > 0)`, textArgs...)
	if err != nil {
		return nil, err
	}
	var out []Linking
	if err := scanLinking(rows, &out); err != nil {
		return nil, err
	}
	rows, err = s.r.QueryContext(ctx, `SELECT d.path, d.frontmatter FROM documents d JOIN collections col ON col.id = d.collection_id
		WHERE col.name = ? AND instr(d.frontmatter, '[[') > 0 AND (`+holdsOne("d.frontmatter")+`)`, args...)
	if err != nil {
		return nil, err
	}
	at := len(out)
	if err := scanLinking(rows, &out); err != nil {
		return nil, err
	}
	for i := at; i < len(out); i++ {
		out[i].Properties = true
	}
	return out, nil
}

// scanLinking appends rows of a path and a text to out, and closes them.
func scanLinking(rows *sql.Rows, out *[]Linking) error {
	defer rows.Close()
	for rows.Next() {
		var l Linking
		if err := rows.Scan(&l.Path, &l.Text); err != nil {
			return err
		}
		*out = append(*out, l)
	}
	return rows.Err()
}
