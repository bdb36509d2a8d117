package render

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// MaxRenderSize is the largest note HTML renders; a larger one is shown as
// its text. Rendering takes time and memory in proportion to the note, and
// a page of megabytes is read as text anyway.
const MaxRenderSize = 2 << 20

// tooBig shows a note over MaxRenderSize as escaped text, with a notice.
func tooBig(src []byte) Rendered {
	notice := fmt.Sprintf(`<p class="render-notice">This note is %d bytes, over the %d rendered: shown as text.</p>`+"\n",
		len(src), MaxRenderSize)
	return Rendered{HTML: notice + "<pre>" + html.EscapeString(string(src)) + "</pre>\n", Headings: []Heading{}}
}

// renderBlocks renders doc's top-level blocks one by one, stopping once
// ctx is done.
func renderBlocks(ctx context.Context, w io.Writer, src []byte, doc ast.Node) error {
	r := noteMarkdown.Renderer()
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := r.Render(w, src, n); err != nil {
			return err
		}
	}
	return nil
}

// maxDelimiters bounds the emphasis and strikethrough markers ('*', '_',
// '~' runs) one block may hold: goldmark pairs them in time quadratic in
// their number ("*a_" 133,000 times takes minutes), and no prose needs
// more. Past it, a run of markers is plain text.
const maxDelimiters = 1000

// delimiterGuard runs before goldmark's emphasis and strikethrough
// parsers: it lets the first maxDelimiters runs of a block through to them
// and takes the rest as text.
type delimiterGuard struct{}

// delimiterCountKey holds a *delimiterCount in the parser.Context.
var delimiterCountKey = parser.NewContextKey()

// delimiterCount is the marker runs seen in one block.
type delimiterCount struct {
	block ast.Node
	n     int
}

func (delimiterGuard) Trigger() []byte { return []byte{'*', '_', '~'} }

func (delimiterGuard) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	c, _ := pc.Get(delimiterCountKey).(*delimiterCount)
	if c == nil || c.block != parent {
		c = &delimiterCount{block: parent}
		pc.Set(delimiterCountKey, c)
	}
	if c.n++; c.n <= maxDelimiters {
		return nil // the emphasis or strikethrough parser takes it
	}
	line, seg := block.PeekLine()
	run := 1
	for run < len(line) && line[run] == line[0] {
		run++
	}
	block.Advance(run)
	return ast.NewTextSegment(seg.WithStop(seg.Start + run))
}

// maxBrackets bounds the '[' a paragraph may hold open: goldmark's link
// parser takes time quadratic in them (200,000 '[' then as many ']' take
// seconds), and no note nests links that deep.
const maxBrackets = 64

// tameBrackets returns src with each '[' past maxBrackets open in its
// paragraph turned into a space; src itself when there is none.
func tameBrackets(src []byte) []byte {
	out, depth, blank, cloned := src, 0, true, false
	for i, c := range src {
		switch c {
		case '[':
			if depth++; depth > maxBrackets {
				if !cloned {
					out, cloned = bytes.Clone(src), true
				}
				out[i] = ' '
			}
		case ']':
			depth = max(0, depth-1)
		case '\n':
			if blank {
				depth = 0 // a blank line ends the paragraph
			}
			blank = true
			continue
		case ' ', '\t', '\r':
			continue
		}
		blank = false
	}
	return out
}
