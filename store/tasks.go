package store

import (
	"context"
	"strings"
)

// BoxedPassage is a passage whose text holds what may be a task's box.
type BoxedPassage struct {
	Listed
	Text string
}

// boxGlob matches a text holding what may be a task's box ("[ ] ",
// "[x]\t"); TaskLine tells which lines hold one.
const boxGlob = `c.text GLOB '*[[]?][ ` + "\t" + `]*'`

// Boxed returns each passage that a filter lets through, that matches
// match (an FTS5 MATCH expression; "" matches every passage) and whose
// text holds what may be a task's box: the passages a task operator
// reads (task-todo:call, or task-todo: for any open task), whose lines it
// then checks. They come in order o (ListNotes' order, each note's in
// their place in it), for a list; a search needs none (Unordered), and
// sorting cost it 0.3–0.5 ms. SQLite reads the texts, so a common word's
// passages without a box cost no copy into Go.
func (s *Reader) Boxed(ctx context.Context, match string, f Filter, o Order) ([]BoxedPassage, error) {
	cond, args := f.where()
	from := ` FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE `
	if match != "" {
		from = ` FROM chunks_fts x JOIN chunks c ON c.id = x.rowid JOIN documents d ON d.id = c.doc_id WHERE chunks_fts MATCH ? AND `
		args = append([]any{match}, args...)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT c.id, c.doc_id, c.section_id, c.text`+from+boxGlob+` AND `+cond+o.orderBy(", c.chunk_index"), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []BoxedPassage
	for rows.Next() {
		var b BoxedPassage
		if err := rows.Scan(&b.ChunkID, &b.DocID, &b.SectionID, &b.Text); err != nil {
			return nil, err
		}
		out = append(out, b)
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
