package engine

import (
	"context"
	"encoding/json"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/sections"
	"github.com/mdsearch/mdsearch/store"
	"github.com/mdsearch/mdsearch/vault"
)

// maxBacklinks is how many places that link to a note an outline lists:
// a hub note may have thousands, each read again to be sure.
const maxBacklinks = 100

// linkedFrom are the places in the other notes of n's collection that
// link to n, in path and line order, and how many notes that may link to
// it were not read once maxBacklinks places were found. A place is a
// wikilink or an embed by its name or path, or a markdown link by its
// path (escaped or not), in a note's text or properties, resolved as the
// search page resolves it (NoteLinks), so a link to another note of the
// same name is not one. The index finds the passages that may link to
// it; their notes are read again whole, so a link in code, or in a
// comment, is none, and each place has its line and section.
func (e *Engine) linkedFrom(ctx context.Context, n *note) (_ []mdsearch.Backlink, more int, _ error) {
	out := []mdsearch.Backlink{}
	names := linkNames(n.path)
	needles := linkNeedles(names)
	rows, err := e.st.Reader.Linking(ctx, n.collection, linkMatch(needles), needles)
	if err != nil || len(rows) == 0 {
		return out, 0, err
	}
	var from []string
	seen := map[string]bool{n.path: true} // a link within the note is no place
	for _, r := range rows {
		if !seen[r.Path] && mayLink(r, names) {
			seen[r.Path] = true
			from = append(from, r.Path)
		}
	}
	if len(from) == 0 {
		return out, 0, nil
	}
	slices.Sort(from)
	links, err := e.NoteLinks(ctx, n.collection)
	if err != nil {
		return nil, 0, err
	}
	coll, err := e.st.Collection(ctx, n.collection)
	if err != nil || coll == nil {
		return out, 0, err // dropped since the note was read: nothing links to it now
	}
	for i, p := range from {
		if len(out) >= maxBacklinks { // a note's places are kept together
			return out, len(from) - i, nil
		}
		src, err := e.readNote(ctx, n.collection, coll.Root, p)
		if err != nil {
			continue // gone or unreadable since it was indexed: it links to nothing now
		}
		out = append(out, backlinksOf(src, links, n.path)...)
	}
	return out, 0, nil
}

// linkNames are the names a link to the note at p holds: its file name
// without extension; for a folder's index note (index.md, README.md),
// the folder's name too, as "guide/" links to guide/index.md.
func linkNames(p string) []string {
	name := noteName(path.Base(p))
	out := []string{name}
	if dir := path.Dir(p); dir != "." && (strings.EqualFold(name, "index") || strings.EqualFold(name, "readme")) {
		out = append(out, path.Base(dir))
	}
	return out
}

