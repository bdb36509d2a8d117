package sections

import (
	"bytes"
	"fmt"
)

// MaxNesting is the deepest nesting of blockquotes and list items a note
// may have. goldmark's block parser takes time and memory that grow faster
// than the square of the depth (1,000 nested list items take a second,
// 3,000 take most of a minute and 850 MB), and no real note nests this deep.
const MaxNesting = 100

// NestingError reports a note nested deeper than MaxNesting.
type NestingError struct {
	Depth int // the estimate, at least MaxNesting+1
	Line  int // 1-based
}

func (e *NestingError) Error() string {
	return fmt.Sprintf("nested at least %d levels deep (blockquotes or list items) at line %d; mdsearch parses at most %d",
		e.Depth, e.Line, MaxNesting)
}

// CheckNesting estimates, without parsing, how deeply src nests block
// containers, and returns a *NestingError when that exceeds MaxNesting.
// On each line outside fenced code, every '>' and list marker in the
// leading prefix counts one level, and every two columns of indentation one
// more (a nested list item is indented past its parent's marker). The
// estimate may exceed the true depth, never fall short of it by much.
func CheckNesting(src []byte) error {
	var fences Fences
	for line, rest := 1, src; len(rest) > 0; line++ {
		end := bytes.IndexByte(rest, '\n')
		if end < 0 {
			end = len(rest)
		}
		text := rest[:end]
		rest = rest[min(end+1, len(rest)):]
		if fences.Line(text) {
			continue
		}
		if d := lineDepth(text); d > MaxNesting {
			return &NestingError{Depth: d, Line: line}
		}
	}
	return nil
}

// lineDepth counts the container levels the prefix of one line opens.
func lineDepth(text []byte) int {
	depth, cols := 0, 0
	for i := 0; i < len(text); {
		switch c := text[i]; {
		case c == ' ':
			cols++
			i++
		case c == '\t':
			cols += 4
			i++
		case c == '>':
			depth, cols = depth+1+cols/2, 0
			i++
		default:
			n := listMarker(text[i:])
			if n == 0 {
				return depth // indentation opens a level only before a marker
			}
			depth, cols = depth+1+cols/2, 0
			i += n
		}
	}
	return depth // a blank line, or one of markers only
}

// listMarker returns the length of a list marker ("-", "*", "+", "1." or
// "1)") at the start of b when a space, a tab or the line end follows it.
func listMarker(b []byte) int {
	n := 0
	switch {
	case len(b) > 0 && (b[0] == '-' || b[0] == '*' || b[0] == '+'):
		n = 1
	default:
		for n < len(b) && n < 9 && b[n] >= '0' && b[n] <= '9' {
			n++
		}
		if n == 0 || n >= len(b) || (b[n] != '.' && b[n] != ')') {
			return 0
		}
		n++
	}
	if n < len(b) && b[n] != ' ' && b[n] != '\t' && b[n] != '\r' {
		return 0
	}
	return n
}

// Fences follows top-level fenced code blocks line by line, Hugo's
// highlight shortcodes among them (hugohighlight.go), so that readers of
// raw note text (the nesting check, cutting results at block boundaries)
// leave code alone.
type Fences struct {
	open      []byte // the open fence's run
	highlight bool   // a highlight shortcode is open
}

// Line takes the next line and reports whether it opens, closes or lies
// inside a fenced code block.
func (f *Fences) Line(text []byte) bool {
	if f.highlight {
		f.highlight = !isHighlightClose(text)
		return true
	}
	run, bare := fenceOf(text)
	switch {
	case run != nil && f.open == nil:
		f.open = run
	case run != nil && bare && bytes.HasPrefix(run, f.open):
		f.open = nil
	case f.open == nil && isHighlightOpen(text):
		f.highlight = true
	default:
		return f.open != nil
	}
	return true
}

// Open is the fence run of the fenced code block open after the lines
// taken so far ("```"), or "" when none is.
func (f *Fences) Open() string { return string(f.open) }

// fenceOf returns the fence run (``` or ~~~, three or more) that may open
// or close a top-level fenced code block on this line, or nil; bare says
// nothing but white space follows it, as a closing fence requires.
func fenceOf(text []byte) (run []byte, bare bool) {
	i := 0
	for i < 3 && i < len(text) && text[i] == ' ' {
		i++
	}
	if i >= len(text) || (text[i] != '`' && text[i] != '~') {
		return nil, false
	}
	j := i
	for j < len(text) && text[j] == text[i] {
		j++
	}
	if j-i < 3 || (text[i] == '`' && bytes.IndexByte(text[j:], '`') >= 0) {
		return nil, false // a backtick fence's info string has no backtick
	}
	return text[i:j], len(bytes.TrimSpace(text[j:])) == 0
}
