package sections

import (
	"bytes"
	"regexp"
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

// Kramdown (Jekyll's just-the-docs and others) writes the list on the
// line under the heading too, a block IAL:
//
//	## Table of contents
//	{: .no_toc .text-delta }
//
// As a paragraph, "no_toc", "text" and "delta" were words of the section
// and "#id" a tag. A line of such a list alone (attrLine) directly under
// an ATX or setext heading, no blank line between, is an AttributeLine:
// no text of the note (Document.LeftOut), its "#id" the heading's as the
// same line's would be. So in a list item or quote, under a heading of
// its own. Any other such line ("{:toc}" under a list's "* TOC", one
// after a blank line) is text as before: to kramdown it belongs to the
// block next to it, which has no id sections reads.

// HeadingAttributeOption adds this to to a goldmark parser: the page's
// renderer reads headings as sections does. The block is taken off the
// heading's line before its inline text is parsed, so no "#id" in it
// reads as a tag.
var HeadingAttributeOption = parser.WithBlockParsers(
	util.Prioritized(attrHeadingParser{parser.NewSetextHeadingParser(), true}, 99), // before goldmark's own (100, 600)
	util.Prioritized(attrHeadingParser{parser.NewATXHeadingParser(), false}, 599),
	util.Prioritized(attrLineParser{}, 760))

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
		trimAttrBlock(h, reader.Source(), true, pc)
	}
	return n, st
}

func (p attrHeadingParser) Close(n ast.Node, reader text.Reader, pc parser.Context) {
	p.BlockParser.Close(n, reader, pc)
	if h, ok := n.(*ast.Heading); ok && p.setext && h.Parent() != nil { // a setext underline under nothing is no heading
		trimAttrBlock(h, reader.Source(), false, pc)
	}
}

// SetOption passes the parser's options (heading attributes) on.
func (p attrHeadingParser) SetOption(name parser.OptionName, value any) {
	if o, ok := p.BlockParser.(parser.SetOptioner); ok {
		o.SetOption(name, value)
	}
}

// trimAttrBlock takes a trailing "{: …}" or "{-}" off h's last line and
// keeps its "#id" unless h has an id; an ATX heading's closing sequence
// before it goes too ("## Install ## {: #setup}" is "Install"). The
// block's range is kept in pc (attrRanges).
func trimAttrBlock(h *ast.Heading, src []byte, atx bool, pc parser.Context) {
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
	text := util.TrimRightSpace(line[:start])
	if atx {
		text = closingSequence.ReplaceAll(text, nil)
	}
	lines.Set(lines.Len()-1, last.WithStop(last.Start+len(text)))
	if _, ok := h.AttributeString("id"); !ok && id != nil {
		h.SetAttributeString("id", id)
	}
	keepAttrRange(pc, last.Start+start, last.Start+len(line))
}

// closingSequence is an ATX heading's closing run of "#", after white
// space (or the whole text, "## ## {: #x}").
var closingSequence = regexp.MustCompile(`(?:^|[ \t]+)#+$`)

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
	id, _, ok := attrList(inner[1:], false)
	if !ok {
		return -1, nil // "{:?}" is a format string, not attributes
	}
	return start, id
}

