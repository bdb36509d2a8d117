package sections

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"golang.org/x/text/unicode/norm"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/wordcount"
)

// find resolves a section query: a heading path as search results show it
// ("Cake > Ingredients") or with '/' ("Cake/Ingredients"), a path suffix
// ("Ingredients"), words of one heading, or an id ("#setup-1"). Headings
// may themselves hold '>' or '/' ("<script setup>", "Input/Output"), so a
// query is compared with each section's path joined both ways, never
// split.
func (d *Document) find(query string) (*Section, []int, error) {
	return d.findIn(query, d.forms(), false)
}

// InPart reports whether query reads a section only as words inside its
// heading ("Sec" of "Second Renamed"), not as its heading, path or id: a
// read then says which section it read, as a link to a heading since
// renamed would otherwise read another one silently.
func (d *Document) InPart(query string) bool {
	forms := d.forms()
	if _, _, err := d.findIn(query, forms, false); err != nil {
		return false
	}
	_, _, err := d.findIn(query, forms, true)
	return err != nil
}

// findIn is find with the sections' normalised forms made beforehand, so
// that names, which finds every heading, normalises each path once.
// Strict leaves out the headings that merely contain the query.
func (d *Document) findIn(query string, forms []pathForms, strict bool) (*Section, []int, error) {
	s, others, err := d.findAs(query, forms, strict)
	if err == nil {
		return s, others, nil
	}
	// A heading copied as the note writes it: "See [the docs](url)" has
	// the text "See the docs", "v2 <sup class=…/>" the text "v2". Tried
	// second, for headings whose text holds such brackets (a code span:
	// `grid[i][j]`).
	var alts []string
	if m := headingAttrs.FindStringSubmatch(query); m != nil {
		// "Deep Watchers {#deep-watchers}", a heading copied with its id:
		// the id names it, or else the text does.
		alts = append(alts, "#"+m[2], m[1])
	}
	if strings.Contains(query, "](") || strings.Contains(query, "][") {
		alts = append(alts, linkTexts.ReplaceAllString(query, "$1"))
	}
	if strings.ContainsAny(query, "<&\\`*_~[") {
		alts = append(alts, asWritten(query))
	}
	for _, alt := range alts {
		if alt == query || alt == "" {
			continue
		}
		if ps, pothers, perr := d.findAs(alt, forms, strict); perr == nil {
			return ps, pothers, nil
		}
	}
	return s, others, err
}

// asWritten is the text of query read as a heading written in markdown,
// as Parse reads a heading's (headingText), or "" when it reads as none.
func asWritten(query string) string {
	src := []byte("# " + strings.TrimSpace(query))
	if h, ok := md.Parse(text.NewReader(src)).FirstChild().(*ast.Heading); ok {
		t, _ := headingText(h, src, nil)
		return t
	}
	return ""
}

// findAs is findIn for the query as given. A name several sections
// answer to in full reads the first in the note, as Obsidian opens
// [[Note#Heading]]; the others are returned by index for the read to
// name.
func (d *Document) findAs(query string, forms []pathForms, strict bool) (*Section, []int, error) {
	if strings.EqualFold(strings.TrimSpace(query), Intro) && !d.hasHeading(Intro) {
		return d.unworded(Preamble)
	}
	q := normalize(query)
	anchor := idQuery(query) // "## T {#id}" is found by "id", "#id" or "{#id}"
	asID := anchor != strings.TrimSpace(query)
	if q == "" && !asID {
		return d.unworded(query)
	}
	// "#id" (or "{#id}") names an id. Otherwise a full path wins, written
	// exactly before loosely; then a path suffix; then a heading that
	// merely contains the query; only then a bare id ("setup-1").
	var exact, full, exactSuffix, suffix, contains []int
	// Generated ids are unique ("setup-1" is the second "Setup"); two
	// custom ones may not be, and a browser scrolls to the first.
	byID := -1
	for i := range d.Sections {
		s := &d.Sections[i]
		if s.Level == 0 {
			continue
		}
		if byID < 0 && strings.EqualFold(s.ID, anchor) {
			byID = i
		}
		if q == "" {
			continue
		}
		switch k := forms[i].match(query, q); {
		case k == 0 && exactPath(s.Path, query):
			exact = append(exact, i)
		case k == 0:
			full = append(full, i)
		case k > 0 && exactPath(s.Path[k:], query):
			exactSuffix = append(exactSuffix, i)
		case k > 0:
			suffix = append(suffix, i)
		case holdsWords(forms[i].heading, q) || forms[i].shown != "" && holdsWords(forms[i].shown, q):
			contains = append(contains, i)
		}
	}
	switch {
	case asID && byID >= 0:
		return &d.Sections[byID], nil, nil
	}
	for _, m := range [][]int{exact, full, exactSuffix, suffix} {
		if len(m) > 0 {
			return &d.Sections[m[0]], m[1:], nil
		}
	}
	if s, others, err := d.pick(query, contains); !strict && (s != nil || err != nil) {
		return s, others, err
	}
	if byID >= 0 {
		return &d.Sections[byID], nil, nil
	}
	if s := d.holding(anchor); s != nil && asID {
		return s, nil, nil
	}
	if s := d.htmlAnchor(anchor); s != nil && asID {
		return s, nil, nil
	}
	return nil, nil, d.notFound(mdsearch.KindNotFound, query, "no such section", nil)
}

