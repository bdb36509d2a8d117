package sections

import (
	"bytes"
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
)

// htmlAnchor is the section the HTML anchor of the id names, or nil.
func (d *Document) htmlAnchor(id string) *Section {
	if id == "" {
		return nil
	}
	body := d.Src[d.Body:] // asked only for an id no heading has: one pass
	for _, m := range anchorRE.FindAllSubmatchIndex(body, -1) {
		if !strings.EqualFold(string(body[m[2]:m[3]]), id) {
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
