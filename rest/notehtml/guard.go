package notehtml

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io"

	"github.com/mdsearch/mdsearch/sections"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// MaxRenderSize is the largest note HTML renders; a larger one is shown as
// its text. Rendering takes time and memory in proportion to the note, and
// a page of megabytes is read as text anyway.
const MaxRenderSize = 2 << 20

// maxRenderCost bounds sections.ParseCost for a note HTML renders: the
// parse tree and the HTML of a note made of little but headings, list
// items or nested quotes take far more memory than its size says (2 MiB
// of headings took 1.5 GB), and such a note is read as text anyway. The
// docs in the test corpora cost at most 14.5 per byte, 30 MB for a note
// of MaxRenderSize.
const maxRenderCost = 32 << 20

// asText shows a note as escaped text, with a notice saying why, when it
// is over MaxRenderSize or maxRenderCost; ok is false when it is neither.
func asText(src []byte) (r Rendered, ok bool) {
	var why string
	switch {
	case len(src) > MaxRenderSize:
		why = fmt.Sprintf("This note is %d bytes, over the %d rendered", len(src), MaxRenderSize)
	case sections.ParseCost(src) > maxRenderCost:
		why = "This note holds too many headings, list items or nested quotes to render"
	default:
		return Rendered{}, false
	}
	notice := `<p class="render-notice">` + why + `: shown as text.</p>` + "\n"
	return Rendered{HTML: notice + "<pre>" + html.EscapeString(string(src)) + "</pre>\n", Headings: []Heading{}}, true
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

// maxDelimiters bounds the emphasis, strikethrough and highlight markers
// ('*', '_', '~', '=' runs) one block may hold: goldmark pairs them in time quadratic in
// their number ("*a_" 133,000 times takes minutes), and no prose needs
// more. Past it, a run of markers is plain text.
const maxDelimiters = 1000

// delimiterGuard runs before goldmark's emphasis and strikethrough
// parsers and highlightParser: it lets the first maxDelimiters runs of a
// block through to them and takes the rest as text.
type delimiterGuard struct{}

// delimiterCountKey holds a *delimiterCount in the parser.Context.
var delimiterCountKey = parser.NewContextKey()

// delimiterCount is the marker runs seen in one block.
type delimiterCount struct {
	block ast.Node
	n     int
}

func (delimiterGuard) Trigger() []byte { return []byte{'*', '_', '~', '='} }

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