// holdsWords reports whether the normalised heading h holds q where a
// word starts ("sec" in "second renamed", not "x" in "linux"), or, in a
// script written without spaces, anywhere.
func holdsWords(h, q string) bool {
	if r, _ := utf8.DecodeRuneInString(q); wordcount.Unspaced(r) {
		return strings.Contains(h, q)
	}
	return strings.HasPrefix(h, q) || strings.Contains(h, " "+q) || strings.Contains(h, "/"+q)
}

// holding is the section whose own text holds the heading inside a list,
// quote or callout that a page gives the id, or nil: such a heading opens
// no section, so its id reads the one it sits in.
func (d *Document) holding(id string) *Section {
	for i, nid := range d.NestedIDs() {
		if !strings.EqualFold(nid, id) {
			continue
		}
		return d.holdingAt(d.Nested[i].StartByte)
	}
	return nil
}

// unworded resolves a query without a letter or digit: "" or "/" names the
// text before the first heading; anything else ("🦀", "!!!") only a
// heading written so.
func (d *Document) unworded(query string) (*Section, []int, error) {
	if t := strings.TrimSpace(query); t != "" && t != "/" {
		var m []int
		for i, s := range d.Sections {
			for k := range s.Path {
				if s.Level > 0 && exactPath(s.Path[k:], t) {
					m = append(m, i)
					break
				}
			}
		}
		if len(m) > 0 {
			return &d.Sections[m[0]], m[1:], nil
		}
		return nil, nil, d.notFound(mdsearch.KindNotFound, query, "no such section", nil)
	}
	if len(d.Sections) > 0 && d.Sections[0].Level == 0 {
		return &d.Sections[0], nil, nil
	}
	return nil, nil, d.notFound(mdsearch.KindNotFound, query, "the note has no text before its first heading", nil)
}

// pick is the section that the headings m, which merely contain the
// query, name: the one, or the first of several with one path, the others
// returned; several paths are an error, for a part of a heading is no
// name to guess by; none is (nil, nil, nil).
func (d *Document) pick(query string, m []int) (*Section, []int, error) {
	switch {
	case len(m) == 1 || len(m) > 1 && d.samePath(m):
		return &d.Sections[m[0]], m[1:], nil
	case len(m) > 1:
		// Found, more than once: the name is the caller's to fix.
		return nil, nil, d.notFound(mdsearch.KindInvalid, query, "it matches several sections; name one by its path, or by its #anchor where paths repeat", m)
	}
	return nil, nil, nil
}

// samePath reports whether the sections m all have one path.
func (d *Document) samePath(m []int) bool {
	for _, i := range m[1:] {
		if !slices.Equal(d.Sections[i].Path, d.Sections[m[0]].Path) {
			return false
		}
	}
	return true
}

// pathForms are what find compares a query with, for one section: its
// path from each heading on, joined with " > " and with '/', and its
// heading, all normalised; shown and shownArrow are the heading and the
// paths as Obsidian shows them when they hold wikilinks ("See [[Note|the
// other]]" reads "See the other"), else empty.
type pathForms struct {
	arrow, slash, shownArrow []string
	spaced                   []string // arrow with a heading's '/' as a space, for a query without one
	heading, shown           string
}

// forms makes every section's pathForms.
func (d *Document) forms() []pathForms {
	fs := make([]pathForms, len(d.Sections))
	for i, s := range d.Sections {
		f := pathForms{heading: normalize(s.Heading), arrow: make([]string, len(s.Path)), slash: make([]string, len(s.Path)), spaced: make([]string, len(s.Path))}
		if shown := shownLinks(s.Heading); shown != s.Heading {
			f.shown = normalize(shown)
		}
		if linked := slices.ContainsFunc(s.Path, func(h string) bool { return strings.Contains(h, "[[") }); linked {
			f.shownArrow = make([]string, len(s.Path))
			for k := range s.Path {
				f.shownArrow[k] = normalize(shownLinks(strings.Join(s.Path[k:], " > ")))
			}
		}
		for k := range s.Path {
			f.arrow[k] = normalize(strings.Join(s.Path[k:], " > "))
			f.slash[k] = normalize(strings.Join(s.Path[k:], "/"))
			f.spaced[k] = strings.ReplaceAll(f.arrow[k], "/", " ")
		}
		fs[i] = f
	}
	return fs
}

