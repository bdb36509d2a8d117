package sections

import (
	"bufio"
	"bytes"
	"html"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
)

// md parses CommonMark plus GFM tables (so tables can be cut at rows),
// strikethrough (so "~~x~~" in a heading reads as "x") and heading
// attributes, so "## Title {#id}" (VitePress, Hugo, Pandoc, MkDocs) and
// "## Title {: #id}" (attr_list; headingattrs.go) are the heading "Title"
// with the anchor "id" (as is a kramdown "{: #id}" line under it), MkDocs'
// admonitions and tabs (admonition.go) and Hugo's highlight shortcode
// (hugohighlight.go). goldmark parsers are safe for concurrent use.
var md = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough),
	goldmark.WithParserOptions(parser.WithHeadingAttribute(), HeadingAttributeOption, skipInlineOption, AdmonitionOption,
		HugoHighlightOption)).Parser()

// mdNoTables is md without GFM tables, for a note with more than
// maxTablePipes '|': goldmark makes a node of every table cell (some 140
// bytes each), so a note of a few megabytes of cells would take gigabytes
// to parse. Its tables are then read as text, cut at lines.
var mdNoTables = goldmark.New(goldmark.WithExtensions(extension.Strikethrough),
	goldmark.WithParserOptions(parser.WithHeadingAttribute(), HeadingAttributeOption, skipInlineOption, AdmonitionOption,
		HugoHighlightOption)).Parser()

// maxTablePipes bounds the table cells a note may have parsed as such: a
// long table of ten columns and a thousand rows has about 11,000.
const maxTablePipes = 100_000

// mark is a top-level position that matters to sections: a heading, or the
// start of a block the chunker may cut at.
type mark struct {
	start   int // line start, file offset
	heading *Heading
	kind    BlockKind
	list    int32 // Block.List
	code    bool  // Block.HoldsCode
}

// walker turns the goldmark AST of buf[base:] into marks, tags and warnings.
type walker struct {
	buf        []byte // what goldmark read, from file offset 0
	base       int    // file offset of the parsed text
	lines      lineIndex
	marks      []mark
	lists      int // the top-level lists seen, numbering Block.List
	tags       []inlineTag
	nested     []Heading        // headings below the top level (Document.Nested)
	containers map[ast.Node]int // the containers of nested's headings, numbered (Heading.container)
	// comments are the comments of whole lines, inline the others (within
	// a line, or opening or closing mid-line) and the HTML comments, as
	// file offsets in order (findComments).
	comments, inline [][2]int
	// spans are the code spans of line spanLine (codeSpanAt).
	spans    [][2]int
	spanLine int
	// unclosed is the line of a top-level code fence that runs to the end
	// of the file without a closing fence, or 0; unclosedHighlight that of
	// a Hugo highlight shortcode (hugohighlight.go).
	unclosed, unclosedHighlight int
	// unclosedComment is the line of a "%%" starting a line that nothing
	// closes (findComments), or 0.
	unclosedComment int
	// attrLines are the attribute lines under headings (headingattrs.go),
	// as file offsets in order.
	attrLines [][2]int
}

func (w *walker) parse() {
	src := w.buf[w.base:]
	p := md
	if bytes.Count(src, []byte{'|'}) > maxTablePipes {
		p = mdNoTables
	}
	pc := parser.NewContext()
	root := p.Parse(text.NewReader(src), parser.WithContext(pc))
	// Comments first: a heading's text leaves out the inline ones.
	w.comments, w.inline = w.findComments(root)
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		w.top(n, src)
	}
	w.hideComments(w.comments)
	w.hideInline()
	w.collectTags(root, src)
	w.attrLines = attrRanges(pc, w.base)
}

