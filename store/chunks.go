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
// title alone (the note's title heading, over every other) is left out:
// its text is the whole note.
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
// sections (or out of order, where the end is not known further).
func (s *Reader) sectionEnd(ctx context.Context, r Shown) (int, error) {
	// The sections a passage covers, stored after its text, are read for
	// the passages shown alone: the text's overflow pages cost the rest.
	rows, err := s.query(ctx, `SELECT c.chunk_index, s.section_path, CASE WHEN c.chunk_index <= ? THEN c.sections END, c.end_line
		FROM chunks c JOIN sections s ON s.id = c.section_id
		WHERE c.doc_id = (SELECT d.id FROM documents d JOIN collections col ON col.id = d.collection_id WHERE col.name = ? AND d.path = ?)
		AND c.chunk_index >= ? ORDER BY c.id`, r.Last, r.Collection, r.Path, r.First)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var shown [][]string
	end, next := 0, r.First
	for rows.Next() {
		var index, endLine int
		var own string
		var covered sql.NullString
		if err := rows.Scan(&index, &own, &covered, &endLine); err != nil {
			return 0, err
		}
		if index != next {
			break
		}
		next++
		if index <= r.Last {
			shown = appendShown(shown, own, covered, r.Title)
			continue
		}
		var p []string
		json.Unmarshal([]byte(own), &p)
		if !slices.ContainsFunc(shown, func(q []string) bool { return len(p) >= len(q) && slices.Equal(p[:len(q)], q) }) {
			break
		}
		end = endLine
	}
	return end, rows.Err()
}

// appendShown appends the section paths a passage shows (covered, else
// its own), but the preamble's and title's, which hold no others.
func appendShown(shown [][]string, own string, covered sql.NullString, title string) [][]string {
	var p []string
	json.Unmarshal([]byte(own), &p)
	paths := [][]string{p}
	if covered.Valid {
		json.Unmarshal([]byte(covered.String), &paths)
	}
	for _, q := range paths {
		if len(q) > 0 && !(len(q) == 1 && strings.EqualFold(q[0], title)) {
			shown = append(shown, q)
		}
	}
	return shown
}
