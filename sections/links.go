package sections

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Link is a link a note's text makes to another file of its vault: a
// wikilink or an embed, whose Target is the note's name as written
// (without heading or alias), or a markdown link, whose Target is its
// destination unescaped, without its fragment. At is the byte offset in
// the text where the link starts (a markdown link's: its text's).
type Link struct {
	Target string
	Wiki   bool
	At     int
}

// linkParser reads CommonMark's inlines and Obsidian's wikilinks: a link
// in a code span or a code block is code, not a link.
var linkParser = goldmark.New(goldmark.WithParserOptions(
	parser.WithInlineParsers(util.Prioritized(wikiInline{}, 199)))).Parser() // before links' (200)

// Links are the links src makes to files of its vault, in order: URLs
// (a scheme, "https:", "mailto:") and links within the page ("#setup",
// [[#Setup]]) are left out.
func Links(src []byte) []Link {
	var out []Link
	doc := linkParser.Parse(text.NewReader(src))
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch l := n.(type) {
		case *wikiNode:
			if l.link.Target != "" {
				out = append(out, Link{Target: l.link.Target, Wiki: true, At: l.at})
			}
		case *ast.Link:
			if dest, ok := vaultDest(string(l.Destination)); ok {
				out = append(out, Link{Target: dest, At: inlineStart(l)})
			}
		}
		return ast.WalkContinue, nil
	})
	return out
}

// scheme opens a URL's destination.
var scheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// vaultDest is a markdown link's destination as a path of the vault:
// unescaped ("My%20note.md"), without a fragment; ok is false for a URL
// or a fragment alone.
func vaultDest(dest string) (string, bool) {
	if scheme.MatchString(dest) {
		return "", false
	}
	dest, _, _ = strings.Cut(dest, "#")
	if u, err := url.PathUnescape(dest); err == nil {
		dest = u
	}
	return dest, dest != ""
}

// inlineStart is where the text of an inline node starts, or 0.
func inlineStart(n ast.Node) int {
	for c := n.FirstChild(); c != nil; c = c.FirstChild() {
		if t, ok := c.(*ast.Text); ok {
			return max(0, t.Segment.Start-1) // its "["
		}
	}
	return 0
}

// wikiNode is a wikilink Links reads, and where it starts.
type wikiNode struct {
	ast.BaseInline
	link WikiLink
	at   int
}

var kindWiki = ast.NewNodeKind("LinkedWiki")

func (n *wikiNode) Kind() ast.NodeKind         { return kindWiki }
func (n *wikiNode) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// wikiInline parses wikilinks for Links (ParseWikiLink).
type wikiInline struct{}

func (wikiInline) Trigger() []byte { return []byte{'[', '!'} }

func (wikiInline) Parse(_ ast.Node, block text.Reader, _ parser.Context) ast.Node {
	line, seg := block.PeekLine()
	n, l := ParseWikiLink(line)
	if n == 0 {
		return nil
	}
	block.Advance(n)
	return &wikiNode{link: l, at: seg.Start}
}
