package chunks

import (
	"bytes"
	"sort"

	"github.com/mdsearch/mdsearch/internal/wordcount"
	"github.com/mdsearch/mdsearch/sections"
)

// heading marks a piece that is a heading line: it is glued to what follows
// so that no chunk is a bare heading.
const heading sections.BlockKind = -1

// piece is a heading or a block with its token count (counter overhead
// excluded), counted once.
type piece struct {
	start, end int
	tokens     int
	kind       sections.BlockKind
	block      *sections.Block // the block, for tables
}

// member is a section (or h2h3 group) folded into a unit: the unit's own,
// or a stub merged forward into it. start and end bound its text.
type member struct {
	sec        *sections.Section
	start, end int
	// after marks a heading with nothing under it that joined the unit
	// before it (keep): a window is not labelled with it.
	after bool
}

// unit is a run of text that chunks never cross: a section's own body in
// the sections profile, an H1/H2 section (or an H3 part of one) in h2h3, or
// such a run with stubs merged in front of it.
type unit struct {
	id      *sections.Section // whose path and level the chunks carry
	pieces  []piece
	members []member  // in document order; id's own member last but for keep's
	words   int       // words after the first heading, for the stub rule
	own     [1]member // members' first array, saving an allocation
}

func (u *unit) start() int { return u.pieces[0].start }
func (u *unit) end() int   { return u.pieces[len(u.pieces)-1].end }

// pieceAt returns the piece holding offset pos, or nil.
func (u *unit) pieceAt(pos int) *piece {
	i := sort.Search(len(u.pieces), func(i int) bool { return u.pieces[i].end > pos })
	if i < len(u.pieces) && u.pieces[i].start <= pos {
		return &u.pieces[i]
	}
	return nil
}

func (u *unit) tokens() int {
	n := 0
	for _, p := range u.pieces {
		n += p.tokens
	}
	return n
}

// sectionPieces returns each section's heading and blocks, counted.
func (s *splitter) sectionPieces() [][]piece {
	out := make([][]piece, len(s.doc.Sections))
	n := 0
	for i := range s.doc.Sections {
		n += len(s.doc.Sections[i].Blocks) + 1
	}
	all := make([]piece, 0, n) // one allocation for every section's pieces
	for i := range s.doc.Sections {
		sec := &s.doc.Sections[i]
		ps := all[len(all) : len(all) : len(all)+len(sec.Blocks)+1]
		if sec.Level > 0 {
			end := trimRight(s.src, sec.StartByte, sec.BodyStart)
			ps = append(ps, piece{start: sec.StartByte, end: end, kind: heading, tokens: s.count(sec.StartByte, end)})
		}
		for j := range sec.Blocks {
			b := &sec.Blocks[j]
			if trimRight(s.src, b.StartByte, b.EndByte) == b.StartByte {
				continue // form feeds and the like: text to CommonMark, white space here
			}
			p := piece{start: b.StartByte, end: b.EndByte, kind: b.Kind, block: b, tokens: b.Words}
			if b.Kind == sections.LinkDef { // no word shown, but its text fills a passage as words
				p.tokens = wordcount.Count(s.src[b.StartByte:b.EndByte])
			}
			// Code the windows read only in part, and a block with a long
			// run, are counted where crop cuts them: a count of all of it
			// would never be read.
			if !s.words && s.codeCut(p) == p.end && !hasLongRun(s.src, p.start, p.end) {
				p.tokens = s.count(b.StartByte, b.EndByte)
			}
			ps = append(ps, p)
		}
		out[i] = ps[:len(ps):len(ps)] // an append never runs into the next section's
		all = all[:len(all)+len(ps)]
	}
	return out
}

// units groups the sections by profile and merges stubs forward.
func (s *splitter) units(pieces [][]piece) []*unit {
	var us []*unit
	if s.opts.Profile == ProfileH2H3 {
		us = s.h2h3Units(pieces)
	} else {
		for i := range s.doc.Sections {
			if u := s.group(pieces, i, i+1); u != nil {
				us = append(us, u)
			}
		}
	}
	return s.mergeStubs(s.cutComments(us))
}

