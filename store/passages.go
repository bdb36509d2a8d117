package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"

	"github.com/mdsearch/mdsearch"
)

// Passage is what the second stage reads of a chunk besides its scores.
// Heading and Title are lowered as SQLite's lower() does (ASCII), as
// HeadingNotes keys them.
type Passage struct {
	Doc     int64  // its note's id
	Words   int    // the passage's words
	Level   int    // its section's heading level (0 before any heading)
	Heading string // its section's heading text, lower case
	Title   string // its note's title, lower case
	// Keywords is the passage's keyword index row (text, heading, title,
	// tags) as putChunk wrote it, made again from what the index stores.
	Keywords [4]string
	// text and props are, for a passage whose text column holds its note's
	// property values (Chunk.Properties), its own text and those values
	// apart, as stored (MatchProperties reads them for Why alone); ""
	// otherwise.
	text, props string
}

// Passages returns the passages with the given ids, in one read of the
// columns they come from, the notes' frontmatter with them; ids no
// longer stored are left out.
func (s *Reader) Passages(ctx context.Context, ids []int64) (map[int64]Passage, error) {
	out := make(map[int64]Passage, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.queryIn(ctx, s.passageSelect()+` WHERE c.id`, ids)
	if err != nil {
		return nil, err
	}
	return out, scanPassages(rows, func(id int64, p Passage) { out[id] = p })
}

// passageSelect is the SELECT of what a Passage is made from, from chunks
// c, sections s and documents d, for this index's columns.
func (s *Reader) passageSelect() string {
	own, props := "NULL", "NULL"
	if s.chunkTags {
		own = "c.tags"
	}
	if s.chunkProps {
		props = "c.properties"
	}
	return `SELECT c.id, c.doc_id, c.word_count, s.heading_level, lower(s.section), lower(d.title),
		d.path, d.title, d.tags, ` + own + `, d.frontmatter, s.section_path, c.text, c.sections, ` + props + `
		FROM chunks c JOIN sections s ON s.id = c.section_id JOIN documents d ON d.id = c.doc_id`
}

// scanPassages reads rows of passageSelect, calls fn with each passage,
// and closes them.
func scanPassages(rows *sql.Rows, fn func(id int64, p Passage)) error {
	defer rows.Close()
	fms := map[int64]map[string]any{}
	for rows.Next() {
		var id int64
		var p Passage
		var path, title, tags, sp string
		var fm, covered, ownTags, ownProps sql.NullString
		var c mdsearch.Chunk
		if err := rows.Scan(&id, &p.Doc, &p.Words, &p.Level, &p.Heading, &p.Title, &path, &title, &tags, &ownTags, &fm, &sp, &c.Text, &covered, &ownProps); err != nil {
			return err
		}
		json.Unmarshal([]byte(tags), &c.Tags)
		if ownTags.Valid {
			json.Unmarshal([]byte(ownTags.String), &c.PassageTags)
		}
		json.Unmarshal([]byte(sp), &c.SectionPath)
		if covered.Valid {
			json.Unmarshal([]byte(covered.String), &c.Sections)
		}
		m, seen := fms[p.Doc]
		if !seen && fm.Valid {
			m = frontmatter(fm.String)
			fms[p.Doc] = m
		}
		c.Properties = ownProps.String
		if c.Properties != "" {
			p.text, p.props = c.Text, c.Properties
		}
		text, head := chunkKeywords(&c)
		p.Keywords = [4]string{text, head, titleKeywords(title, path, m), tagsKeywords(passageTags(c.PassageTags, c.Tags))}
		fn(id, p)
	}
	return rows.Err()
}

// Continued maps each passage of ids that merged stub sections into the
// section after them (a note's short introduction merged into its first
// long section's part 1) to the section id of the note's next passage,
// where that passage goes on in the section it ends in (part 2): the two
// are neighbours of one section, as passages of one section id are. A
// note's passages are written together, so the next has the next rowid:
// looked up by it, where a note has hundreds of passages (were it
// otherwise, the continuation would be missed, never made up).
func (s *Reader) Continued(ctx context.Context, ids []int64) (map[int64]int64, error) {
	out := map[int64]int64{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.queryIn(ctx, `SELECT c.id, c.sections, n.section_id, ns.section_path
		FROM chunks c JOIN chunks n ON n.id = c.id + 1 AND n.doc_id = c.doc_id AND n.chunk_index = c.chunk_index + 1
		JOIN sections ns ON ns.id = n.section_id
		WHERE c.sections IS NOT NULL AND n.section_id <> c.section_id AND c.id`, ids)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id, next int64
		var covered, path string
		if err := rows.Scan(&id, &covered, &next, &path); err != nil {
			return nil, err
		}
		var paths [][]string
		var own []string
		if json.Unmarshal([]byte(covered), &paths) != nil || json.Unmarshal([]byte(path), &own) != nil || len(paths) == 0 {
			continue
		}
		if slices.Equal(paths[len(paths)-1], own) {
			out[id] = next
		}
	}
	return out, rows.Err()
}
