package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mdsearch/mdsearch"
)

// ChunkRow is a stored chunk with the page facts a search result shows.
type ChunkRow struct {
	RowID         int64
	DocID         int64
	Collection    string
	PageWordCount int
	Stamp         Stamp // what the index recorded of the note's file
	mdsearch.Chunk
}

const chunkCols = `c.id, c.doc_id, col.name, col.root, d.mtime, d.size, d.hash, d.path, d.title, d.word_count, d.tags, d.chunk_count,
	c.chunk_index, s.section, s.section_path, s.heading_level,
	c.start_line, c.end_line, c.start_byte, c.end_byte, c.part, c.parts,
	c.text, c.word_count, c.sections, %s, %s
	FROM chunks c JOIN sections s ON s.id = c.section_id JOIN documents d ON d.id = c.doc_id
	JOIN collections col ON col.id = d.collection_id`

// chunkSelect is the SELECT of chunkCols for this index's columns.
func (s *Reader) chunkSelect() string {
	cols := []any{"NULL", "NULL"}
	if s.readSection {
		cols[0] = "s.read_section"
	}
	if s.readSections {
		cols[1] = "c.read_sections"
	}
	return `SELECT ` + fmt.Sprintf(chunkCols, cols...)
}

func scanChunk(rows *sql.Rows) (*ChunkRow, error) {
	var r ChunkRow
	var tags, sp string
	var covered, readSection, readSections sql.NullString
	c := &r.Chunk
	if err := rows.Scan(&r.RowID, &r.DocID, &r.Collection, &r.Stamp.Root, &r.Stamp.MTime, &r.Stamp.Size, &r.Stamp.Hash,
		&c.Path, &c.Title, &r.PageWordCount, &tags, &c.TotalChunks,
		&c.ChunkIndex, &c.Section, &sp, &c.HeadingLevel,
		&c.StartLine, &c.EndLine, &c.StartByte, &c.EndByte, &c.Part, &c.Parts,
		&c.Text, &c.WordCount, &covered, &readSection, &readSections); err != nil {
		return nil, err
	}
	json.Unmarshal([]byte(tags), &c.Tags)
	json.Unmarshal([]byte(sp), &c.SectionPath)
	if covered.Valid {
		json.Unmarshal([]byte(covered.String), &c.Sections)
	}
	if readSections.Valid {
		json.Unmarshal([]byte(readSections.String), &c.ReadSections)
	}
	c.ReadSection = readSection.String
	c.ID = c.Path + "#" + strconv.Itoa(c.ChunkIndex)
	r.Stamp.Collection, r.Stamp.Path = r.Collection, c.Path
	return &r, nil
}

// Chunks returns the chunks with the given ids; ids no longer stored (a
// concurrent re-index removed them) are left out.
func (s *Reader) Chunks(ctx context.Context, ids []int64) (map[int64]*ChunkRow, error) {
	out := make(map[int64]*ChunkRow, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.queryIn(ctx, s.chunkSelect()+` WHERE c.id`, ids)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		r, err := scanChunk(rows)
		if err != nil {
			return nil, err
		}
		out[r.RowID] = r
	}
	return out, rows.Err()
}

