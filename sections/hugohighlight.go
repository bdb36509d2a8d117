package sections

import (
	"bytes"
	"regexp"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Hugo's highlight shortcode. Hugo sites write code as
//
//	{{< highlight go "linenos=table" >}}
//	…
//	{{< /highlight >}}
//
// or with "{{% … %}}". CommonMark reads the lines between as markdown: a
// "# comment" line of a shell or Python snippet was a heading that split
// the note, and a "#word" in the code a tag. Here the block is goldmark's
// own FencedCodeBlock, its opening and closing lines in the fences' place
// and its info the shortcode's language (its first argument), so every
// reader of code takes it as one: the walker's Code block, the chunker's
// windows (which read its opening line only, the language in it), the
// comments and tags that code holds none of, the page's <pre>. Like a
// fence, either line is indented at most three spaces; the code's lines
// lose the opening line's indent; one inside a list item or quote is code
// there; and one never closed runs to the end of its container, so at
// the top level to the end of the note, with a warning (checkClosed), as
// an unclosed fence does: Hugo refuses such a page, so its author means
// what follows as code. Only highlight is code: other shortcodes stay
// text, and so do a shortcode within a line, one closing itself ("/>}}")
// and Hugo's escaped form ("{{</* highlight */>}}"), which docs about
// Hugo write to show one.

var (
	// The name, then the arguments (the language first, then Hugo's
	// options), the delimiters paired: "{{<" with ">}}", "{{%" with "%}}".
	highlightOpenRE  = regexp.MustCompile(`^\{\{(<|%)[ \t]*highlight(?:[ \t]+(.*?))?[ \t]*(>|%)\}\}$`)
	highlightCloseRE = regexp.MustCompile(`^\{\{[<%][ \t]*/[ \t]*highlight[ \t]*[>%]\}\}$`)
)

// highlightOpen reads an opening line, trimmed: ok, and the language's
// offsets in it (from == to when none is given).
func highlightOpen(line []byte) (from, to int, ok bool) {
	if !bytes.HasPrefix(line, []byte("{{")) { // most lines, at no regexp's cost
		return 0, 0, false
	}
	m := highlightOpenRE.FindSubmatchIndex(line)
	if m == nil || (line[m[2]] == '<') != (line[m[6]] == '>') {
		return 0, 0, false
	}
	if m[4] == m[5] { // none, or "" when only white space is between
		return 0, 0, true
	}
	args := line[m[4]:m[5]]
	switch {
	case bytes.HasSuffix(args, []byte("/")):
		return 0, 0, false // "{{< highlight go />}}" has no body
	case bytes.Contains(args, []byte("}}")):
		return 0, 0, false // "{{< highlight go >}}x{{< /highlight >}}" is within a line
	}
	from = m[4]
	if args[0] == '"' { // a quoted language: its quotes are no part of it
		if end := bytes.IndexByte(args[1:], '"'); end >= 0 {
			return from + 1, from + 1 + end, true
		}
	}
	end := bytes.IndexAny(args, " \t")
	if end < 0 {
		end = len(args)
	}
	return from, from + end, true
}

// isHighlightOpen and isHighlightClose report whether a line (indent and
// trailing white space allowed, as a fence's) opens or closes a highlight
// block, for readers of raw lines (Fences, checkClosed).
func isHighlightOpen(line []byte) bool {
	_, _, ok := highlightOpen(trimIndent(line))
	return ok
}

func isHighlightClose(line []byte) bool {
	line = trimIndent(line)
	return bytes.HasPrefix(line, []byte("{{")) && highlightCloseRE.Match(line)
}

// trimIndent is line without up to three leading spaces and its trailing
// white space; nil when it is indented further (code, to CommonMark).
func trimIndent(line []byte) []byte {
	i := 0
	for i < 3 && i < len(line) && line[i] == ' ' {
		i++
	}
	if i < len(line) && line[i] == ' ' {
		return nil
	}
	return util.TrimRightSpace(line[i:])
}

// highlightIndentKey holds the open block's indent: its code lines lose
// as much. A code block is a leaf, so one is open at a time.
var highlightIndentKey = parser.NewContextKey()

type highlightParser struct{}

// HugoHighlightOption adds the highlight block to a goldmark parser: the
// page's renderer reads notes as sections does.
var HugoHighlightOption = parser.WithBlockParsers(util.Prioritized(highlightParser{}, 750))

func (highlightParser) Trigger() []byte { return []byte{'{'} }

func (highlightParser) Open(_ ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, seg := reader.PeekLine()
	pos := pc.BlockOffset()
	if pos < 0 || line[pos] != '{' {
		return nil, parser.NoChildren
	}
	from, to, ok := highlightOpen(util.TrimRightSpace(line[pos:]))
	if !ok {
		return nil, parser.NoChildren
	}
	var info *ast.Text
	if from < to {
		start := seg.Start - seg.Padding + pos + from
		info = ast.NewTextSegment(text.NewSegment(start, start+to-from))
	}
	pc.Set(highlightIndentKey, pos)
	return ast.NewFencedCodeBlock(info), parser.NoChildren
}

// Continue is goldmark's fenced code block's, but for the closing line.
func (highlightParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	line, segment := reader.PeekLine()
	if w, pos := util.IndentWidth(line, reader.LineOffset()); w < 4 && isHighlightClose(line[pos:]) {
		reader.AdvanceToEOL()
		return parser.Close
	}
	indent, _ := pc.Get(highlightIndentKey).(int)
	pos, padding := util.IndentPositionPadding(line, reader.LineOffset(), segment.Padding, indent)
	if pos < 0 {
		pos = max(0, util.FirstNonSpacePosition(line)) - segment.Padding
		padding = 0
	}
	seg := text.NewSegmentPadding(segment.Start+pos, segment.Stop, padding)
	if padding != 0 {
		keepLeadingTab(&seg, reader, indent)
	}
	seg.ForceNewline = true // EOF as newline
	node.Lines().Append(seg)
	reader.AdvanceToEOL()
	return parser.Continue | parser.NoChildren
}

func (highlightParser) Close(ast.Node, text.Reader, parser.Context) {}

// A shortcode is read before the markdown around it, so the block may
// follow a paragraph's line.
func (highlightParser) CanInterruptParagraph() bool { return true }

func (highlightParser) CanAcceptIndentedLine() bool { return false }

// keepLeadingTab is goldmark's preserveLeadingTabInCodeBlock (unexported):
// a code line that starts with a tab keeps it as a tab.
func keepLeadingTab(segment *text.Segment, reader text.Reader, indent int) {
	offsetWithPadding := reader.LineOffset() + indent
	sl, ss := reader.Position()
	reader.SetPosition(sl, text.NewSegment(ss.Start-1, ss.Stop))
	if offsetWithPadding == reader.LineOffset() {
		segment.Padding = 0
		segment.Start--
	}
	reader.SetPosition(sl, ss)
}
