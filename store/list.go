package store

import (
	"context"
	"slices"
)

// Listed is a note's first passage, as a list of notes shows it.
type Listed struct {
	ChunkID, DocID, SectionID int64
}

// listFrom is what ListNotes and CountNotes read: each note by its first
// passage, under the filter's conditions on documents d.
const listFrom = ` FROM documents d JOIN chunks c ON c.doc_id = d.id AND c.chunk_index = 0 WHERE `

// CountNotes is how many notes f keeps, as ListNotes counts them.
func (s *Reader) CountNotes(ctx context.Context, f Filter) (int, error) {
	cond, args := f.where()
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT count(*)`+listFrom+cond, args...).Scan(&n)
	return n, err
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
// most limit of them after the first offset, and how many notes f keeps
// in all: a request without words lists notes rather than ranking
// passages. A note without passages (empty) is not counted.
func (s *Reader) ListNotes(ctx context.Context, f Filter, o Order, limit, offset int) ([]Listed, int, error) {
	total, err := s.CountNotes(ctx, f)
	if err != nil || total == 0 {
		return nil, total, err
	}
	cond, args := f.where()
	rows, err := s.r.QueryContext(ctx, `SELECT c.id, c.doc_id, c.section_id`+listFrom+cond+o.orderBy("")+` LIMIT ? OFFSET ?`,
		append(slices.Clip(args), limit, offset)...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []Listed
	for rows.Next() {
		var l Listed
		if err := rows.Scan(&l.ChunkID, &l.DocID, &l.SectionID); err != nil {
			return nil, 0, err
		}
		out = append(out, l)
	}
	return out, total, rows.Err()
}

// EmptyNotes are the notes f keeps that hold no passage (empty, or
// frontmatter alone), which ListNotes leaves out: at most limit of their
// paths, by path, and how many there are.
func (s *Reader) EmptyNotes(ctx context.Context, f Filter, limit int) ([]string, int, error) {
	cond, args := f.where()
	from := ` FROM documents d WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.doc_id = d.id) AND ` + cond
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*)`+from, args...).Scan(&n); err != nil || n == 0 {
		return nil, n, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT d.path`+from+ByPath.orderBy("")+` LIMIT ?`, append(slices.Clip(args), limit)...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var paths []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, 0, err
		}
		paths = append(paths, p)
	}
	return paths, n, rows.Err()
}
