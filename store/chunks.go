package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
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
