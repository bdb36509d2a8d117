package notehtml

import (
	"html"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// math is $inline$ or $$display$$ TeX, kept as written: the page
// typesets nothing, and markdown's escapes and emphasis would mangle it
// ("\\" read as an escaped "\", "_" as emphasis).
type math struct {
	ast.BaseInline
	display bool
	segs    []text.Segment // the TeX, line by line
}

var kindMath = ast.NewNodeKind("Math")

func (n *math) Kind() ast.NodeKind { return kindMath }

func (n *math) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// mathParser reads math as Obsidian does: "$$" to the next "$$", over
// lines; "$" to the next "$" on its line, where neither touches a space
// inside and the closing one is not followed by a digit, so "$5 and $10"
// stays text.
type mathParser struct{}

func (mathParser) Trigger() []byte { return []byte{'$'} }

func (mathParser) Parse(_ ast.Node, block text.Reader, _ parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if len(line) > 1 && line[1] == '$' {
		return displayMath(block)
	}
	end := inlineMathEnd(line)
	if end < 0 {
		return nil
	}
	_, seg := block.PeekLine()
	n := &math{segs: []text.Segment{text.NewSegment(seg.Start+1, seg.Start+end)}}
	block.Advance(end + 1)
	return n
}

// inlineMathEnd is the index of the "$" closing the inline math line
// opens, or -1.
func inlineMathEnd(line []byte) int {
	if len(line) < 3 || util.IsSpace(line[1]) {
		return -1
	}
	for i := 1; i < len(line); i++ {
		switch {
		case line[i] == '\\':
			i++ // "\$" is a dollar in the TeX
		case line[i] == '$' && !util.IsSpace(line[i-1]) && (i+1 == len(line) || line[i+1] < '0' || line[i+1] > '9'):
			return i
		}
	}
	return -1
}

// displayMath reads "$$…$$" from block, over lines; nil, the reader where
// it was, when nothing closes it.
func displayMath(block text.Reader) ast.Node {
	l, pos := block.Position()
	block.Advance(2)
	n := &math{display: true}
	for {
		line, seg := block.PeekLine()
		if line == nil {
			block.SetPosition(l, pos)
			return nil
		}
		for i := 0; i+1 < len(line); i++ {
			if line[i] == '$' && line[i+1] == '$' {
				n.segs = append(n.segs, seg.WithStop(seg.Start+i))
				block.Advance(i + 2)
				return n
			}
		}
		n.segs = append(n.segs, seg)
		block.AdvanceLine()
	}
}

func renderMath(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*math)
	class := "math"
	if n.display {
		class = "math display"
	}
	_, _ = w.WriteString(`<code class="` + class + `">`)
	for _, s := range n.segs {
		_, _ = w.WriteString(html.EscapeString(string(s.Value(src))))
	}
	_, _ = w.WriteString("</code>")
	return ast.WalkSkipChildren, nil
}
