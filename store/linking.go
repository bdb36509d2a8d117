package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
)

// Linking is a passage, or a note's properties, that may link to a note:
// it holds a link's syntax and one of the texts asked for.
type Linking struct {
	Path        string
	Section     string   // the read name of its section ("" for properties)
	SectionPath []string // its heading path
	ReadSection string   // "#id" where the path does not name the section
	StartLine   int      // its text's first line (0 for properties)
	Text        string   // the passage's text, or the properties as JSON
	Properties  bool
}

// Linking returns the passages of the collection named whose text holds
// a link ("[[" or "](") and matches match (an FTS5 expression: the linked
// note's name, in the words the keyword index reads), in path and
// passage order, then the notes whose properties hold "[[" and one of
// needles, compared without regard to case: what may link to the note
// needles name. Which of them does is the links' to tell
// (sections.Links). With match "" (a name of no word), the passages
// holding one of needles are read instead, by a scan.
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
	anyOf := func(col string) string { return strings.ReplaceAll(strings.Join(holds, " OR "), "%s", col) }
	readSection := "NULL"
	if s.readSection {
		readSection = "s.read_section"
	}
	q := `SELECT d.path, s.section, s.section_path, ` + readSection + `, c.start_line, c.text
		FROM chunks c JOIN documents d ON d.id = c.doc_id JOIN collections col ON col.id = d.collection_id
		JOIN sections s ON s.id = c.section_id`
	textArgs := args
	if match != "" {
		q += ` JOIN chunks_fts x ON x.rowid = c.id WHERE chunks_fts MATCH ? AND col.name = ?`
		textArgs = []any{match, collection}
	} else {
		q += ` WHERE col.name = ? AND (` + anyOf("c.text") + `)`
	}
	rows, err := s.r.QueryContext(ctx, q+` AND (instr(c.text, '[[') > 0 OR instr(c.text, '](') > 0) ORDER BY d.path, c.chunk_index`, textArgs...)
	if err != nil {
		return nil, err
	}
	var out []Linking
	if err := scanLinking(rows, &out); err != nil {
		return nil, err
	}
	rows, err = s.r.QueryContext(ctx, `SELECT d.path, '', '[]', NULL, 0, d.frontmatter
		FROM documents d JOIN collections col ON col.id = d.collection_id
		WHERE col.name = ? AND instr(d.frontmatter, '[[') > 0 AND (`+anyOf("d.frontmatter")+`)
		ORDER BY d.path`, args...)
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

// scanLinking appends rows of Linking's columns to out, and closes them.
func scanLinking(rows *sql.Rows, out *[]Linking) error {
	defer rows.Close()
	for rows.Next() {
		var l Linking
		var sp string
		var read sql.NullString
		if err := rows.Scan(&l.Path, &l.Section, &sp, &read, &l.StartLine, &l.Text); err != nil {
			return err
		}
		json.Unmarshal([]byte(sp), &l.SectionPath)
		l.ReadSection = read.String
		*out = append(*out, l)
	}
	return rows.Err()
}
