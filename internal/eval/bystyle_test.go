package eval

import (
	"bytes"
	"strings"
	"testing"
)

// A chunker without section paths shows "–" for the section columns, as
// the main table does, not 0.
func TestWriteStylesUnaware(t *testing.T) {
	r := &Report{K: 5, Configs: []ConfigReport{
		{Config: Config{Name: "whole-doc", Chunker: ChunkWholeDoc}, Outcomes: []Outcome{{Difficulty: "links", PageRank: 1}}},
		{Config: Config{Name: "sections-hybrid", Chunker: ChunkSections}, Outcomes: []Outcome{{Difficulty: "links", PageRank: 1, SectionRank: 2}}},
	}}
	var buf bytes.Buffer
	if err := WriteStyles(&buf, r.K, ByStyle(r)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	for _, c := range []struct{ line, want string }{{lines[1], "–  –  1.000  1.000"}, {lines[2], "1.000  0.500  1.000  1.000"}} {
		if !strings.HasSuffix(strings.Join(strings.Fields(c.line), "  "), c.want) {
			t.Errorf("row %q, want it to end %q", c.line, c.want)
		}
	}
}
