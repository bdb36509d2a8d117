package eval

import (
	"net/url"
	"path"
	"strings"
	"unicode"

	"github.com/mdsearch/mdsearch/sections"
)

// splitTarget splits a link target into the note it names and the heading
// anchor. Links to other sites, to the same note or to no heading are not
// section labels (ok false).
func splitTarget(target string, wiki bool) (file, anchor string, ok bool) {
	t := strings.TrimSpace(target)
	if !wiki {
		if strings.Contains(t, "://") || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "mailto:") {
			return "", "", false
		}
		if u, err := url.PathUnescape(t); err == nil {
			t = u
		}
	}
	file, anchor, _ = strings.Cut(t, "#")
	if wiki {
		if i := strings.LastIndexByte(anchor, '#'); i >= 0 { // [[Note#Parent#Child]]
			anchor = anchor[i+1:]
		}
	} else if i := strings.IndexByte(file, '?'); i >= 0 {
		file = file[:i]
	}
	file, anchor = strings.TrimSpace(file), strings.TrimSpace(anchor)
	if file == "" || anchor == "" || strings.HasPrefix(anchor, "^") { // same note, whole note, block reference
		return "", "", false
	}
	return file, anchor, true
}

// resolveNote finds the note a link names. Markdown links are relative to
// the linking note, or to the vault root with a leading "/", and may drop
// ".md" or name the built page (".html"), as docs sites do. Wikilinks name
// a path from the root or just a file name.
func (g *generator) resolveNote(from, file string, wiki bool) *parsedNote {
	var p string
	switch {
	case wiki || strings.HasPrefix(file, "/"):
		p = path.Clean(strings.TrimPrefix(file, "/"))
	default:
		p = path.Join(path.Dir(from), file)
	}
	if p == ".." || strings.HasPrefix(p, "../") {
		return nil
	}
	bare := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(p, ".md"), ".html"), ".htm")
	for _, c := range []string{p, bare + ".md", p + "/index.md", p + "/README.md"} {
		if n := g.notes[c]; n != nil {
			return n
		}
	}
	if !wiki {
		return nil
	}
	return g.byName(bare)
}

// byName resolves a wikilink by file name: the one note of that name, or
// of several the one whose path ends with the link, else the shortest.
func (g *generator) byName(bare string) *parsedNote {
	paths := g.byBase[strings.ToLower(path.Base(bare))]
	var best string
	for _, p := range paths {
		switch {
		case strings.HasSuffix(strings.ToLower(p), strings.ToLower(bare)+".md"):
			return g.notes[p]
		case best == "" || len(p) < len(best):
			best = p
		}
	}
	return g.notes[best]
}

// findAnchor finds the heading an anchor names: its "{#custom-id}", or its
// GitHub-style slug; a wikilink names the heading's text, compared by slug.
func findAnchor(doc *sections.Document, anchor string, wiki bool) *sections.Section {
	want := strings.ToLower(anchor)
	if wiki {
		want = Slug(anchor)
	}
	for i := range doc.Sections {
		s := &doc.Sections[i]
		if s.Level == 0 {
			continue
		}
		// The parser reads "{#id}" into Anchor and leaves it out of Heading.
		if (s.Anchor != "" && strings.ToLower(s.Anchor) == want) || Slug(s.Heading) == want {
			return s
		}
	}
	return nil
}

// Slug is a heading's anchor as GitHub and mdBook make it: lower case,
// letters, digits, '_' and '-' kept, spaces turned into '-', the rest
// dropped.
func Slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-':
			b.WriteRune(r)
		case unicode.IsSpace(r):
			b.WriteByte('-')
		}
	}
	return b.String()
}
