package cli

import (
	"io"
	"unicode/utf8"
)

// screen is w, or, when w is a terminal, w with control characters made
// visible: a note's text may hold escape sequences (colours, a window
// title, a cleared screen) that a terminal would obey. Piped output stays
// byte for byte the note's.
func screen(w io.Writer) io.Writer { return screenFor(w, w) }

// screenFor is screen for w, which writes to out (through a buffer, say).
// Each write should be whole text: one that ends inside a character or
// between \r and \n is shown as if the text ended there.
func screenFor(out, w io.Writer) io.Writer {
	if ok, _ := isTerminal(out); !ok {
		return w
	}
	return termSafe{w}
}

type termSafe struct{ w io.Writer }

func (t termSafe) Write(p []byte) (int, error) {
	if _, err := t.w.Write(visible(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// visible shows C0 controls other than tab and line breaks, and DEL, in
// caret notation (ESC as ^[), a carriage return not ending a line as ^M
// (it would let text overwrite what the line showed), and C1 controls,
// encoded or as raw bytes, as U+FFFD.
func visible(p []byte) []byte {
	clean := true
	for _, c := range p {
		if c < 0x20 && c != '\t' && c != '\n' || c == 0x7f || c >= 0x80 && c <= 0x9f || c == 0xc2 {
			clean = false
			break
		}
	}
	if clean {
		return p
	}
	out := make([]byte, 0, len(p)+8)
	for len(p) > 0 {
		r, n := utf8.DecodeRune(p)
		switch {
		case r == '\r' && len(p) > 1 && p[1] == '\n':
			out = append(out, '\r')
		case r == 0x7f:
			out = append(out, '^', '?')
		case r < 0x20 && r != '\t' && r != '\n':
			out = append(out, '^', byte(r)+'@')
		case r >= 0x80 && r <= 0x9f, r == utf8.RuneError && n == 1 && p[0] >= 0x80 && p[0] <= 0x9f:
			out = utf8.AppendRune(out, utf8.RuneError)
		default:
			out = append(out, p[:n]...)
		}
		p = p[n:]
	}
	return out
}