// top records one child of the document: only these headings split, so a
// '#' line in a code block, list or quote never opens a section.
func (w *walker) top(n ast.Node, src []byte) {
	switch n := n.(type) {
	case *ast.Heading:
		w.heading(n, src)
	case *ast.List:
		w.lists++
		for it := n.FirstChild(); it != nil; it = it.NextSibling() {
			w.block(it, Paragraph)
			if k := len(w.marks); k > 0 && it.Pos() >= 0 && w.marks[k-1].start == w.lineStart(it.Pos()) {
				w.marks[k-1].list = int32(w.lists)
				w.marks[k-1].code = holdsCode(it)
			}
		}
	case *ast.Paragraph, *plainParagraph, *ast.TextBlock:
		w.block(n, Paragraph)
	case *ast.Blockquote:
		w.block(n, Quote)
	case *Admonition: // its body is prose, indented
		w.block(n, Paragraph)
	case *ast.FencedCodeBlock:
		w.block(n, Code)
		if n.NextSibling() == nil && n.Pos() >= 0 {
			w.checkClosed(w.base + n.Pos())
		}
	case *ast.CodeBlock:
		w.block(n, Code)
	case *ast.LinkReferenceDefinition:
		w.block(n, LinkDef)
	case *AttributeLine: // no text (attrLines), so no block
	case *east.Table:
		// The table extension turns a paragraph into a table and keeps the
		// paragraph's position; the header row knows where the table starts.
		if h := n.FirstChild(); h != nil && h.Pos() > n.Pos() {
			w.addMark(h.Pos(), nil, Table)
		} else {
			w.block(n, Table)
		}
	default:
		w.block(n, Other)
	}
}

// holdsCode reports whether a list item holds a code block, at any depth.
// It looks at blocks alone: a paragraph's inline nodes hold none.
func holdsCode(n ast.Node) bool {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			return true
		}
		if c.Type() == ast.TypeBlock && c.HasChildren() && holdsCode(c) {
			return true
		}
	}
	return false
}

func (w *walker) block(n ast.Node, kind BlockKind) {
	if n.Pos() >= 0 {
		w.addMark(n.Pos(), nil, kind)
	}
}

// addMark appends a mark at the start of the line holding pos (relative to
// the parsed text). Marks stay in order and one per line.
func (w *walker) addMark(pos int, h *Heading, kind BlockKind) {
	start := w.lineStart(pos)
	if k := len(w.marks); k > 0 && w.marks[k-1].start >= start {
		if w.marks[k-1].start == start && h != nil {
			w.marks[k-1] = mark{start: start, heading: h}
		}
		return
	}
	w.marks = append(w.marks, mark{start: start, heading: h, kind: kind})
}

// lineStart is the file offset of the start of the line holding pos (an
// offset in the parsed text), but never before the parsed text: the BOM and
// frontmatter are not part of any line's content.
func (w *walker) lineStart(pos int) int {
	return max(w.base, w.lines.start(min(w.base+pos, len(w.buf))))
}

func (w *walker) heading(n *ast.Heading, src []byte) {
	if n.Pos() < 0 {
		return
	}
	start := w.lineStart(n.Pos())
	end := start
	if l := n.Lines(); l.Len() > 0 && n.Pos() <= l.At(l.Len()-1).Start {
		end = w.base + l.At(l.Len()-1).Start
	}
	endLine := w.lines.line(end)
	if !isATX(w.buf[start:]) {
		endLine++ // a setext heading ends with its underline
	}
	h := &Heading{
		Level:     n.Level,
		Line:      w.lines.line(start),
		StartByte: start,
		EndByte:   len(w.buf),
		Setext:    endLine > w.lines.line(end),
	}
	h.Text, h.idText = headingText(n, src, w.shown())
	if id, ok := n.AttributeString("id"); ok {
		if b, ok := id.([]byte); ok {
			h.Anchor = string(b)
		}
	}
	if endLine < len(w.lines) {
		h.EndByte = w.lines[endLine]
	}
	w.addMark(n.Pos(), h, Other)
}

// nestedHeading records a heading below the top level: its text, line,
// offset and custom id.
func (w *walker) nestedHeading(n *ast.Heading, src []byte) {
	h := Heading{Level: n.Level, StartByte: w.base + n.Pos()}
	h.Text, h.idText = headingText(n, src, w.shown())
	h.Line = w.lines.line(h.StartByte)
	if id, ok := n.AttributeString("id"); ok {
		if b, ok := id.([]byte); ok {
			h.Anchor = string(b)
		}
	}
	if at := nextAfterContainer(n); at >= 0 {
		h.containerEnd = w.base + at
	}
	if w.containers == nil {
		w.containers = map[ast.Node]int{}
	}
	if w.containers[n.Parent()] == 0 {
		w.containers[n.Parent()] = len(w.containers) + 1
	}
	h.container = w.containers[n.Parent()]
	w.nested = append(w.nested, h)
}