// linkNeedles are names and the forms markdown links escape them in
// ("My%20Note", "Q%26A").
func linkNeedles(names []string) []string {
	var out []string
	for _, n := range names {
		// The properties are stored as JSON, which writes "&", "<" and
		// ">" escaped.
		forms := []string{n, strings.ReplaceAll(n, " ", "%20"), url.PathEscape(n), jsonEscapes.Replace(n)}
		for _, f := range forms {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// jsonEscapes are the characters JSON encoding writes escaped in a
// note's stored properties.
var jsonEscapes = strings.NewReplacer("&", `\u0026`, "<", `\u003c`, ">", `\u003e`)

// linkMatch is the FTS5 expression of the passages holding the first word
// of a name as a link may write it (needles: as it is, or escaped): a
// link holds it however it escapes the rest ("Tom's%20notes" holds "tom",
// then "20notes"; "Caf%C3%A9%20au" holds "caf"). "" where a needle holds
// no word, which only a scan finds.
func linkMatch(needles []string) string {
	var words []string
	for _, n := range needles {
		w := tokens(store.KeywordFold(n))
		if len(w) == 0 {
			return ""
		}
		if p := phraseOf(w[:1]); !slices.Contains(words, p) {
			words = append(words, p)
		}
	}
	return "(" + strings.Join(words, " OR ") + ")"
}

// linkTargets finds the targets of a text's links, roughly: a
// wikilink's or an embed's, and a markdown link's destination (in angle
// brackets too). sections.Links reads them exactly, from the whole note.
var linkTargets = regexp.MustCompile(`\[\[([^\[\]|#^\n]*)|\]\(\s*(?:<([^>\n]*)>|([^)\s]*))`)

// mayLink reports whether a passage (or a note's properties) holding a
// link may hold one to a note of names: a link's target, its escapes
// read, names one of them as its file name (or, with a trailing "/", its
// folder's), compared as links compare names (case, composed letters).
// Only the notes of passages that may link are read again.
func mayLink(r store.Linking, names []string) bool {
	text := r.Text
	if r.Properties {
		text = strings.Join(propertyStrings(r.Text), "\n")
	}
	for _, m := range linkTargets.FindAllStringSubmatch(text, -1) {
		t := m[1] + m[2] + m[3]
		t, _, _ = strings.Cut(unescape(t), "#")
		t = strings.TrimSuffix(strings.TrimSpace(t), "/")
		if t == "" {
			continue
		}
		base := noteName(path.Base(t))
		if slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(base, norm.NFC.String(n)) }) {
			return true
		}
	}
	return false
}

// propertyStrings are the string values of properties stored as JSON: a
// list's items and a map's values too.
func propertyStrings(js string) []string {
	var v any
	if json.Unmarshal([]byte(js), &v) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	return out
}

// unescape is s with each %XX escape read as its byte, the rest as it is.
func unescape(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && ishex(s[i+1]) && ishex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func ishex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// backlinksOf are the places in note src that link to the note at to,
// in line order, one a line: its text as shown (comments left out, so a
// link in one is none), each link's line, and the section that holds it
// as read takes it, none in the note's properties.
func backlinksOf(src *note, links *vault.LinkIndex, to string) []mdsearch.Backlink {
	shown := src.withoutComments()
	d := shown.doc
	text := d.Text(0, len(shown.src))
	body := d.Line(d.Body) // the first line past the properties
	var names []string     // read once a link resolves
	var out []mdsearch.Backlink
	last := 0
	for _, l := range sections.Links([]byte(text)) {
		line := 1 + strings.Count(text[:l.At], "\n")
		if line == last || !resolves(links, src.path, l, to) {
			continue
		}
		last = line
		b := mdsearch.Backlink{Path: src.path, Line: line, Text: lineAround(text, l.At)}
		if line >= body {
			if names == nil {
				names = d.Names()
			}
			b.Section = sectionAt(d, names, line)
		}
		out = append(out, b)
	}
	return out
}

// sectionAt is the read name of the innermost section of d that holds
// line (names: d.Names()).
func sectionAt(d *sections.Document, names []string, line int) string {
	best := -1
	for i, s := range d.Sections {
		if s.StartLine <= line && line <= s.EndLine && (best < 0 || s.Level >= d.Sections[best].Level) {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	return names[best]
}

// resolves reports whether a link in the note at from names the note at
// to.
func resolves(links *vault.LinkIndex, from string, l sections.Link, to string) bool {
	resolve := links.ResolveRelative
	if l.Wiki {
		resolve = links.Resolve
	}
	p, ok := resolve(from, l.Target)
	return ok && p == to
}

// backlinkText is about how many characters of a linking line a
// Backlink shows.
const backlinkText = 160

// lineAround is the line of text holding byte at, trimmed and cut to
// about backlinkText characters around it.
func lineAround(text string, at int) string {
	start := strings.LastIndexByte(text[:at], '\n') + 1
	end := len(text)
	if i := strings.IndexByte(text[at:], '\n'); i >= 0 {
		end = at + i
	}
	line := text[start:end]
	at -= start
	if utf8.RuneCountInString(line) > backlinkText && at > backlinkText/2 { // keep the link in view
		from := at - backlinkText/4
		for from > 0 && !utf8.RuneStart(line[from]) {
			from--
		}
		line = "…" + line[from:]
	}
	return clipped(strings.TrimSpace(line), backlinkText)
}