// DocumentChunks returns one document's chunks in order.
func (s *Reader) DocumentChunks(ctx context.Context, collection, path string) ([]*ChunkRow, error) {
	rows, err := s.r.QueryContext(ctx, s.chunkSelect()+` WHERE col.name = ? AND d.path = ? ORDER BY c.chunk_index`, collection, path)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*ChunkRow
	for rows.Next() {
		r, err := scanChunk(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Existing reports which of the chunk ids are still stored.
func (s *Reader) Existing(ctx context.Context, ids []int64) (map[int64]bool, error) {
	out := make(map[int64]bool, len(ids))
	for start := 0; start < len(ids); start += 500 {
		part := ids[start:min(start+500, len(ids))]
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		rows, err := s.r.QueryContext(ctx, `SELECT id FROM chunks WHERE id IN (?`+strings.Repeat(",?", len(part)-1)+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Shown is a run of a note's passages a result shows: chunks First to
// Last of the note at Path in Collection, whose title is Title.
type Shown struct {
	Collection, Path, Title string
	First, Last             int
}

// SectionEnds is, for each run, the last line of the text after it that
// still belongs to the sections it shows: their further parts and
// subsections, up to the first passage of a section it does not show; 0
// when none follows, or the note is gone. A section whose path is the
// title alone (the note's title heading, over every other) goes on to
// the next top heading, where the note has another, else to the note's
// end where the run shows no other section: reading the title's section
// reads the whole note, and a result showing its own text alone says so.
func (s *Reader) SectionEnds(ctx context.Context, runs []Shown) ([]int, error) {
	ends := make([]int, len(runs))
	for i, r := range runs {
		var err error
		if ends[i], err = s.sectionEnd(ctx, r); err != nil {
			return nil, err
		}
	}
	return ends, nil
}

// sectionEnd is SectionEnds' for one run. A note's passages are written
// together, in order, so rowid order is theirs, which the index on
// doc_id gives unsorted: the read stops at the first passage past the
// sections (or out of order, where the end is not known further). A
// passage after the run goes on in a section it shows when it is a
// further part of one (its section, or the section the run ends in,
// continued), or a subsection of one: its path extends a path shown
// (a later section of the same heading, "## Tasks" twice, is another).
func (s *Reader) sectionEnd(ctx context.Context, r Shown) (int, error) {
	// The sections a passage covers, stored after its text, are read for
	// the passages shown alone: the text's overflow pages cost the rest.
	rows, err := s.query(ctx, `SELECT c.doc_id, c.chunk_index, c.section_id, s.heading_level, s.section_path,
		CASE WHEN c.chunk_index <= ? THEN c.sections END, c.end_line
		FROM chunks c JOIN sections s ON s.id = c.section_id
		WHERE c.doc_id = (SELECT d.id FROM documents d JOIN collections col ON col.id = d.collection_id WHERE col.name = ? AND d.path = ?)
		AND c.chunk_index >= ? ORDER BY c.id`, r.Last, r.Collection, r.Path, r.First)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var sh shownSections
	end, next := 0, r.First
	// The text under a title heading shown ends at another top heading
	// (a note of several): till one comes, its end is not known.
	underTitle, tops := 0, 0 // tops: the note's top headings, counted once needed
	for rows.Next() {
		var index, level, endLine int
		var doc, section int64
		var own string
		var covered sql.NullString
		if err := rows.Scan(&doc, &index, &section, &level, &own, &covered, &endLine); err != nil {
			return 0, err
		}
		if index != next {
			break
		}
		next++
		var p []string
		json.Unmarshal([]byte(own), &p)
		if index <= r.Last {
			sh.add(section, level, p, covered, r.Title)
			continue
		}
		if !sh.holds(section, p, index == r.Last+1) {
			if sh.underTitle(p) {
				if tops == 0 {
					if err := s.queryRow(ctx, `SELECT count(*) FROM sections WHERE doc_id = ? AND heading_level = 1`, doc).Scan(&tops); err != nil {
						return 0, err
					}
				}
				if tops < 2 { // the title's section is the whole note
					return s.wholeNoteEnd(ctx, doc, end, len(sh.paths) == 0)
				}
				underTitle = endLine
				continue
			}
			if underTitle > 0 { // another top heading: the title's section ends before it
				end = max(end, underTitle)
			}
			break
		}
		end = endLine
	}
	return end, rows.Err()
}

// wholeNoteEnd is sectionEnd's answer where the title's section, the
// whole note, goes on past the run: end as read so far, or the note's
// last line where the run shows the title's own text alone, whose read
// is the whole note. One that shows other sections too names them, and
// whoever reads those reads no further.
func (s *Reader) wholeNoteEnd(ctx context.Context, doc int64, end int, alone bool) (int, error) {
	if !alone {
		return end, nil
	}
	var last int
	// Its last passage, the last written (rowid order is the note's): found
	// from the doc_id index's end, not by reading every passage.
	err := s.queryRow(ctx, `SELECT end_line FROM chunks WHERE doc_id = ? ORDER BY id DESC LIMIT 1`, doc).Scan(&last)
	return max(end, last), err
}

// shownSections are the sections a run of passages shows: their own
// sections' ids, the paths whose subsections belong to them, and the
// section a merged passage ends in.
type shownSections struct {
	ids   []int64
	paths [][]string
	last  []string
	title []string // the note's title heading, shown
}

// add records a shown passage: its own section (id, heading level and
// path) and the paths it covers. A note's title heading (level 1, named
// as the note; or merged into the text before it) holds the whole note:
// its path is no section whose subsections follow.
func (sh *shownSections) add(id int64, level int, own []string, covered sql.NullString, title string) {
	sh.ids = append(sh.ids, id)
	paths := [][]string{own}
	if covered.Valid {
		json.Unmarshal([]byte(covered.String), &paths)
	}
	for i, q := range paths {
		titled := len(q) == 1 && strings.EqualFold(q[0], title) && (i == 0 && level == 1 || i > 0 && len(own) == 0)
		if titled {
			sh.title = q
		} else if len(q) > 0 {
			sh.paths = append(sh.paths, q)
		}
	}
	// A passage that merged short sections into the next goes on in that
	// one's further parts, whose section is the one it ends in.
	sh.last = nil
	if n := len(paths); n > 1 && len(paths[n-1]) > 0 {
		sh.last = paths[n-1]
	}
}

// underTitle reports whether a passage's path is under the title
// heading the run shows.
func (sh *shownSections) underTitle(p []string) bool {
	return sh.title != nil && len(p) > len(sh.title) && slices.Equal(p[:len(sh.title)], sh.title)
}

// holds reports whether a passage after the run (its section's id and
// path) goes on in a section the run shows; first: it is the next one,
// which may go on in the section the run ends in.
func (sh *shownSections) holds(id int64, p []string, first bool) bool {
	if slices.Contains(sh.ids, id) || first && sh.last != nil && slices.Equal(p, sh.last) {
		return true
	}
	return slices.ContainsFunc(sh.paths, func(q []string) bool { return len(p) > len(q) && slices.Equal(p[:len(q)], q) })
}
