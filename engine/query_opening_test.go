package engine

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/render"
)

// A result that joined passages (parts of its section, or not) and is
// cut to its opening still names them all: its JSON keeps chunk_end and
// part_end, its footer (the terminal's and MCP's) the same chunks and
// parts, and its lines are those shown, the rest read to the last
// passage's end.
func TestOpeningKeepsJoinedSpan(t *testing.T) {
	para := "The pump draws water from the cistern through the copper pipe.\n\n"
	first := "## Wiring\n\n" + strings.Repeat(para, 8) // lines 10-26
	second := strings.TrimSuffix(strings.Repeat(para, 4), "\n\n")
	for _, tt := range []struct {
		name          string
		weak          bool // every result cut (cutUnlikely), else those after a likely first (lowCut)
		part, parts   int
		end           int // the last chunk joined, 0: none
		wantPartEnd   int
		footer, chunk string
	}{
		{"low, joined parts", false, 1, 2, 4, 2, "chunks 4–5/9 · parts 1–2/2 · lines 10–", `"chunk_end":4`},
		{"weak, joined parts", true, 2, 3, 4, 3, "chunks 4–5/9 · parts 2–3/3 · lines 10–", `"chunk_end":4`},
		{"low, joined chunks", false, 0, 0, 4, 0, "chunks 4–5/9 · lines 10–", `"chunk_end":4`},
		{"low, one passage", false, 1, 2, 0, 0, "chunk 4/9 · part 1/2 · lines 10–", `"chunk_index":3`},
	} {
		r := mdsearch.Result{Path: "pump.md", ChunkIndex: 3, TotalChunks: 9, Part: tt.part, Parts: tt.parts,
			StartLine: 10, EndLine: 26, Text: strings.TrimSuffix(first, "\n\n"), Score: Unlikely / 2}
		joins := seams{}
		if tt.end > 0 {
			joins[keyOf(r)] = []seam{{line: 28, chunk: tt.end, at: len(first)}}
			r.Text, r.EndLine = first+second, 34
			r.SetChunkEnd(tt.end)
		}
		likely := mdsearch.Result{Path: "a.md", TotalChunks: 1, StartLine: 1, EndLine: 1, Text: "x", Score: 0.9}
		f := found{resp: &mdsearch.SearchResponse{Results: []mdsearch.Result{likely, r}}, joins: joins, ends: []int{1, r.EndLine}, weak: tt.weak}
		f.cutFrom(1)
		got := f.resp.Results[1]
		js, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		footer := render.Footer(got)
		rest := fmt.Sprintf("lines %d-%d", got.EndLine+1, r.EndLine)
		if !got.Truncated || got.PartEnd != tt.wantPartEnd || got.EndLine >= 28 || got.RestTo != r.EndLine ||
			!strings.Contains(string(js), tt.chunk) || !strings.Contains(footer, tt.footer) || !strings.HasSuffix(footer, rest) {
			t.Errorf("%s: part_end %d (want %d), lines %d-%d, rest %d-%d\n%s\n%s", tt.name, got.PartEnd, tt.wantPartEnd,
				got.StartLine, got.EndLine, got.RestFrom, got.RestTo, js, footer)
		}
	}
}

// An opening ends at a line's end, and the rest it names starts on the
// next line, so no line shows twice; where one line is longer than an
// opening holds, it marks the rest of that line elided ("…"), and the
// rest starts on that line, read whole: its words after the cut are on
// no other line.
func TestOpeningEndsLine(t *testing.T) {
	sentence := "The pump draws water from the cistern through the copper pipe. "
	line := func(n int) string { return strings.TrimSpace(strings.Repeat(sentence, n)) }
	var wrapped []string
	for range 12 {
		wrapped = append(wrapped, "the pump draws water from the cistern")
	}
	for _, tt := range []struct {
		name   string
		text   string
		elided bool // the last line shown is cut short, and read again whole
	}{
		{"a paragraph line", "## Wiring\n\n" + line(6) + "\n\nMore text.\n\nAnd more.", false},
		{"wrapped lines", "## Wiring\n\n" + strings.Join(wrapped, "\n") + "\n\nMore text.", false},
		{"a code block", "## Wiring\n\n```go\n" + strings.Repeat("pump.Draw(water, cistern, pipe, valve)\n", 30) + "```\n\nMore text.", false},
		{"a line too long", "## Wiring\n\n" + line(20) + "\n\nMore text.", true},
		{"a line too long, last", "## Wiring\n\n" + line(20), true},
	} {
		note := strings.Split(tt.text, "\n")
		r := mdsearch.Result{Path: "pump.md", Text: tt.text, StartLine: 1, EndLine: len(note)}
		(seams{}).opening(&r, r.EndLine, unlikelyCut)
		shown := strings.Split(strings.TrimSuffix(r.Text, " …"), "\n")
		n := r.EndLine - r.StartLine + 1
		ok := r.Truncated && len(shown) >= n && strings.HasSuffix(r.Text, " …") == tt.elided && r.RestTo == len(note)
		for i := 0; ok && i < n; i++ {
			ok = shown[i] == note[i] || tt.elided && i == n-1 && strings.HasPrefix(note[i], shown[i])
		}
		if from := r.EndLine + 1; tt.elided {
			ok = ok && r.RestFrom == r.EndLine
		} else {
			ok = ok && r.RestFrom == from
		}
		if !ok {
			t.Errorf("%s: lines %d-%d, rest %d-%d, shown:\n%s", tt.name, r.StartLine, r.EndLine, r.RestFrom, r.RestTo, r.Text)
		}
	}
}