// nextAfterContainer is the offset of the node that follows n's innermost
// container (a list item, quote or callout), or its container's, below
// the top level: where what n heads ends. -1 when nothing follows inside
// n's top-level block.
func nextAfterContainer(n ast.Node) int {
	for c := n.Parent(); c != nil && c.Parent() != nil && c.Parent().Kind() != ast.KindDocument; c = c.Parent() {
		if next := c.NextSibling(); next != nil && next.Pos() >= 0 {
			return next.Pos()
		}
	}
	return -1
}

// shown gives the bytes of src[start:stop] outside inline comments; nil
// when the note has none.
func (w *walker) shown() func(start, stop int) []byte {
	if len(w.inline) == 0 {
		return nil
	}
	return func(start, stop int) []byte { return visible(w.buf, w.base+start, w.base+stop, w.inline) }
}

// PlainText is the text of n's inline children as sections reads a
// heading's: markup stripped, backslash escapes and character references
// resolved, code spans and autolinks as written, raw HTML dropped, and runs
// of white space collapsed. other, when not nil, is asked first about each
// node sections does not handle itself (such as an extension's): ok true
// uses its text in place of the node's children.
func PlainText(n ast.Node, src []byte, other func(ast.Node) (text string, ok bool)) string {
	var b strings.Builder
	inlineText(&b, n, src, other, false, nil)
	return collapse(b.String())
}

// inlineText writes the text of n's inline children to b; typed keeps
// the raw HTML that is text a person typed (typedHTML), and shown, when
// not nil, gives the bytes of src[start:stop] that are shown (comments
// left out).
func inlineText(b *strings.Builder, n ast.Node, src []byte, other func(ast.Node) (string, bool), typed bool, shown func(start, stop int) []byte) {
	value := func(t *ast.Text) []byte {
		if shown == nil {
			return t.Value(src)
		}
		return shown(t.Segment.Start, t.Segment.Stop)
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			if c.IsRaw() {
				b.Write(value(c))
			} else {
				b.WriteString(unescape(value(c)))
			}
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.CodeSpan:
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if t, ok := t.(*ast.Text); ok {
					b.Write(value(t))
				}
			}
		case *ast.AutoLink:
			b.Write(c.Label(src))
		case *ast.RawHTML:
			if typed {
				b.WriteString(typedHTML(c, src))
			}
		case *east.Strikethrough:
			// GFM strikes through "~x~" too; Obsidian, "~~x~~" alone:
			// "1~3 and 5~7" keeps its tildes.
			if single := singleTilde(c, src); single {
				b.WriteByte('~')
				inlineText(b, c, src, other, typed, shown)
				b.WriteByte('~')
				continue
			}
			inlineText(b, c, src, other, typed, shown)
		default:
			if other != nil {
				if t, ok := other(c); ok {
					b.WriteString(t)
					continue
				}
			}
			inlineText(b, c, src, other, typed, shown)
		}
	}
}

// singleTilde reports whether strikethrough n was written with one tilde
// each side: the byte before its first text is a '~' that follows none.
func singleTilde(n ast.Node, src []byte) bool {
	t, ok := n.FirstChild().(*ast.Text)
	if !ok {
		return false
	}
	at := t.Segment.Start
	return at >= 1 && src[at-1] == '~' && (at < 2 || src[at-2] != '~')
}

// unescape resolves backslash escapes and character references the way
// goldmark's HTML renderer does, then undoes the HTML escaping.
func unescape(v []byte) string {
	if bytes.IndexByte(v, '\\') < 0 && bytes.IndexByte(v, '&') < 0 && bytes.IndexByte(v, 0) < 0 {
		return string(v)
	}
	var out bytes.Buffer
	bw := bufio.NewWriter(&out)
	ghtml.DefaultWriter.Write(bw, v)
	bw.Flush()
	return html.UnescapeString(out.String())
}

// collectTags finds inline #tags in text outside code and comments:
// adjacent text nodes are joined first, since emphasis delimiters such as
// '_' cut them apart.
func (w *walker) collectTags(root ast.Node, src []byte) {
	runStart, runEnd := -1, -1
	flush := func() {
		if runStart >= 0 && inRange(w.comments, w.base+runStart) == 0 {
			w.tags = scanTags(w.tags, src, w.base, runStart, runEnd)
		}
		runStart = -1
	}
	ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			if n.Parent() != root && n.Pos() >= 0 && !w.hidden(w.base+n.Pos()) {
				w.nestedHeading(n, src)
			}
		case *ast.CodeSpan, *ast.RawHTML, *ast.AutoLink, *ast.Image:
			flush()
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			seg := n.Segment
			if seg.Start != runEnd || runStart < 0 {
				flush()
				runStart = seg.Start
			}
			runEnd = seg.Stop
			if n.SoftLineBreak() || n.HardLineBreak() {
				flush()
			}
		}
		return ast.WalkContinue, nil
	})
	flush()
	w.tags = slices.DeleteFunc(w.tags, func(t inlineTag) bool { return inRange(w.inline, t.at) > 0 })
}

