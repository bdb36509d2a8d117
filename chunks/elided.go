package chunks

import (
	"sort"
)

// Ranges of source that counts and embed texts leave out (splitter.elided):
// what no passage's Text holds either (sections.Document.LeftOut:
// comments, attribute lines under headings, blocks of HTML anchors) and,
// for the passage being cut into windows, the code and long runs the
// model does not read. They are kept in order and apart, so each lookup
// is a binary search.

// within is the ranges of rs (in order, apart) that meet [start, end).
func within(rs [][2]int, start, end int) [][2]int {
	i := sort.Search(len(rs), func(i int) bool { return rs[i][1] > start })
	j := sort.Search(len(rs), func(j int) bool { return rs[j][0] >= end })
	return rs[i:max(i, j)]
}

// firstElided is the index of the first elided range that ends after pos.
func (s *splitter) firstElided(pos int) int {
	return sort.Search(len(s.elided), func(i int) bool { return s.elided[i][1] > pos })
}

// segments calls f on the non-empty parts of [start, end) outside the
// elided ranges, in order.
func (s *splitter) segments(start, end int, f func(start, end int)) {
	for _, e := range s.elided[s.firstElided(start):] {
		if e[0] >= end {
			break
		}
		if e[0] > start {
			f(start, e[0])
		}
		start = e[1]
	}
	if start < end {
		f(start, end)
	}
}

// elidedAt reports whether offset pos lies strictly inside an elided range
// or at its end: a cut there would leave an atom with nothing to embed.
func (s *splitter) elidedAt(pos int) bool {
	i := s.firstElided(pos - 1) // the first range ending at pos or later
	return i < len(s.elided) && s.elided[i][0] < pos
}

// elidedPast is the end of the elided range that holds offset pos
// strictly inside it; ok is false when none does.
func (s *splitter) elidedPast(pos int) (end int, ok bool) {
	if i := s.firstElided(pos); i < len(s.elided) && s.elided[i][0] < pos {
		return s.elided[i][1], true
	}
	return 0, false
}
