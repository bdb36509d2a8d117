package chunks

import (
	"iter"
	"strconv"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/internal/swar"
	"github.com/mdsearch/mdsearch/internal/wordcount"
	"github.com/mdsearch/mdsearch/sections"
)

// Split cuts doc into passages (Chunks), in document order, and each
// passage into windows. Passages are cut as chunks are, with the reading
// budget opts.PassageWords counted in words and no overlap; windows are cut
// within each passage with the model's budget opts.MaxTokens and counter,
// overlapping by about opts.Overlap. Chunk.Text is the exact source slice
// [StartByte, EndByte) (invalid UTF-8 shown as U+FFFD); a window's
// EmbedText is "[Title > Heading > …] " + its text, where a window that
// starts inside a table's rows also gets the table's header rows between
// the prefix and the text.
func Split(doc *sections.Document, opts Options) []mdsearch.Chunk {
	opts = opts.withDefaults()
	props := propertiesDoc(doc)
	ownProps := props == doc // the passages are not the properties
	doc = props
	po := opts // defaults applied: zero values now mean none
	po.MaxTokens, po.Counter, po.Overlap = opts.PassageWords, embed.Words{}, 0
	ps := newSplitter(doc, po, nil, nil)
	ps.passages = true
	ps.out = make([]mdsearch.Chunk, 0, len(doc.Src)/2048+1)
	ps.run(ps.sectionPieces())

	ws := newSplitter(doc, opts, ps.codeLeftOut(), ps.fullPrefix)
	if ws.ranges != nil {
		defer ws.ranges.Release()
	}
	wp := ws.sectionPieces()
	tokens := make(map[[2]int]int, len(doc.Sections)*4)
	for _, sec := range wp {
		for _, p := range sec {
			tokens[[2]int{p.start, p.end}] = p.tokens
		}
	}
	for i := range ps.out {
		c := &ps.out[i]
		c.ChunkIndex, c.TotalChunks = i, len(ps.out)
		c.ID = doc.Path + "#" + strconv.Itoa(i)
		c.Windows = ws.windows(ps.from[i], c, tokens)
	}
	if len(ps.out) > 0 && ownProps {
		ps.out[0].Properties = firstWords(doc.PropertyText(), opts.PassageWords)
	}
	return ps.out
}

// SplitWith cuts doc with cut, a profile of another package (index's
// fixed windows), held to what every profile's passages share: a note of
// properties alone is one passage of its frontmatter, as Split cuts it,
// and the first passage carries the note's property values (Properties),
// which its keyword row holds.
func SplitWith(doc *sections.Document, opts Options, cut func(*sections.Document, Options) []mdsearch.Chunk) []mdsearch.Chunk {
	if propertiesDoc(doc) != doc {
		return Split(doc, opts)
	}
	out := cut(doc, opts)
	if len(out) > 0 {
		out[0].Properties = firstWords(doc.PropertyText(), opts.withDefaults().PassageWords)
	}
	return out
}

// windows cuts passage c of unit u into the model's windows.
func (s *splitter) windows(u *unit, c *mdsearch.Chunk, tokens map[[2]int]int) []mdsearch.Window {
	sub := s.crop(u, c.StartByte, c.EndByte, tokens)
	defer func() { s.elided = append(s.elided[:0], s.hidden...) }()
	if sub == nil {
		return []mdsearch.Window{}
	}
	s.out, s.winBuf = s.out[:0], s.winBuf[:0]
	s.pack(sub)
	out := make([]mdsearch.Window, len(s.out), len(s.out)+1)
	for i := range s.out {
		out[i] = s.out[i].Windows[0]
	}
	out = s.dropEmpty(out)
	for i := range out {
		out[i].TextStart = s.textOffset(c, out[i].StartByte)
	}
	if w, ok := s.headingWindow(u, c); ok {
		out = append(out, w)
	}
	return out
}

// dropEmpty leaves out the windows with nothing to embed: at a budget
// of a few tokens a cut can leave a window of a comment alone ("%%…%%",
// "<!-- … -->"), or of a code block's lines past CodeLines, which would
// embed the heading path alone. A comment may lie between windows; code
// the model does not read is still text of the passage, so the window
// before takes its range, which adds nothing to what it embeds.
func (s *splitter) dropEmpty(ws []mdsearch.Window) []mdsearch.Window {
	out := ws[:0]
	for _, w := range ws {
		switch {
		case s.holdsText(w.StartByte, w.EndByte):
			out = append(out, w)
		case len(out) > 0 && s.unreadCode(out[len(out)-1].EndByte, w.EndByte):
			out[len(out)-1].EndByte = w.EndByte
		}
	}
	if len(out) == 0 {
		return ws[:len(ws):len(ws)] // nothing but comments: as it was cut
	}
	return out
}

