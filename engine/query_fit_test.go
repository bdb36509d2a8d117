package engine

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A cut at a line's end names the rest from the next line, not the line
// shown; a cut inside a line, from that line.
func TestShortenRestLine(t *testing.T) {
	var lines []string
	for i := 1; i <= 40; i++ {
		lines = append(lines, fmt.Sprintf("step %d runs", i))
	}
	for _, tt := range []struct {
		text     string
		nextLine bool
	}{
		{strings.Join(lines, "\n"), true},                           // each line ends a sentence-less run of words
		{strings.Repeat("one two three four five six ", 40), false}, // one long line
	} {
		r := mdsearch.Result{Path: "a.md", Text: tt.text, StartLine: 1, EndLine: strings.Count(tt.text, "\n") + 1}
		if !(seams{}).shorten(&r, 20, true, r.EndLine, "cut", atWord) || !r.Truncated {
			t.Fatalf("not cut: %+v", r)
		}
		atEnd := strings.HasSuffix(tt.text[:len(r.Text)+1], r.Text+"\n")
		if atEnd != tt.nextLine || (atEnd && r.RestFrom != r.EndLine+1) || (!atEnd && r.RestFrom != r.EndLine) {
			t.Errorf("shown lines %d-%d, rest from %d (cut at a line's end: %v)", r.StartLine, r.EndLine, r.RestFrom, atEnd)
		}
	}
}

// A budget the first result's frame and notices alone are over says what
// they cost together, which is over it.
func TestBudgetOverNotice(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "ops.md", "# Ops\n\n"+strings.Repeat("The migration moved every table to the new cluster over a weekend. ", 30)+"\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	resp := search(t, e, mdsearch.SearchRequest{Query: "migration cluster", MaxTokens: 60})
	var cost int
	_, rest, ok := strings.Cut(resp.Notice, "these notices cost about ")
	if _, err := fmt.Sscanf(rest, "%d", &cost); !ok || err != nil || cost <= 60 {
		t.Errorf("notice %q: cost %d, want over the budget of 60", resp.Notice, cost)
	}
}
