package sections

import (
	"bytes"
	"html"
	"regexp"
	"strings"
)

// HTML anchors. A docs site keeps a heading's old id alive with an
// anchor before it ('<a id="ways-variables-and-data-interact-move"></a>',
// 182 in the Rust book, for links made before the heading was renamed),
// and links still name it: "#id" reads the section the anchor sits in,
// or, when only blank lines, comments and other anchors stand between it
// and the next heading, that heading's section.

var (
	anchorRE  = regexp.MustCompile(`(?i)<a\s(?:[^>]*?\s)?(?:id|name)\s*=\s*["']([^"']+)["'][^>]*>(?:\s*</a>)?`)
	betweenRE = regexp.MustCompile(`(?is)<a\s[^>]*>\s*</a>|<!--.*?-->`)
	anchorAt  = regexp.MustCompile(`^(?:` + anchorRE.String() + `)`)
	// gapAt is what may stand between anchors in raw HTML of anchors
	// alone: white space, closing tags and comments.
	gapAt = regexp.MustCompile(`(?is)^(?:\s+|</a>|<!--.*?-->)`)
)

// HTMLAnchorIDs are the ids of raw HTML that holds anchors and nothing
// else but white space, closing tags and comments ('<a id="old-name"></a>'),
// as read finds them; nil for any other raw HTML. The page keeps such
// anchors, so a link to "#old-name" scrolls where read reads. An id is
// read as a browser reads it, its character references resolved
// ("a&amp;b" is "a&b").
func HTMLAnchorIDs(raw []byte) []string {
	var ids []string
	for len(raw) > 0 {
		if m := anchorAt.FindSubmatch(raw); m != nil {
			ids = append(ids, anchorID(m[1]))
			raw = raw[len(m[0]):]
			continue
		}
		m := gapAt.Find(raw)
		if m == nil {
			return nil
		}
		raw = raw[len(m):]
	}
	return ids
}

// anchorsOnly reports whether a block is HTML anchors alone (and the
// white space, closing tags and comments HTMLAnchorIDs allows): no words
// of the note, left out of passages as comments are (LeftOut). Counted
// as text, such a block before a note's first heading made a preamble of
// its own, into which the section after it merged as a stub's next: the
// passage was "(intro) + Closures", its section none.
func anchorsOnly(b []byte) bool {
	t := bytes.TrimLeft(b, " \t")
	return len(t) > 2 && t[0] == '<' && (t[1] == 'a' || t[1] == 'A') && HTMLAnchorIDs(b) != nil
}

// anchorID is an anchor's id attribute as a browser reads it.
func anchorID(attr []byte) string { return html.UnescapeString(string(attr)) }

// htmlAnchor is the section the HTML anchor of the id names, or nil.
func (d *Document) htmlAnchor(id string) *Section {
	if id == "" {
		return nil
	}
	body := d.Src[d.Body:] // asked only for an id no heading has: one pass
	for _, m := range anchorRE.FindAllSubmatchIndex(body, -1) {
		if !strings.EqualFold(anchorID(body[m[2]:m[3]]), id) {
			continue
		}
		at, end := d.Body+m[0], d.Body+m[1]
		if d.shownAsText(at) {
			continue // written in code, or hidden in a comment
		}
		var in *Section
		for i := range d.Sections {
			s := &d.Sections[i]
			switch {
			case s.StartByte <= at:
				in = s
			case s.Level > 0 && len(bytes.TrimSpace(betweenRE.ReplaceAll(d.Src[end:s.StartByte], nil))) == 0:
				return s // the heading the anchor stands before
			default:
				return in
			}
		}
		return in
	}
	return nil
}

// shownAsText reports whether offset pos lies in a code block or a
// comment: markup there is no anchor.
func (d *Document) shownAsText(pos int) bool {
	if inRange(d.inlineComments, pos) > 0 {
		return true
	}
	for i := range d.Sections {
		for _, b := range d.Sections[i].Blocks {
			if b.StartByte <= pos && pos < b.EndByte {
				return b.Kind == Code || b.Kind == Comment
			}
		}
	}
	return false
}
