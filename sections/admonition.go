package sections

import (
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// MkDocs admonitions and content tabs. Python-Markdown's admonitions
// ("!!! note "Title""), pymdownx's collapsible ones ("??? tip", "???+
// tip", open) and content tabs ("=== "Tab"") hold a body indented four
// spaces. CommonMark reads such a body, after its blank line, as indented
// code: the model read only its first line, and the page showed prose as
// code. Here each is a container block (Admonition) whose body is
// markdown, as Material for MkDocs renders it. A marker line needs one
// type word (or a quoted label, for a tab) and nothing else but a quoted
// title; it opens no block inside a paragraph, so a sentence that starts
// "!!! " stays text, and the page shows one with no body as its text.

// KindAdmonition is the node kind of Admonition.
var KindAdmonition = ast.NewNodeKind("Admonition")

// Admonition is an MkDocs admonition or content tab; its children are its
// body.
type Admonition struct {
	ast.BaseBlock
	Marker string // "!!!", "???", "???+", "===" or "===+"
	Class  string // the admonition's type ("note", "warning"), lower case; "" for a tab
	Title  string // the quoted title or tab label; "" when none is written
}

// Kind implements ast.Node.
func (n *Admonition) Kind() ast.NodeKind { return KindAdmonition }

// Dump implements ast.Node.
func (n *Admonition) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Marker": n.Marker, "Class": n.Class, "Title": n.Title}, nil)
}

var (
	// A type word, Material's "inline" or "inline end", a quoted title:
	// "!!! Remember to renew the domain" is a sentence.
	admonitionRE = regexp.MustCompile(`^(!!!|\?\?\?\+?)[ \t]+([A-Za-z][\w-]*)(?:[ \t]+inline(?:[ \t]+end)?)?(?:[ \t]+"([^"]*)")?[ \t]*$`)
	tabRE        = regexp.MustCompile(`^(===\+?)[ \t]+"([^"]*)"[ \t]*$`)
)

// parseAdmonition reads a marker line, its newline trimmed.
func parseAdmonition(line []byte) (*Admonition, bool) {
	if m := admonitionRE.FindSubmatch(line); m != nil {
		return &Admonition{Marker: string(m[1]), Class: strings.ToLower(string(m[2])), Title: string(m[3])}, true
	}
	if m := tabRE.FindSubmatch(line); m != nil {
		return &Admonition{Marker: string(m[1]), Title: string(m[2])}, true
	}
	return nil, false
}

// admonitionIndent is how far a body line is indented: four columns.
const admonitionIndent = 4

type admonitionParser struct{}

// AdmonitionOption adds the Admonition block to a goldmark parser: the
// page's renderer reads notes as sections does.
var AdmonitionOption = parser.WithBlockParsers(util.Prioritized(admonitionParser{}, 750))

func (admonitionParser) Trigger() []byte { return []byte{'!', '?', '='} }

func (admonitionParser) Open(_ ast.Node, reader text.Reader, _ parser.Context) (ast.Node, parser.State) {
	line, _ := reader.PeekLine()
	w, pos := util.IndentWidth(line, reader.LineOffset())
	if w > 3 {
		return nil, parser.NoChildren
	}
	n, ok := parseAdmonition(util.TrimRightSpace(line[pos:]))
	if !ok {
		return nil, parser.NoChildren
	}
	reader.AdvanceToEOL()
	return n, parser.HasChildren
}

func (admonitionParser) Continue(_ ast.Node, reader text.Reader, _ parser.Context) parser.State {
	line, _ := reader.PeekLine()
	if util.IsBlank(line) {
		reader.AdvanceToEOL()
		return parser.Continue | parser.HasChildren
	}
	if w, _ := util.IndentWidth(line, reader.LineOffset()); w < admonitionIndent {
		return parser.Close
	}
	pos, padding := util.IndentPosition(line, reader.LineOffset(), admonitionIndent)
	reader.AdvanceAndSetPadding(pos, padding)
	return parser.Continue | parser.HasChildren
}

func (admonitionParser) Close(ast.Node, text.Reader, parser.Context) {}

func (admonitionParser) CanInterruptParagraph() bool { return false }

func (admonitionParser) CanAcceptIndentedLine() bool { return false }