// match is the first k at which the path from heading k on, joined with
// " > " or '/', normalises to q (the normalised query), or -1. Suffixes
// must start at a heading: "Ingredients > Dry" names Cake > Ingredients >
// Dry, "Dry" alone does too, but "gredients > Dry" does not. A path of
// several headings is named only with a '>' or '/' between them:
// "input-output" or "#input-output" (a link's anchor, which names one
// heading) is the heading "Input/Output", never Input > Output. In a
// query without '/', a heading's '/' reads as a space ("Input Output >
// Files").
func (f *pathForms) match(query, q string) int {
	slash := strings.Contains(query, "/")
	across := slash || strings.Contains(query, ">")
	last := len(f.arrow) - 1
	for k := range f.arrow {
		if k < last && !across {
			continue
		}
		if f.arrow[k] == q || slash && f.slash[k] == q || !slash && f.spaced[k] == q || f.shownArrow != nil && f.shownArrow[k] == q {
			return k
		}
	}
	return -1
}

// headingAttrs is a heading copied with its attributes, as a note
// writes them after its text: "Setup {#setup .tip}".
var headingAttrs = regexp.MustCompile(`^\s*(.+?)\s*\{#([^\s{}]+)[^{}]*\}\s*$`)

// linkTexts matches a markdown link or image written inline or by
// reference; its text (group 1) is what a heading's text keeps of it.
var linkTexts = regexp.MustCompile(`!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\](?:\([^)]*\)|\[[^\]]*\])`)

// shownLinks is h with each wikilink as Obsidian shows it: its alias, else
// its target ("Note#Part" as "Note > Part").
func shownLinks(h string) string {
	for {
		open := strings.Index(h, "[[")
		if open < 0 {
			return h
		}
		end := strings.Index(h[open:], "]]")
		if end < 0 {
			return h
		}
		link := h[open+2 : open+end]
		if _, alias, ok := strings.Cut(link, "|"); ok {
			link = alias
		} else {
			link = strings.ReplaceAll(link, "#", " > ")
		}
		h = h[:open] + link + h[open+end+2:]
	}
}

// exactPath reports whether query is the whole path as written, but for
// case and spacing around separators: "C++ tips" is the heading "C++ tips",
// not "C tips", which normalises the same.
func exactPath(path []string, query string) bool {
	squash := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), "")) }
	q := squash(query)
	return q == squash(strings.Join(path, ">")) || q == squash(strings.Join(path, "/"))
}

// idQuery is a query read as an id: without a leading '#', or the braces
// of "{#id}".
func idQuery(query string) string {
	q := strings.TrimSpace(query)
	if strings.HasPrefix(q, "{#") && strings.HasSuffix(q, "}") {
		q = q[1 : len(q)-1]
	}
	return strings.TrimPrefix(q, "#")
}

// notFound is a find error of kind that lists the candidates, or every
// section path, so the caller can retry with an exact one; a path that
// several sections share, or an empty heading's, is followed by its id.
func (d *Document) notFound(kind mdsearch.Kind, query, why string, candidates []int) error {
	every := candidates == nil // else only the matches, which the preamble is not
	if every {
		for i, s := range d.Sections {
			if s.Level > 0 {
				candidates = append(candidates, i)
			}
		}
	}
	const most = 50
	seen := map[string]int{}
	for _, i := range candidates {
		seen[strings.Join(d.Sections[i].Path, "/")]++
	}
	total, listed := len(candidates), candidates[:min(len(candidates), most)]
	if every {
		listed = d.shallowest(candidates)
	}
	paths := make([]string, 0, len(listed)+1)
	for _, i := range listed {
		path := d.Sections[i].Path
		p := strings.Join(path, "/")
		// A heading with no text cannot be named by it: its id can.
		if seen[p] > 1 || path[len(path)-1] == "" {
			paths = append(paths, fmt.Sprintf("%q (#%s)", p, d.Sections[i].ID))
			continue
		}
		paths = append(paths, fmt.Sprintf("%q", p))
	}
	if total > len(listed) {
		more := fmt.Sprintf("and %d more", total-len(listed))
		if every {
			more += " (the note's outline lists them all)"
		}
		paths = append(paths, more)
	}
	if every && len(d.Sections) > 1 && d.Sections[0].Level == 0 && d.Sections[0].Words > 0 {
		paths = append(paths, fmt.Sprintf("%q (the text before the first heading)", Preamble))
	}
	hint := "the note has no headings: read it whole, or by lines"
	if len(paths) > 0 {
		hint = "sections: " + strings.Join(paths, ", ")
	}
	return mdsearch.Errorf(kind, "find section", d.Path, hint, "%q: %s", query, why)
}