// TagRune reports whether r may be part of an Obsidian tag (in), and
// whether it makes the tag more than a number (word: "#123" is no tag):
// letters, their marks (a Thai, Arabic or Devanagari tag has its vowels),
// digits, '_', '-', '/', and emoji ("#🚀launch", "#👍🏽": symbols, their
// skin tones and the joiner of a sequence), which Obsidian allows too.
func TagRune(r rune) (in, word bool) {
	switch {
	case unicode.IsLetter(r), r == '_', r >= 0x2190 && unicode.Is(unicode.So, r): // symbols from arrows on: not "©" or "°"
		return true, true
	case unicode.IsMark(r), unicode.IsDigit(r), r == '-', r == '/',
		r == '\u200d', r >= 0x1F3FB && r <= 0x1F3FF: // zero-width joiner, skin tones
		return true, false
	}
	return false, false
}

// scanTags appends the Obsidian-style tags in src[start:end], each at its
// '#' offset plus base: '#' at the start or after white space, then the
// runes TagRune takes, with at least one that makes a word.
func scanTags(tags []inlineTag, src []byte, base, start, end int) []inlineTag {
	for i := start; i < end; i++ {
		k := bytes.IndexByte(src[i:end], '#')
		if k < 0 {
			break
		}
		if i += k; i > start && !spaceBefore(src[start:i]) {
			continue
		}
		j, word := i+1, false
		for j < end {
			r, size := utf8.DecodeRune(src[j:end])
			in, w := TagRune(r)
			if !in {
				break
			}
			word = word || w
			j += size
		}
		if t := strings.TrimRight(string(src[i+1:j]), "/"); t != "" && word {
			tags = append(tags, inlineTag{name: t, at: base + i})
		}
		i = j - 1
	}
	return tags
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// spaceBefore reports whether text ends with white space, the ideographic
// space (U+3000) of Chinese and Japanese text included.
func spaceBefore(text []byte) bool {
	if n := len(text); n > 0 && text[n-1] < utf8.RuneSelf {
		return isSpace(text[n-1])
	}
	r, _ := utf8.DecodeLastRune(text)
	return unicode.IsSpace(r)
}

// isATX reports whether line opens an ATX heading: up to three spaces, one
// to six '#', then a space, a tab or the end of the line.
func isATX(line []byte) bool {
	i := 0
	for i < 3 && i < len(line) && line[i] == ' ' {
		i++
	}
	n := 0
	for i < len(line) && line[i] == '#' {
		i++
		n++
	}
	return n >= 1 && n <= 6 && (i == len(line) || isSpace(line[i]))
}

// checkClosed sets w.unclosed if the fence opened at pos has no closing
// fence: the last non-blank line must be at least as many of the same
// fence character, indented less than four spaces. A highlight shortcode
// (hugohighlight.go) must end at its closing line, and sets
// w.unclosedHighlight.
func (w *walker) checkClosed(pos int) {
	open, _ := lineAt(w.buf, w.lines.start(pos))
	open = bytes.TrimLeft(open, " ")
	if len(open) == 0 {
		return
	}
	c, n := open[0], 0
	for n < len(open) && open[n] == c {
		n++
	}
	end := len(w.buf)
	for end > pos && isSpace(w.buf[end-1]) {
		end--
	}
	lastStart := w.lines.start(max(end-1, 0))
	last, _ := lineAt(w.buf, lastStart)
	below := lastStart > w.lines.start(pos)
	if isHighlightOpen(open) {
		if !below || !isHighlightClose(last) {
			w.unclosedHighlight = w.lines.line(pos)
		}
		return
	}
	indent := len(last) - len(bytes.TrimLeft(last, " "))
	last = last[indent:]
	if below && indent < 4 && len(last) >= n && len(bytes.Trim(last, string(c))) == 0 {
		return
	}
	w.unclosed = w.lines.line(pos)
}
