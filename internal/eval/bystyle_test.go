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

// A style of fewer than fewQueries queries is named under the table with
// what one query is worth; a larger one is not.
func TestWriteStylesFew(t *testing.T) {
	var rows []StyleRow
	for _, s := range []struct {
		style string
		n     int
	}{{"links", 4}, {"headings", fewQueries}} {
		rows = append(rows, StyleRow{Config: "sections-hybrid", Style: s.style, Queries: s.n},
			StyleRow{Config: "sections-keyword", Style: s.style, Queries: s.n})
	}
	var buf bytes.Buffer
	if err := WriteStyles(&buf, 5, rows); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if want := "few queries: links (4: one query is 0.250); compare"; !strings.Contains(out, want) {
		t.Errorf("got\n%s\nwant a line holding %q", out, want)
	}
	if strings.Contains(out, "headings (") || strings.Count(out, "links (") != 1 {
		t.Errorf("got\n%s\nwant links named once and headings not", out)
	}
}