// BigComment is the most lines a comment of whole lines may have for a
// passage to run across it: its lines show blank in the passage's text
// (a result's lines are the note's), and a hidden draft or a drawing's
// data of thousands of lines would fill a result with them.
const BigComment = 10

// cutComments cuts every unit at its big comments (over BigComment
// lines), and trims the comments (sections.Comment) at each part's edges,
// dropping a part of comments alone: a passage holds no comment's text
// (sections.Document.LeftOut), so it starts and ends at text. A smaller
// comment inside a unit stays in its passage's range, its lines blank, as
// an HTML comment does: a heading with a comment under it keeps its text.
func (s *splitter) cutComments(us []*unit) []*unit {
	if len(s.comments()) == 0 {
		return us
	}
	out := make([]*unit, 0, len(us))
	for _, u := range us {
		start := 0
		for i := 0; i <= len(u.pieces); i++ {
			if i < len(u.pieces) && !s.big(u.pieces[i]) {
				continue
			}
			if v := s.part(u, trimmed(u.pieces[start:i:i])); v != nil {
				out = append(out, v)
			}
			start = i + 1
		}
	}
	return out
}

// big reports whether p is a comment over BigComment lines.
func (s *splitter) big(p piece) bool {
	return p.kind == sections.Comment && s.bigRange(p.start, p.end)
}

// bigRange reports whether [start, end) spans over BigComment lines.
func (s *splitter) bigRange(start, end int) bool {
	return bytes.Count(s.src[start:trimRight(s.src, start, end)], []byte{'\n'}) >= BigComment
}

// trimmed is pieces without the comments at their start and end.
func trimmed(pieces []piece) []piece {
	for len(pieces) > 0 && pieces[0].kind == sections.Comment {
		pieces = pieces[1:]
	}
	for len(pieces) > 0 && pieces[len(pieces)-1].kind == sections.Comment {
		pieces = pieces[:len(pieces)-1]
	}
	return pieces
}

// part is the unit of u's section made of pieces, a run of u's (u itself
// when it is all of them; nil when there are none). Its words are those
// of its blocks, comments left out (sections.Block.Words), and of its
// headings after the first.
func (s *splitter) part(u *unit, pieces []piece) *unit {
	switch {
	case len(pieces) == 0:
		return nil
	case len(pieces) == len(u.pieces):
		return u
	}
	v := s.newUnit()
	v.id, v.pieces = u.id, pieces
	for k, p := range pieces {
		switch {
		case p.block != nil:
			v.words += p.block.Words
		case k > 0 && p.kind == heading:
			v.words += wordcount.Count(s.src[p.start:p.end])
		}
	}
	v.own[0] = member{sec: u.id, start: v.start(), end: v.end()}
	v.members = v.own[:]
	return v
}

// comments are the note's comments, as byte ranges in order.
func (s *splitter) comments() [][2]int {
	if s.commentList == nil {
		s.commentList = append([][2]int{}, s.doc.Comments()...) // not nil: asked once
	}
	return s.commentList
}

// bigBetween reports whether a comment over BigComment lines starts in
// [start, end): a stub merges across a smaller one only.
func (s *splitter) bigBetween(start, end int) bool {
	cs := s.comments()
	for i := sort.Search(len(cs), func(i int) bool { return cs[i][0] >= start }); i < len(cs) && cs[i][0] < end; i++ {
		if s.bigRange(cs[i][0], cs[i][1]) {
			return true
		}
	}
	return false
}

// group makes one unit of sections [from, to), owned by the first.
func (s *splitter) group(pieces [][]piece, from, to int) *unit {
	u := s.newUnit()
	u.id = &s.doc.Sections[from]
	if to == from+1 {
		u.pieces = pieces[from] // read only, and full: appends copy it
	}
	for i := from; i < to; i++ {
		if to > from+1 {
			u.pieces = append(u.pieces, pieces[i]...)
		}
		u.words += s.doc.Sections[i].BodyWords
		if i > from {
			u.words += s.doc.Sections[i].Words - s.doc.Sections[i].BodyWords // heading words
		}
	}
	if len(u.pieces) == 0 {
		return nil
	}
	u.own[0] = member{sec: u.id, start: u.start(), end: u.end()}
	u.members = u.own[:]
	return u
}

