package notehtml

import (
	"bytes"
	"html"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch/sections"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// tag is an inline #tag, read as sections reads the tags it indexes: '#'
// at the start of a run of text or after white space, then the runes
// sections.TagRune takes, with one that makes a word ("#123" is no tag). name is the tag without '#' and trailing '/'; written is
// the text after '#' as the note has it.
type tag struct {
	ast.BaseInline
	name, written string
	href          string // "" when Options.Tag is nil
}

var kindTag = ast.NewNodeKind("Tag")

func (n *tag) Kind() ast.NodeKind { return kindTag }

func (n *tag) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Name": n.name}, nil)
}

type tagParser struct{}

func (tagParser) Trigger() []byte { return []byte{'#'} }

func (tagParser) Parse(parent ast.Node, block text.Reader, _ parser.Context) ast.Node {
	if !runStart(parent, block) {
		return nil
	}
	line, _ := block.PeekLine()
	n, word := 1, false
	for n < len(line) {
		r, size := utf8.DecodeRune(line[n:])
		in, w := sections.TagRune(r)
		if !in {
			break
		}
		word = word || w
		n += size
	}
	name := strings.TrimRight(string(line[1:n]), "/")
	if !word || name == "" {
		return nil
	}
	block.Advance(n)
	return &tag{name: name, written: string(line[1:n])}
}

// runStart reports whether the reader is where a tag may start: after
// white space, or where a run of text starts (the start of a line, or
// after markup such as "**").
func runStart(parent ast.Node, block text.Reader) bool {
	if unicode.IsSpace(block.PrecendingCharacter()) {
		return true
	}
	_, pos := block.Position()
	t, ok := parent.LastChild().(*ast.Text)
	return !ok || t.Segment.Stop != pos.Start
}

// renderTag renders a tag as a link that searches for it, or, inside a
// link or without Options.Tag, as a styled span.
func renderTag(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*tag)
	label := html.EscapeString("#" + n.written)
	if n.href == "" || inLink(n) {
		_, _ = w.WriteString(`<span class="tag">` + label + `</span>`)
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(`<a class="tag" href="` + html.EscapeString(n.href) + `">` + label + `</a>`)
	return ast.WalkContinue, nil
}

// inLink reports whether n is inside a link, where a link of its own
// cannot be.
func inLink(n ast.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Kind() == ast.KindLink {
			return true
		}
	}
	return false
}

// frontTags writes a note's frontmatter tags as the links an inline #tag
// gets, under its properties: most notes are tagged there, and a reader
// goes from a note to the others of its tag as from an inline one.
// It has no data-line: the properties' lines are the block above's.
func frontTags(out *bytes.Buffer, tags []string, href func(string) string) {
	if len(tags) == 0 || href == nil {
		return
	}
	out.WriteString(`<p class="tags">`)
	for i, t := range tags {
		if i > 0 {
			out.WriteByte(' ')
		}
		out.WriteString(`<a class="tag" href="` + html.EscapeString(href(t)) + `">#` + html.EscapeString(t) + `</a>`)
	}
	out.WriteString("</p>\n")
}
