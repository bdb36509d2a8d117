package sections

import (
	"bytes"
	"slices"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Heading attributes goldmark does not read. It takes "## Title {#id .c}"
// (Pandoc, VitePress, Hugo, kramdown), but Python-Markdown's attr_list
// (MkDocs) writes "## Title {: #id .c}", and Pandoc "## Title {-}" for an
// unnumbered heading: their text stayed in the heading, so every passage
// of the section carried "{: #setup .wide}" in its heading path, and
// "#setup" read nothing. Such a block is taken off a heading's end, its
// "#id" the heading's id.

// HeadingAttributeOption adds this to to a goldmark parser: the page's
// renderer reads headings as sections does. The block is taken off the
// heading's line before its inline text is parsed, so no "#id" in it
// reads as a tag.
var HeadingAttributeOption = parser.WithBlockParsers(
	util.Prioritized(attrHeadingParser{parser.NewSetextHeadingParser(), true}, 99), // before goldmark's own (100, 600)
	util.Prioritized(attrHeadingParser{parser.NewATXHeadingParser(), false}, 599))

// attrHeadingParser is goldmark's heading parser, then trimAttrBlock: an
// ATX heading's line is known when it opens, a setext heading's when it
// closes.
type attrHeadingParser struct {
	parser.BlockParser
	setext bool
}

func (p attrHeadingParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	n, st := p.BlockParser.Open(parent, reader, pc)
	if h, ok := n.(*ast.Heading); ok && !p.setext {
		trimAttrBlock(h, reader.Source())
	}
	return n, st
}

func (p attrHeadingParser) Close(n ast.Node, reader text.Reader, pc parser.Context) {
	p.BlockParser.Close(n, reader, pc)
	if h, ok := n.(*ast.Heading); ok && p.setext && h.Parent() != nil { // a setext underline under nothing is no heading
		trimAttrBlock(h, reader.Source())
	}
}

// SetOption passes the parser's options (heading attributes) on.
func (p attrHeadingParser) SetOption(name parser.OptionName, value any) {
	if o, ok := p.BlockParser.(parser.SetOptioner); ok {
		o.SetOption(name, value)
	}
}

// trimAttrBlock takes a trailing "{: …}" or "{-}" off h's last line and
// keeps its "#id" unless h has an id.
func trimAttrBlock(h *ast.Heading, src []byte) {
	lines := h.Lines()
	if lines.Len() == 0 {
		return
	}
	last := lines.At(lines.Len() - 1)
	line := util.TrimRightSpace(last.Value(src))
	start, id := attrBlock(line)
	if start < 0 {
		return
	}
	lines.Set(lines.Len()-1, last.WithStop(last.Start+len(util.TrimRightSpace(line[:start]))))
	if _, ok := h.AttributeString("id"); !ok && id != nil {
		h.SetAttributeString("id", id)
	}
}

// attrBlock finds the attribute block ending line: the offset of its
// "{", after white space, and its "#id" (nil without one); -1 when line
// ends in none.
func attrBlock(line []byte) (start int, id []byte) {
	if !bytes.HasSuffix(line, []byte("}")) {
		return -1, nil
	}
	start = bytes.LastIndexByte(line, '{')
	if start < 1 || !util.IsSpace(line[start-1]) {
		return -1, nil
	}
	inner := line[start+1 : len(line)-1]
	switch {
	case string(inner) == "-":
		return start, nil
	case len(inner) < 2 || inner[0] != ':' || inner[1] == ':': // "{::nomarkdown}" is an extension, not attributes
		return -1, nil
	}
	for _, f := range attrFields(inner[1:]) {
		switch {
		case !attrField(f):
			return -1, nil // "{:?}" is a format string, not attributes
		case f[0] == '#' && id == nil:
			id = f[1:]
		}
	}
	return start, id
}

// attrFields splits s at white space outside quotes (single or double).
func attrFields(s []byte) [][]byte {
	var out [][]byte
	var quote byte // the open quote, or 0
	from := -1
	for i, c := range s {
		switch {
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case c == quote:
			quote = 0
		case util.IsSpace(c) && quote == 0:
			if from >= 0 {
				out, from = append(out, s[from:i]), -1
			}
			continue
		}
		if from < 0 {
			from = i
		}
	}
	if from >= 0 {
		out = append(out, s[from:])
	}
	return out
}

// attrField reports whether f is an attribute of the block: "#id",
// ".class" or key=value (the value maybe quoted). A bare word is not
// taken: "{:x}" and "{:02}" are format strings more often than
// references to an attribute list.
func attrField(f []byte) bool {
	switch {
	case f[0] == '#' || f[0] == '.':
		return len(f) > 1 && isName(f[1:], ':', '.')
	case bytes.IndexByte(f, '=') > 0:
		k, v, _ := bytes.Cut(f, []byte("="))
		quoted := len(v) > 0 && (v[0] == '"' || v[0] == '\'')
		return isName(k) && (!quoted || len(v) > 1 && v[len(v)-1] == v[0])
	}
	return false
}

// isName reports whether b is letters, digits, '-', '_' and the bytes
// also, and not empty.
func isName(b []byte, also ...byte) bool {
	for _, c := range b {
		ok := c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
		if !ok && !slices.Contains(also, c) {
			return false
		}
	}
	return len(b) > 0
}
