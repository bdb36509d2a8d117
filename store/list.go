package store

import (
	"context"
	"slices"
)

// Listed is a note's first passage, as a list of notes shows it.
type Listed struct {
	ChunkID, DocID, SectionID int64
}

// listFrom is what ListNotes reads: each note by its first passage,
// under the filter's conditions on documents d.
const listFrom = ` FROM documents d JOIN chunks c ON c.doc_id = d.id AND c.chunk_index = 0 WHERE `

// CountNotes is how many notes f keeps, as ListNotes counts them.
func (s *Reader) CountNotes(ctx context.Context, f Filter) (int, error) {
	n, _, err := s.countNotes(ctx, f)
	return n, err
}

// countNotes is how many notes f keeps that a list can show, and how many
// more it keeps that hold no passage (empty, or frontmatter alone),
// counted from the notes alone (their chunk_count) in one pass that joins
// no passage.
func (s *Reader) countNotes(ctx context.Context, f Filter) (listed, empty int, err error) {
	cond, args := f.where()
	err = s.r.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(d.chunk_count = 0), 0) FROM documents d WHERE `+cond, args...).Scan(&listed, &empty)
	return listed - empty, empty, err
}

// Order is the order of a list: of notes (ListNotes) or of the passages
// holding a task (Boxed).
type Order int

const (
	// Unordered leaves the order to SQLite: a search needs none.
	Unordered Order = iota
	// ByPath is by collection name and path, ignoring the case of ASCII
	// letters, as Obsidian lists names.
	ByPath
	// ByModified is the notes last changed first (their files' times as
	// indexed), then ByPath.
	ByModified
)

// orderBy is the ORDER BY clause of o over documents d, "" for
// Unordered; within a note, passages come in their order (then).
func (o Order) orderBy(then string) string {
	byPath := `(SELECT name FROM collections WHERE id = d.collection_id), d.path COLLATE NOCASE, d.path` + then
	switch o {
	case ByPath:
		return ` ORDER BY ` + byPath
	case ByModified:
		return ` ORDER BY d.mtime DESC, ` + byPath
	}
	return ""
}

// ListNotes gives the first passage of each note f keeps, in order o, at
// most limit of them after the first offset, how many notes f keeps in
// all, and how many more it keeps that have no passage (empty, or
// frontmatter alone), which no list can show: a request without words
// lists notes rather than ranking passages.
func (s *Reader) ListNotes(ctx context.Context, f Filter, o Order, limit, offset int) (notes []Listed, total, empty int, err error) {
	if total, empty, err = s.countNotes(ctx, f); err != nil || total == 0 {
		return nil, total, empty, err
	}
	cond, args := f.where()
	rows, err := s.r.QueryContext(ctx, `SELECT c.id, c.doc_id, c.section_id`+listFrom+cond+o.orderBy("")+` LIMIT ? OFFSET ?`,
		append(slices.Clip(args), limit, offset)...)
	if err != nil {
		return nil, 0, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var l Listed
		if err := rows.Scan(&l.ChunkID, &l.DocID, &l.SectionID); err != nil {
			return nil, 0, 0, err
		}
		notes = append(notes, l)
	}
	return notes, total, empty, rows.Err()
}

// EmptyNotes are the paths of the notes f keeps that hold no passage,
// which ListNotes counts and leaves out: at most limit of them, by path,
// each as COLLECTION:PATH where qualified (an index of several).
func (s *Reader) EmptyNotes(ctx context.Context, f Filter, limit int, qualified bool) ([]string, error) {
	cond, args := f.where()
	path := `d.path`
	if qualified {
		path = `(SELECT name FROM collections WHERE id = d.collection_id) || ':' || d.path`
	}
	return column[string](s.r.QueryContext(ctx, `SELECT `+path+` FROM documents d WHERE d.chunk_count = 0 AND `+cond+ByPath.orderBy("")+` LIMIT ?`,
		append(slices.Clip(args), limit)...))
}