// newUnit returns a zero unit from a block allocated for a note's
// sections: units live as long as the Split call.
func (s *splitter) newUnit() *unit {
	if len(s.unitBlock) == 0 {
		s.unitBlock = make([]unit, max(len(s.doc.Sections), 4))
	}
	u := &s.unitBlock[0]
	s.unitBlock = s.unitBlock[1:]
	return u
}

// h2h3Units cuts at H1 and H2; an H1/H2 unit over budget is cut again at
// H3. H4 and deeper never cut.
func (s *splitter) h2h3Units(pieces [][]piece) []*unit {
	secs := s.doc.Sections
	var us []*unit
	for from := 0; from < len(secs); {
		// A group runs to the next H1 or H2, or, when it starts at a
		// deeper heading with none above it, to that heading's next
		// sibling: its passages are labelled by the group's heading.
		top := max(2, secs[from].Level)
		to := from + 1
		for to < len(secs) && !(secs[to].Level >= 1 && secs[to].Level <= top) {
			to++
		}
		u := s.group(pieces, from, to)
		if u != nil && u.tokens() > s.room(u.id) {
			for a := from; a < to; {
				b := a + 1
				for b < to && secs[b].Level != 3 {
					b++
				}
				if v := s.group(pieces, a, b); v != nil {
					us = append(us, v)
				}
				a = b
			}
		} else if u != nil {
			us = append(us, u)
		}
		from = to
	}
	return us
}

// mergeStubs folds a unit with fewer than StubWords words into the next
// unit when that one is at the same or a deeper level, and either both fit
// one chunk or the next must be cut anyway (the stub then leads its first
// part). A merged unit that is still a stub may merge again.
func (s *splitter) mergeStubs(us []*unit) []*unit {
	out := us[:0]
	var pending *unit
	for _, u := range us {
		if pending != nil {
			room := min(s.unitRoom(pending), s.unitRoom(u))
			next := u.tokens()
			if u.id.Level >= pending.id.Level && (pending.tokens()+next <= room || next > room) &&
				!s.bigBetween(pending.end(), u.start()) {
				u.pieces = append(pending.pieces, u.pieces...)
				u.members = append(pending.members, u.members...)
				u.words += pending.words
			} else {
				out = s.keep(out, pending)
			}
			pending = nil
		}
		if u.words < s.opts.StubWords {
			pending = u
			continue
		}
		out = append(out, u)
	}
	if pending != nil {
		out = s.keep(out, pending)
	}
	return out
}

// keep appends u, a stub that merged into no unit after it, to out. A
// heading with nothing under it (at a note's end, or before a shallower
// heading: "## See also" left empty) joins the unit before it where both
// fit one passage or that one must be cut anyway: alone it would be a
// passage of its heading's words and nothing else, which a query naming
// them ranks first with nothing to show.
func (s *splitter) keep(out []*unit, u *unit) []*unit {
	if u.words > 0 || len(out) == 0 {
		return append(out, u)
	}
	prev := out[len(out)-1]
	room := min(s.unitRoom(prev), s.unitRoom(u))
	if have := prev.tokens(); have+u.tokens() > room && have <= room || s.bigBetween(prev.end(), u.start()) {
		return append(out, u)
	}
	prev.pieces = append(prev.pieces, u.pieces...)
	for _, m := range u.members {
		m.after = true
		prev.members = append(prev.members, m)
	}
	return out
}

// unitRoom is the room left by the longest prefix a chunk of u may carry.
func (s *splitter) unitRoom(u *unit) int {
	r := s.room(u.id)
	for _, m := range u.members {
		r = min(r, s.room(m.sec))
	}
	return r
}
