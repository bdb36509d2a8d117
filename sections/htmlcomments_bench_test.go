package sections

import (
	"strings"
	"testing"
)

// BenchmarkHTMLComments parses notes of 20,000 lines with no blank line
// among them: each line an unclosed "<!--", or a closed comment in a list
// item, beside the same note of plain lines. Finding the comments must
// stay linear: a scan from each "<!--" to the next blank line or "-->"
// made the first quadratic.
func BenchmarkHTMLComments(b *testing.B) {
	for _, bc := range []struct{ name, line string }{
		{"unclosed", "a <!-- b\n"},
		{"closed-in-list", "- i <!-- c -->\n"},
		{"plain", "a plain b\n"},
	} {
		src := []byte("# H\n\n" + strings.Repeat(bc.line, 20000))
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				Parse("n.md", src)
			}
		})
	}
}
