package notehtml

import (
	"regexp"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Fenced divs, docs sites' colon containers: VitePress's and Docusaurus's "::: tip
// Title" … ":::" (markdown-it-container), and Pandoc's and Quarto's fenced
// divs ("::: {.callout-note}"). CommonMark reads their marker lines as
// text joined to the paragraphs around them; the page shows a fenced div of
// a callout's kind as that callout (titled with its title, else its kind;
// "details" folded, unless "{open}") and any other ("code-group", "columns") as its body
// alone, the marker lines hidden. As markdown-it reads them, a marker line
// may interrupt a paragraph, a bare ":::" of at least as many colons as
// a div opened with closes the outermost such div, and those inside it
// (so an outer one is written with more colons; Pandoc, which closes the
// innermost, reads a nesting of equal fences otherwise), and one never
// closed runs to the end of what holds it. Divs nest at most
// maxFencedDepth deep, a marker line deeper is text: goldmark copies its
// stack of open blocks a line, so 6,000 nested divs (48 KB) took seconds
// and a gigabyte to render.
// Only the page reads them: search reads the marker lines as text, and a
// heading inside one opens a section, as sections reads it.

var kindFencedDiv = ast.NewNodeKind("FencedDiv")

// fencedDiv is one fenced div while the note is parsed; the
// transformer replaces it with a callout or its children.
type fencedDiv struct {
	ast.BaseBlock
	colons      int
	name, title string
	open        bool // VitePress's "::: details Title {open}"
}

func (n *fencedDiv) Kind() ast.NodeKind { return kindFencedDiv }

func (n *fencedDiv) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Name": n.name, "Title": n.title}, nil)
}

var (
	// "::: tip Title", ":::tip[Title]", "::: details Title {open}".
	colonFenceRE = regexp.MustCompile(`^(:{3,})[ \t]*([A-Za-z][\w-]*)(.*)$`)
	// "::: {.callout-note title="Title"}", "::: {#id .warning}".
	fencedDivRE    = regexp.MustCompile(`^(:{3,})[ \t]*\{([^}]*)\}[ \t]*:*$`)
	divClassRE     = regexp.MustCompile(`(?:^|\s)\.([A-Za-z][\w-]*)`)
	divTitleRE     = regexp.MustCompile(`(?:^|\s)title="([^"]*)"`)
	trailingAttrRE = regexp.MustCompile(`[ \t]*\{[^}]*\}[ \t]*$`)
)

// parseFencedDiv reads a marker line that opens a fenced div, its indent
// and line break trimmed.
func parseFencedDiv(line []byte) (*fencedDiv, bool) {
	if m := fencedDivRE.FindSubmatch(line); m != nil {
		c := &fencedDiv{colons: len(m[1])}
		if cl := divClassRE.FindSubmatch(m[2]); cl != nil {
			c.name = string(cl[1])
		}
		if t := divTitleRE.FindSubmatch(m[2]); t != nil {
			c.title = string(t[1])
		}
		return c, true
	}
	m := colonFenceRE.FindSubmatch(line)
	if m == nil {
		return nil, false
	}
	rest := string(m[3])
	attrs := trailingAttrRE.FindString(rest)
	title := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(strings.TrimSuffix(rest, attrs)), ":")) // Pandoc's "::: Warning ::::::"
	if strings.HasPrefix(title, "[") && strings.HasSuffix(title, "]") {                                    // Docusaurus's ":::tip[Title]"
		title = strings.TrimSpace(title[1 : len(title)-1])
	}
	open := slices.Contains(strings.Fields(strings.Trim(strings.TrimSpace(attrs), "{}")), "open")
	return &fencedDiv{colons: len(m[1]), name: string(m[2]), title: title, open: open}, true
}

// closesFencedDiv reports whether line is a bare run of at least colons
// colons, which closes a fenced div opened with colons.
func closesFencedDiv(line []byte, colons int) bool {
	line = util.TrimRightSpace(line)
	return len(line) >= colons && len(strings.Trim(string(line), ":")) == 0
}

type fencedDivParser struct{}

func (fencedDivParser) Trigger() []byte { return []byte{':'} }

// maxFencedDepth bounds how deep fenced divs nest (docs sites nest two
// or three).
const maxFencedDepth = 8

func (fencedDivParser) Open(parent ast.Node, reader text.Reader, _ parser.Context) (ast.Node, parser.State) {
	depth := 0
	for n := parent; n != nil; n = n.Parent() {
		if _, ok := n.(*fencedDiv); ok {
			if depth++; depth >= maxFencedDepth {
				return nil, parser.NoChildren
			}
		}
	}
	line, _ := reader.PeekLine()
	w, pos := util.IndentWidth(line, reader.LineOffset())
	if w > 3 {
		return nil, parser.NoChildren
	}
	c, ok := parseFencedDiv(util.TrimRightSpace(line[pos:]))
	if !ok {
		return nil, parser.NoChildren
	}
	reader.AdvanceToEOL()
	return c, parser.HasChildren
}

func (fencedDivParser) Continue(node ast.Node, reader text.Reader, _ parser.Context) parser.State {
	line, segment := reader.PeekLine()
	if w, pos := util.IndentWidth(line, reader.LineOffset()); w <= 3 && closesFencedDiv(line[pos:], node.(*fencedDiv).colons) {
		newline := 0
		if len(line) > 0 && line[len(line)-1] == '\n' {
			newline = 1
		}
		reader.Advance(segment.Stop - segment.Start - newline + segment.Padding)
		return parser.Close
	}
	return parser.Continue | parser.HasChildren
}

func (fencedDivParser) Close(ast.Node, text.Reader, parser.Context) {}

func (fencedDivParser) CanInterruptParagraph() bool { return true }

func (fencedDivParser) CanAcceptIndentedLine() bool { return false }

// calloutKinds are the fenced divs' names shown as callouts: Obsidian's
// callout types that docs sites also use, and VitePress's "details".
var calloutKinds = []string{"note", "info", "tip", "hint", "important", "success", "check", "warning", "caution",
	"attention", "danger", "error", "bug", "question", "faq", "example", "quote", "abstract", "summary", "todo", "details"}

type fencedDivTransformer struct{}

// Transform replaces each fenced div, innermost first, with a callout or,
// when its name is no callout's kind, with its children.
func (fencedDivTransformer) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	cs := nodesOf[*fencedDiv](doc)
	for i := len(cs) - 1; i >= 0; i-- {
		c := cs[i]
		parent := c.Parent()
		kind := strings.TrimPrefix(strings.ToLower(c.name), "callout-") // Quarto's "callout-note"
		if !slices.Contains(calloutKinds, kind) {
			for child := c.FirstChild(); child != nil; child = c.FirstChild() {
				c.RemoveChild(c, child)
				parent.InsertBefore(parent, c, child)
			}
			parent.RemoveChild(parent, c)
			continue
		}
		parent.ReplaceChild(parent, c, fencedDivCallout(c, kind))
	}
}

// fencedDivCallout is the callout c shows as, c's children moved into it.
func fencedDivCallout(c *fencedDiv, kind string) *callout {
	out := &callout{kind: kind, docs: true}
	if kind == "details" {
		out.fold = '-'
		if c.open {
			out.fold = '+'
		}
	}
	if c.Pos() >= 0 { // for data-line
		out.Lines().Append(text.NewSegment(c.Pos(), c.Pos()))
	}
	title := kindTitle(kind)
	if c.title != "" {
		title = &calloutTitle{}
		title.AppendChild(title, ast.NewString([]byte(c.title)))
	}
	out.fill(title, c)
	return out
}