// unreadCode reports whether [start, end) holds text and every byte of
// it but white space is left out of the embed text and none hidden: code
// past CodeLines, a long run's tail.
func (s *splitter) unreadCode(start, end int) bool {
	if trimRight(s.src, start, end) == start { // white space alone
		return false
	}
	for _, h := range within(s.hidden, start, end) {
		if a := max(start, h[0]); trimRight(s.src, a, min(end, h[1])) > a {
			return false // hidden text
		}
	}
	read := false // text the embed text holds
	s.segments(start, end, func(a, b int) { read = read || trimRight(s.src, a, b) > a })
	return !read
}

// holdsText reports whether [start, end) holds text outside the hidden
// ranges.
func (s *splitter) holdsText(start, end int) bool {
	held := false
	s.segments(start, end, func(int, int) { held = true })
	return held
}

// headingWindow is the window of a passage's heading path alone, "[Title >
// Section > Sub]": a question that names a section matches it best, while
// the text windows speak for the body. None for a passage without a title
// or heading.
func (s *splitter) headingWindow(u *unit, c *mdsearch.Chunk) (mdsearch.Window, bool) {
	own, _ := u.label(c.StartByte, c.EndByte, true)
	head := strings.TrimSpace(s.prefix(own))
	if head == "" {
		return mdsearch.Window{}, false
	}
	return mdsearch.Window{StartByte: c.StartByte, EndByte: c.StartByte, EmbedText: head, Heading: true,
		TokenCount: s.countString(head) + s.overhead, Hash: s.hash(head)}, true
}

// textOffset is the offset in c.Text of source offset pos. Text shows
// invalid UTF-8 as U+FFFD and leaves inline comments out, so only then are
// offsets counted in it.
func (s *splitter) textOffset(c *mdsearch.Chunk, pos int) int {
	if len(c.Text) == c.EndByte-c.StartByte {
		return pos - c.StartByte
	}
	return len(s.doc.PassageText(c.StartByte, pos))
}

// crop is unit u restricted to [start, end), its pieces counted with this
// splitter's counter (tokens holds the counts of whole pieces). It sets
// the ranges of code the windows leave out.
func (s *splitter) crop(u *unit, start, end int, tokens map[[2]int]int) *unit {
	// One passage's windows are cut at a time: its unit reuses the last.
	sub := &s.crop1
	*sub = unit{id: u.id, pieces: sub.pieces[:0], members: sub.members[:0]}
	s.elided = s.elided[:0]
	for q := range clip(u.pieces, start, end) {
		cut := s.codeCut(q)
		runs := len(s.elided)
		s.elided = appendLongRuns(s.elided, s.src, q.start, cut)
		if cut < q.end {
			s.elided = append(s.elided, [2]int{cut, q.end})
		}
		q.tokens = 0
		if len(s.elided) > runs {
			q.tokens = -1 // counted below, once every range left out is known
		}
		sub.pieces = append(sub.pieces, q)
	}
	if len(sub.pieces) == 0 {
		return nil
	}
	s.elided = sections.MergeRanges(s.elided, within(s.hidden, start, end))
	for i := range sub.pieces {
		q := &sub.pieces[i]
		if t, ok := tokens[[2]int{q.start, q.end}]; ok && q.tokens == 0 {
			q.tokens = t
		} else {
			q.tokens = s.count(q.start, q.end)
		}
	}
	for _, m := range u.members {
		if m.end <= start || m.start >= end {
			continue
		}
		sub.members = append(sub.members, member{sec: m.sec, start: max(m.start, start), end: min(m.end, end), after: m.after})
	}
	if len(sub.members) == 0 {
		sub.members = append(sub.members, member{sec: u.id, start: sub.start(), end: sub.end()})
	}
	return sub
}

// clip is the pieces that meet [start, end), cut to it.
func clip(pieces []piece, start, end int) iter.Seq[piece] {
	return func(yield func(piece) bool) {
		for _, p := range pieces {
			if p.end <= start || p.start >= end {
				continue
			}
			p.start, p.end = max(p.start, start), min(p.end, end)
			if !yield(p) {
				return
			}
		}
	}
}

// codeCut is where the windows stop reading piece q: past its first
// CodeLines lines when it is code, else its end.
func (s *splitter) codeCut(q piece) int {
	if q.kind != sections.Code || s.opts.CodeLines <= 0 {
		return q.end
	}
	return lineEnd(s.src, q.start, q.end, s.opts.CodeLines)
}

