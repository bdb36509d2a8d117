package sections

import (
	"cmp"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// IDs gives headings the ids a rendered page gives them, in document
// order: a custom "{#id}" as written, else the heading's letters, marks
// and digits (of any script; composed, NFC) lower-cased, with spaces, '-'
// and '_' as '-';
// an id already given gets "-1", "-2", … So two "## Setup" headings are
// "setup" and "setup-1", and either can be named.
type IDs struct {
	used map[string]bool
	next map[string]int // per base, the suffix below which every one is used
}

// NewIDs returns an empty set of ids, for one page.
func NewIDs() *IDs { return &IDs{used: map[string]bool{}, next: map[string]int{}} }

// Generate returns the next id for a heading of text.
func (ids *IDs) Generate(text string) string {
	var b strings.Builder
	for _, r := range norm.NFC.String(strings.TrimSpace(text)) { // one id for composed and decomposed text
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r): // a mark is part of its letter
			b.WriteRune(unicode.ToLower(r))
		case unicode.IsSpace(r) || r == '-' || r == '_':
			b.WriteByte('-')
		}
	}
	base := b.String()
	if base == "" {
		base = "heading"
	}
	// Suffixes are tried from where the last search for base stopped
	// (used only grows), so a note of n same-named headings takes time
	// linear in n, not quadratic.
	id := base
	for i := max(ids.next[base], 1); ids.used[id]; i++ {
		id = base + "-" + strconv.Itoa(i)
		ids.next[base] = i
	}
	ids.used[id] = true
	return id
}

// Use records a custom id, so no generated one repeats it.
func (ids *IDs) Use(id string) { ids.used[id] = true }

// setIDs gives every section its id. Custom ids are taken first, so a
// generated one never repeats a custom id that comes later.
func (d *Document) setIDs() {
	ids := d.CustomIDs()
	for i := range d.Sections {
		s := &d.Sections[i]
		switch {
		case s.Level == 0:
		case s.Anchor != "":
			s.ID = s.Anchor
		default:
			s.ID = ids.Generate(cmp.Or(s.idText, s.Heading))
		}
	}
}

// NestedIDs are the ids a page gives the headings of Nested, in order:
// after every top-level heading has its own (as setIDs gives them), a
// custom id as written, else one made from the text.
func (d *Document) NestedIDs() []string {
	if len(d.Nested) == 0 {
		return nil
	}
	ids := d.CustomIDs()
	for _, s := range d.Sections {
		if s.Level > 0 && s.Anchor == "" {
			ids.Generate(cmp.Or(s.idText, s.Heading))
		}
	}
	out := make([]string, len(d.Nested))
	for i, h := range d.Nested {
		out[i] = h.Anchor
		if out[i] == "" {
			out[i] = ids.Generate(cmp.Or(h.idText, h.Text))
		}
	}
	return out
}

// CustomIDs returns the set of ids holding the note's custom ids
// ("## Title {#id}"), for generating the others.
func (d *Document) CustomIDs() *IDs {
	ids := NewIDs()
	for _, h := range d.Headings {
		if h.Anchor != "" {
			ids.Use(h.Anchor)
		}
	}
	return ids
}
