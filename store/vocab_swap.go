package store

import (
	"context"
	"slices"
	"strings"
)

// swappedStems adds to cands the indexed stems of word with two
// neighbouring letters swapped back, each one edit away: a swap near its
// end can move the word's stem far from the right word's ("hotkyes" stems
// to "hotky", two edits from "hotkei", the stem of "hotkeys"), so
// nearStems, which compares stems, misses it. A stem cands holds already
// is kept as it is.
func (s *Reader) swappedStems(ctx context.Context, word, stem string, cands []near) ([]near, error) {
	r := []rune(word)
	var swaps []string
	for i := 0; i+1 < len(r); i++ {
		if r[i] == r[i+1] {
			continue
		}
		w := slices.Clone(r)
		w[i], w[i+1] = w[i+1], w[i]
		swaps = append(swaps, string(w))
	}
	if len(swaps) == 0 {
		return cands, nil
	}
	stems, err := Stems(ctx, swaps)
	if err != nil {
		return nil, err
	}
	var want []string
	for _, st := range stems {
		if st != stem && !slices.Contains(want, st) && !slices.ContainsFunc(cands, func(c near) bool { return c.stem == st }) {
			want = append(want, st)
		}
	}
	if len(want) == 0 {
		return cands, nil
	}
	args := make([]any, len(want))
	for i, w := range want {
		args[i] = w
	}
	rows, err := s.r.QueryContext(ctx, `SELECT term, doc FROM chunks_vocab WHERE term IN (?`+strings.Repeat(", ?", len(want)-1)+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var found []near
	for rows.Next() {
		c := near{distance: 1, stemNear: true}
		if err := rows.Scan(&c.stem, &c.rows); err != nil {
			return nil, err
		}
		found = append(found, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Nearest first, as Respell reads them: a swap is one edit.
	out := append(slices.Clone(cands), found...)
	slices.SortStableFunc(out, func(a, b near) int { return a.distance - b.distance })
	return out, nil
}