// attrList reads an attribute list's fields, after its "{:": its first
// "#id" (nil without one) and how many fields it has; ok is false when a
// field is no attribute, nor a bare word where bare words are taken.
func attrList(list []byte, bare bool) (id []byte, n int, ok bool) {
	fields := attrFields(list)
	for _, f := range fields {
		switch {
		case !attrField(f) && !(bare && isName(f)):
			return nil, 0, false
		case f[0] == '#' && id == nil:
			id = f[1:]
		}
	}
	return id, len(fields), true
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

// KindAttributeLine is the node kind of AttributeLine.
var KindAttributeLine = ast.NewNodeKind("AttributeLine")

// AttributeLine is a kramdown attribute list on the line under a heading;
// its one line runs from its "{" to its "}".
type AttributeLine struct{ ast.BaseBlock }

// Kind implements ast.Node.
func (n *AttributeLine) Kind() ast.NodeKind { return KindAttributeLine }

// IsRaw keeps goldmark's inline pass out: no "#id" in it is a tag.
func (n *AttributeLine) IsRaw() bool { return true }

// Dump implements ast.Node.
func (n *AttributeLine) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

type attrLineParser struct{}

func (attrLineParser) Trigger() []byte { return []byte{'{'} }

func (attrLineParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	h, ok := parent.LastChild().(*ast.Heading)
	pos := pc.BlockOffset()
	if !ok || pos < 0 || h.Pos() < 0 {
		return nil, parser.NoChildren
	}
	line, seg := reader.PeekLine()
	list := util.TrimRightSpace(line[pos:])
	if _, ok := attrLine(list); !ok {
		return nil, parser.NoChildren
	}
	// goldmark opens this line's block before it closes the heading, so
	// the heading's position is still its line's (a setext heading's
	// underline's): the line before this one, or there is a blank between.
	start := seg.Start - seg.Padding + pos
	if start < h.Pos() || bytes.Count(reader.Source()[h.Pos():start], []byte{'\n'}) != 1 {
		return nil, parser.NoChildren
	}
	n := &AttributeLine{}
	n.Lines().Append(text.NewSegment(start, start+len(list)))
	reader.AdvanceToEOL()
	return n, parser.NoChildren
}

func (attrLineParser) Continue(ast.Node, text.Reader, parser.Context) parser.State {
	return parser.Close
}

// Close gives the heading the list's "#id" unless it has one, as
// trimAttrBlock does; it runs after the heading's Close.
func (attrLineParser) Close(n ast.Node, reader text.Reader, pc parser.Context) {
	h, ok := n.PreviousSibling().(*ast.Heading)
	if !ok { // a setext underline that read as no heading after all: text
		p := ast.NewParagraph()
		p.SetLines(n.Lines())
		p.SetPos(n.Pos())
		n.Parent().ReplaceChild(n.Parent(), n, p)
		return
	}
	seg := n.Lines().At(0)
	id, _ := attrLine(seg.Value(reader.Source()))
	if _, has := h.AttributeString("id"); !has && id != nil {
		h.SetAttributeString("id", id)
	}
	keepAttrRange(pc, seg.Start, seg.Stop)
}

func (attrLineParser) CanInterruptParagraph() bool { return false }

func (attrLineParser) CanAcceptIndentedLine() bool { return false }

// attrLine reads a line that is an attribute list alone, "{: …}", trimmed:
// its "#id" (nil without one), and whether it is one. Unlike at a
// heading's end (attrField), a bare word is taken: on a line of its own
// it names an attribute list defined elsewhere ("{:toc}", kramdown's
// ALDs), not a format string's "{:x}".
func attrLine(line []byte) (id []byte, ok bool) {
	if len(line) < 4 || line[0] != '{' || line[1] != ':' || line[2] == ':' || line[len(line)-1] != '}' {
		return nil, false // "{::comment}" is an extension, not attributes
	}
	id, n, ok := attrList(line[2:len(line)-1], true) // "{:?}" is a format string
	return id, ok && n > 0
}

// attrRangesKey holds, in a parse's context, the attribute blocks taken
// off headings' lines and the AttributeLines, as source offsets.
var attrRangesKey = parser.NewContextKey()

// keepAttrRange adds [start, stop) to the attribute ranges of pc.
func keepAttrRange(pc parser.Context, start, stop int) {
	rs, _ := pc.Get(attrRangesKey).([][2]int)
	pc.Set(attrRangesKey, append(rs, [2]int{start, stop}))
}

// attrRanges are the attribute blocks and lines a parse with pc took as
// no text, as file offsets (the source parsed from base), in order: text
// Document.LeftOut leaves out, as the heading's text does.
func attrRanges(pc parser.Context, base int) [][2]int {
	rs, _ := pc.Get(attrRangesKey).([][2]int)
	for i := range rs {
		rs[i][0] += base
		rs[i][1] += base
	}
	slices.SortFunc(rs, func(a, b [2]int) int { return a[0] - b[0] })
	return rs
}
