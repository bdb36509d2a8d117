package sections

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch"
)

// outline lists every section, the text before the first heading
// included when it has words.
func (d *Document) outline() []mdsearch.OutlineEntry {
	return d.outlineOf(0, len(d.Sections))
}

// subsections lists the sections below s (its children, theirs, and so
// on), as outline entries.
func (d *Document) subsections(s *Section) []mdsearch.OutlineEntry {
	end := s.Index + 1
	for end < len(d.Sections) && d.Sections[end].Level > s.Level && s.Level > 0 {
		end++
	}
	return d.outlineOf(s.Index+1, end)
}

// outlineOf lists sections [from, to) as outline entries.
func (d *Document) outlineOf(from, to int) []mdsearch.OutlineEntry {
	out := make([]mdsearch.OutlineEntry, 0, to-from)
	names := d.names()
	for i := from; i < to; i++ {
		s := d.Sections[i]
		if s.Level == 0 && s.Words == 0 {
			continue // no text before the first heading
		}
		out = append(out, mdsearch.OutlineEntry{Level: s.Level, Heading: s.Heading, Anchor: s.ID,
			SectionPath: s.Path, Section: names[i], StartLine: s.StartLine, EndLine: s.EndLine, WordCount: s.Words,
			Tokens: mdsearch.ReadingTokens(s.Words, d.shownLen(s.StartByte, d.ShownEnd(s.StartByte, s.EndByte)))})
	}
	return out
}

// names is, for each section, the shortest query find reads it by: its
// heading, when no other heading reads the same; else its path joined with
// '/'; else, where paths repeat, its "#anchor". An outline so names each
// section once, not by a path that repeats every heading above it.
func (d *Document) names() []string {
	forms := d.forms()
	headings := make(map[string]int, len(d.Sections))
	for i := range d.Sections {
		headings[forms[i].heading]++
	}
	byID := d.byID()
	names := make([]string, len(d.Sections))
	check := len(d.Sections) <= maxChecked
	for i, s := range d.Sections {
		path := strings.Join(s.Path, "/")
		switch {
		case s.Level == 0:
			names[i] = Preamble
		case byID[i]:
			names[i] = "#" + s.ID
		case headings[forms[i].heading] == 1 && (!check || d.finds(s.Heading, i, forms)):
			names[i] = s.Heading
		default:
			names[i] = path
		}
	}
	return names
}

// byID reports, for each section, whether read must name it by its
// "#id": its heading is empty (its path reads as "/" or "A/"), or another
// section's path joined with '/' reads the same ("## TCP/IP" beside
// "## TCP" > "### IP", or one heading twice under one parent).
func (d *Document) byID() []bool {
	out := make([]bool, len(d.Sections))
	hs := make([]uint64, len(d.Sections))
	for i, s := range d.Sections {
		hs[i] = pathHash(s.Path)
	}
	for i, s := range d.Sections {
		if s.Level == 0 || s.ID == "" {
			continue
		}
		out[i] = strings.TrimSpace(s.Heading) == "" || d.sharedPath(i, hs)
	}
	return out
}

// sharedPath reports whether another section's path joined with '/' reads
// as section i's, ignoring case; hs are the paths' hashes (pathHash), so
// that only paths that hash alike are joined and compared. Chunking asks
// this of every note, so most notes allocate nothing more.
func (d *Document) sharedPath(i int, hs []uint64) bool {
	var own string
	for j := range d.Sections {
		if j == i || hs[j] != hs[i] {
			continue
		}
		if own == "" {
			own = strings.ToLower(strings.Join(d.Sections[i].Path, "/"))
		}
		if strings.ToLower(strings.Join(d.Sections[j].Path, "/")) == own {
			return true
		}
	}
	return false
}

// pathHash is FNV-1a of a path joined with '/', each rune lower-cased.
func pathHash(path []string) uint64 {
	h := uint64(14695981039346656037)
	mix := func(b byte) { h = (h ^ uint64(b)) * 1099511628211 }
	for k, head := range path {
		if k > 0 {
			mix('/')
		}
		for _, r := range head {
			if r < utf8.RuneSelf {
				if 'A' <= r && r <= 'Z' {
					r += 'a' - 'A'
				}
				mix(byte(r))
				continue
			}
			r = unicode.ToLower(r)
			mix(byte(r >> 16))
			mix(byte(r >> 8))
			mix(byte(r))
		}
	}
	return h
}

// maxChecked bounds the sections whose names are each checked with find,
// which reads every section: past it a heading no other reads the same is
// trusted to name its own (a path elsewhere would have to read as it).
const maxChecked = 300

// finds reports whether query reads section i.
func (d *Document) finds(query string, i int, forms []pathForms) bool {
	s, _, err := d.findIn(query, forms, false)
	return err == nil && s.Index == i
}
