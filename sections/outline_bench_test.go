package sections

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkOutline is the outline of a note of 288 sections, under
// maxChecked, so the name of each unique heading is checked with find: the
// read of a long note or section pays this.
func BenchmarkOutline(b *testing.B) {
	var src strings.Builder
	for i := range 32 {
		fmt.Fprintf(&src, "# Part %d\n\ntext\n\n", i)
		for j := range 4 {
			fmt.Fprintf(&src, "## Sub %d %d\n\ntext\n\n#### Deep thing here %d\n\nx\n\n", i, j, j)
		}
	}
	d := Parse("n.md", []byte(src.String()))
	b.ReportAllocs()
	for b.Loop() {
		if len(d.Outline()) != 288 {
			b.Fatal("sections")
		}
	}
}
