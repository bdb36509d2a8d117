package chunks

import "github.com/mdsearch/mdsearch/internal/wordcount"

// count counts src[start:end] as display text, without the overhead and
// without the elided ranges.
func (s *splitter) count(start, end int) int {
	if len(s.elided) > 0 {
		n := 0
		s.segments(start, end, func(a, b int) { n += s.countRange(a, b) })
		return n
	}
	return s.countRange(start, end)
}

func (s *splitter) countRange(start, end int) int {
	switch {
	case s.words:
		return wordcount.Count(s.src[start:end]) // U+FFFD or not, a word is a word
	case s.ranges != nil:
		return max(0, s.ranges.CountRange("", start, end)-s.overhead)
	}
	return s.countString(s.doc.Text(start, end))
}

// countHeaded counts head followed by the display text of [start, end)
// without the elided ranges, from the note's ranges: ok is false when the
// counter does not count ranges or code is left out inside [start, end).
func (s *splitter) countHeaded(head string, start, end int) (n int, ok bool) {
	if s.ranges == nil {
		return 0, false
	}
	parts, a, b := 0, 0, 0
	s.segments(start, end, func(start, end int) { parts, a, b = parts+1, start, end })
	if parts != 1 {
		return 0, false
	}
	return s.ranges.CountRange(head, a, b), true
}

// countString counts text, without the overhead. With the note's ranges,
// a heading prefix so counted is ready for the windows that follow it.
func (s *splitter) countString(text string) int {
	if s.ranges != nil {
		return max(0, s.ranges.CountRange(text, 0, 0)-s.overhead)
	}
	return max(0, s.opts.Counter.CountTokens(text)-s.overhead)
}
