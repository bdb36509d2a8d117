package store

import (
	"context"
	"errors"
)

// KeywordSegments is how many segments the keyword index (FTS5) holds. A
// write adds one, which FTS5 merges with others only in part as writes
// come (17 after a first index of the Rust RFCs), and a term's lookup
// seeks in every one of them.
func (s *Store) KeywordSegments(ctx context.Context) (int, error) {
	var block []byte
	err := s.w.QueryRowContext(ctx, `SELECT block FROM chunks_fts_data WHERE id = 10`).Scan(&block)
	if err != nil {
		return 0, err
	}
	return segmentCount(block)
}

// segmentCount reads the segment count from FTS5's structure record: a
// 4-byte cookie, the 4-byte mark of the record's second version (which
// contentless_delete tables write), then varints: levels, segments.
func segmentCount(block []byte) (int, error) {
	if len(block) < 8 || string(block[4:8]) != "\xff\x00\x00\x01" {
		return 0, errors.New("store: unknown FTS5 structure record")
	}
	b := block[8:]
	_, n := varint(b) // levels
	if n == 0 {
		return 0, errors.New("store: short FTS5 structure record")
	}
	segs, m := varint(b[n:])
	if m == 0 {
		return 0, errors.New("store: short FTS5 structure record")
	}
	return int(segs), nil
}

// OptimizeKeywords merges the keyword index's segments into one: merged,
// a keyword list reads in about two thirds of the time (docs/benchmarks.md,
// "Keyword index merged"). It rewrites the whole keyword index, about
// 0.2 s at 47,000 windows and 5 s at a million, in one transaction that
// an interruption rolls back.
func (s *Store) OptimizeKeywords(ctx context.Context) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')`)
	return err
}

// PassageCount is how many passages the index holds.
func (s *Store) PassageCount(ctx context.Context) (int, error) {
	var n int
	err := s.w.QueryRowContext(ctx, `SELECT count(*) FROM chunks`).Scan(&n)
	return n, err
}
