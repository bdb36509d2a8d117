package engine

import (
	"context"
	"net/url"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

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
	rows, err := e.st.Reader.Linking(ctx, n.collection, linkMatch(names), linkNeedles(names))
	if err != nil || len(rows) == 0 {
		return out, 0, err
	}
	var from []string
	for _, r := range rows {
		if r.Path != n.path && !slices.Contains(from, r.Path) && mayLink(r.Text, names) {
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
	root, err := e.rootOf(ctx, n.collection)
	if err != nil {
		return nil, 0, err
	}
	for i, p := range from {
		if len(out) >= maxBacklinks {
			return out[:maxBacklinks], len(from) - i, nil
		}
		src, err := e.readNote(ctx, n.collection, root, p)
		if err != nil {
			continue // gone or unreadable since it was indexed: it links to nothing now
		}
		out = append(out, backlinksOf(src, links, n.path)...)
	}
	return out[:min(len(out), maxBacklinks)], 0, nil
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
		for _, f := range []string{n, strings.ReplaceAll(n, " ", "%20"), url.PathEscape(n)} {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// linkMatch is the FTS5 expression of the passages holding a name's first
// word: a link holds it however it escapes the rest ("Tom's%20notes"
// holds "tom", then "20notes"). "" where a name holds no word, which only
// a scan finds.
func linkMatch(names []string) string {
	var words []string
	for _, n := range names {
		w := tokens(store.KeywordFold(n))
		if len(w) == 0 {
			return ""
		}
		words = append(words, phraseOf(w[:1]))
	}
	return "(" + strings.Join(words, " OR ") + ")"
}

// mayLink reports whether a text that holds a link may hold one to a note
// of names: one of them is in it, its escapes ("%20") read, compared
// without regard to case.
func mayLink(text string, names []string) bool {
	t := strings.ToLower(unescape(text))
	return slices.ContainsFunc(names, func(n string) bool { return strings.Contains(t, strings.ToLower(n)) })
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
	return cut(strings.TrimSpace(line), backlinkText)
}

// cut is s cut to about n characters, at a rune, marked with "…".
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n])) + "…"
}

// rootOf is the folder of the collection named.
func (e *Engine) rootOf(ctx context.Context, collection string) (string, error) {
	colls, err := e.st.Collections(ctx)
	if err != nil {
		return "", err
	}
	for _, c := range colls {
		if c.Name == collection {
			return c.Root, nil
		}
	}
	return "", mdsearch.Errorf(mdsearch.KindNotFound, "read", collection, "", "no collection %q", collection)
}