// listedSections is how many sections a miss lists of a note's own.
const listedSections = 12

// shallowest is the sections of candidates (in order) a miss lists: all of
// them when few, else those down to the deepest level that keeps them at
// most listedSections (a long note's top-level sections), or, when that
// leaves the title alone, the first listedSections of the next level.
func (d *Document) shallowest(candidates []int) []int {
	if len(candidates) <= listedSections {
		return candidates
	}
	var out []int
	for level := 1; level <= 6; level++ {
		var at []int
		for _, i := range candidates {
			if d.Sections[i].Level <= level {
				at = append(at, i)
			}
		}
		if len(at) > listedSections {
			if len(out) < 2 {
				return at[:listedSections]
			}
			break
		}
		out = at
	}
	return out
}

// normalize lower-cases s, keeps letters, digits and '/', and turns every
// other run of characters into one space, so "Set-up  guide" matches
// "set up guide" and "A / B" matches "a/b". An apostrophe between two
// letters is dropped, as a slug drops it: "Don't" is the word "dont",
// which "t panic" does not start.
func normalize(s string) string {
	var b strings.Builder
	space := false
	rs := []rune(norm.NFC.String(s)) // "Ä" typed composed or as A + U+0308 (macOS names)
	for i, r := range rs {
		switch {
		case (r == '\'' || r == '\u2019') && i > 0 && i+1 < len(rs) && unicode.IsLetter(rs[i-1]) && unicode.IsLetter(rs[i+1]):
			// inside a word: neither a letter nor a break
		case r == '/':
			b.WriteRune('/')
			space = false
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r) && !space && b.Len() > 0: // marks of other scripts too
			if space && b.Len() > 0 && !strings.HasSuffix(b.String(), "/") {
				b.WriteByte(' ')
			}
			b.WriteRune(unicode.ToLower(r))
			space = false
		default:
			space = true
		}
	}
	return strings.Trim(strings.ReplaceAll(b.String(), " /", "/"), "/ ")
}

// Preamble is the section name that reads the text before a note's first
// heading; outlines list that text under it, at level 0.
const Preamble = "/"

// Intro is how a search result's header names the text before the first
// heading when it runs on into others; read takes it for Preamble.
const Intro = "(intro)"

// Untitled is how a result's header names a heading with no text ("#"
// alone); its footer gives the "#id" that reads it.
const Untitled = "(untitled)"

// hasHeading reports whether a heading reads h, ignoring case.
func (d *Document) hasHeading(h string) bool {
	for _, s := range d.Sections {
		if s.Level > 0 && strings.EqualFold(strings.TrimSpace(s.Heading), h) {
			return true
		}
	}
	return false
}

// listStart is the first item of b's list where b is a list item (an id
// on its own line after a list names the whole list), else b.
func listStart(s *Section, b *Block) *Block {
	if b.List == 0 {
		return b
	}
	for i := range s.Blocks {
		if s.Blocks[i].List == b.List {
			return &s.Blocks[i]
		}
	}
	return b
}

// Block finds an Obsidian block reference ("^id", as [[Note#^id]] links
// write it): the block whose last line ends with " ^id" (or "]]^id", after
// an embed), or the block
// before a line "^id" of its own (how a list or table is given an id).
// It returns the block's first and last lines and its section.
func (d *Document) Block(ref string) (start, end int, sec *Section, ok bool) {
	id := strings.TrimPrefix(strings.TrimPrefix(ref, "#"), "^")
	if id == "" || id == ref {
		return 0, 0, nil, false
	}
	mark := "^" + id
	var prev *Block
	var prevSec *Section
	for i := range d.Sections {
		s := &d.Sections[i]
		for j := range s.Blocks {
			b := &s.Blocks[j]
			if b.Kind == Comment {
				continue
			}
			text := strings.TrimRight(string(d.Src[b.StartByte:b.EndByte]), " \t\r\n")
			switch {
			case text == mark && prev != nil:
				return d.Line(listStart(prevSec, prev).StartByte), d.Line(prev.EndByte - 1), prevSec, true
			case strings.HasSuffix(text, " "+mark) || strings.HasSuffix(text, "\n"+mark) || text == mark,
				strings.HasSuffix(text, "]]"+mark): // right after an embed, as Obsidian's own help writes one
				return d.Line(b.StartByte), d.Line(b.EndByte - 1), s, true
			}
			prev, prevSec = b, s
		}
	}
	return 0, 0, nil, false
}