// Runs of ASCII without white space over LongRun bytes (an embedded
// base64 image, a long playground URL, a minified line) are read by the
// model only for their first KeepRun bytes: the rest is left out of
// EmbedText as code tails are, so a megabyte of base64 is one window, not
// thousands. Keyword search and the passage's Text keep all of it. Text
// in scripts without spaces (Chinese, Japanese) is not ASCII and is read
// whole.
const (
	LongRun = 512
	KeepRun = 64
)

// appendLongRuns appends to elided the part past KeepRun of every long
// ASCII word in src[start:end], in order. A word over LongRun bytes holds
// one of every LongRun/2-th byte, so only those are looked at, and the
// words around them.
func appendLongRuns(elided [][2]int, src []byte, start, end int) [][2]int {
	const step = LongRun / 2
	for p := start + step; p < end; p += step {
		if isSpace(src[p]) {
			continue
		}
		a, b := p, p+1
		for a > start && !isSpace(src[a-1]) {
			a--
		}
		for b < end && !isSpace(src[b]) {
			b++
		}
		if b-a > LongRun && swar.ASCII(src[a:b]) {
			elided = append(elided, [2]int{a + KeepRun, b})
		}
		p = b // the next word holding a probe starts after this one
	}
	return elided
}

// hasLongRun reports whether src[start:end] holds a run appendLongRuns
// elides.
func hasLongRun(src []byte, start, end int) bool {
	var one [1][2]int
	return len(appendLongRuns(one[:0], src, start, end)) > 0
}

// codeLeftOut is, for the passages cut, every range their windows leave
// out (crop's elided ranges: code past its first lines, long runs past
// KeepRun), in order. No window counts text in them, so the window
// splitter's counter need not prepare them: a 9 MB run took hundreds of
// megabytes to prepare for the 64 bytes the model reads.
func (s *splitter) codeLeftOut() [][2]int {
	var out [][2]int
	for i, c := range s.out {
		for q := range clip(s.from[i].pieces, c.StartByte, c.EndByte) {
			cut := s.codeCut(q)
			out = appendLongRuns(out, s.src, q.start, cut)
			if cut < q.end {
				out = append(out, [2]int{cut, q.end})
			}
		}
	}
	return out
}

// lineEnd is where the text of the n-th line of src[start:end] ends (its
// trailing blanks left out), or end when there are fewer lines.
func lineEnd(src []byte, start, end, n int) int {
	for i := start; i < end; i++ {
		if src[i] == '\n' {
			if n--; n == 0 {
				return trimRight(src, start, i)
			}
		}
	}
	return end
}

// NoteWords is a note's word count as results show it ("page N words")
// and reads and outlines count it: its body's (comments left out, as a
// read shows it), or for a note of properties alone (propertiesDoc) that
// of its properties, the one passage it has, so that no note that reads as
// text counts 0 words.
func NoteWords(doc *sections.Document) int {
	if doc.WordCount > 0 {
		return doc.WordCount
	}
	if p := propertiesDoc(doc); p != doc {
		return p.Sections[0].Words
	}
	return 0
}

// firstWords is s cut after its first n words (n > 0): a note's property
// values count for its first passage at most as a passage's text would,
// so a huge frontmatter (an imported bibliography, a plugin's data) does
// not drown the passage's own words in the keyword index's length norm.
func firstWords(s string, n int) string {
	if n <= 0 {
		return s
	}
	return s[:wordcount.End(s, n)]
}

// propertiesDoc stands in for a note whose body is blank but whose
// frontmatter is not (a person, a book: a note of properties alone) with
// one section of its frontmatter's text, so that the note has a passage to
// be found by: its title, aliases and tags, and the properties themselves.
// Any other note is returned as it is.
func propertiesDoc(doc *sections.Document) *sections.Document {
	if !bodyless(doc) {
		return doc
	}
	start := skipSpace(doc.Src, doc.FrontmatterStart, doc.FrontmatterEnd)
	end := trimRight(doc.Src, start, doc.FrontmatterEnd)
	if start >= end {
		return doc
	}
	d := *doc
	words := wordcount.Count(doc.Src[start:end])
	d.Sections = []sections.Section{{Parent: -1, StartByte: start, BodyStart: start, BodyEnd: end, EndByte: end,
		Path: []string{}, BodyWords: words, Words: words,
		Blocks: []sections.Block{{Kind: sections.Other, StartByte: start, EndByte: end, Words: words}}}}
	return &d
}

// bodyless reports whether a note has no heading and no text outside
// comments: nothing a passage could hold.
func bodyless(doc *sections.Document) bool {
	for _, sec := range doc.Sections {
		if sec.Level > 0 {
			return false
		}
		for _, b := range sec.Blocks {
			if b.Kind != sections.Comment {
				return false
			}
		}
	}
	return true
}
