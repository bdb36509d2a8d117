package engine

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/render"
)

// TestBudgetCutsLongWord: a first result whose first block holds a word
// longer than the budget (an embedded image) is cut inside the word, at a
// rune boundary, to fit the budget (or, where the frame leaves less, to
// what a few words cost), and its read hint names the rest to the
// passage's end.
func TestBudgetCutsLongWord(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		budget     int
	}{
		{"image, a budget the frame takes", "# Image note\n\n![x](data:image/png;base64," + strings.Repeat("A", 1200000) + ")\n\nAfter image wombat.", 50},
		{"image", "# Image note\n\n![x](data:image/png;base64," + strings.Repeat("A", 1200000) + ")\n\nAfter image wombat.", 200},
		{"image, a large budget", "# Image note\n\n![x](data:image/png;base64," + strings.Repeat("A", 1200000) + ")\n\nAfter image wombat.", 5000},
		{"two-byte runes", "# Accents\n\n" + strings.Repeat("é", 600000) + "\n\nAfter accents wombat.", 300},
		{"three-byte runes", "# Arrows\n\n" + strings.Repeat("→", 400000) + "\n\nAfter arrows wombat.", 301},
	} {
		rs := []mdsearch.Result{{Path: "img.md", Text: tc.text, StartLine: 1, EndLine: 5}}
		got, dropped := fitBudget(rs, tc.budget, nil, capResults(rs, nil))
		if len(got) != 1 || dropped != 0 {
			t.Fatalf("%s: %d kept, %d dropped", tc.name, len(got), dropped)
		}
		r := got[0]
		frame := frameTokens(r) // its read hint too
		text := EstimateTokens(r.Text)
		if text > max(tc.budget-frame, maxFloorTokens) || tc.budget-frame >= maxFloorTokens && text+frame > tc.budget {
			t.Errorf("%s: budget %d, text of %d tokens (%d bytes) and a frame of %d", tc.name, tc.budget, text, len(r.Text), frame)
		}
		head, _, _ := strings.Cut(tc.text, "\n\n")
		if !strings.HasPrefix(tc.text, r.Text) || !utf8.ValidString(r.Text) || len(r.Text) <= len(head)+2 {
			t.Errorf("%s: %q is not a start of the note's text, cut at a rune, inside the word", tc.name, r.Text[max(0, len(r.Text)-20):])
		}
		if !r.Truncated || r.EndLine != 3 || r.RestFrom != 3 || r.RestTo != 5 ||
			r.ReadHint != "cut to fit the token budget, 3 more lines: read img.md, lines 3-5" {
			t.Errorf("%s: lines to %d, rest %d-%d, %q", tc.name, r.EndLine, r.RestFrom, r.RestTo, r.ReadHint)
		}
	}
}

// TestBudgetLongWordSearched: a search with a budget prints a note of one
// huge word within it; the word is shown to its start (shortenRuns), so
// the text after it, which matched, is shown, and the hint names the
// word's line.
func TestBudgetLongWordSearched(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "img.md", "# Image note\n\n![x](data:image/png;base64,"+strings.Repeat("A", 1200000)+")\n\nAfter image wombat.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, budget := range []int{50, 100, 200, 400, 0} {
		resp := search(t, e, mdsearch.SearchRequest{Query: "wombat", Mode: mdsearch.ModeKeyword, N: 1, MaxTokens: budget})
		if len(resp.Results) != 1 {
			t.Fatalf("budget %d: %d results", budget, len(resp.Results))
		}
		var b strings.Builder
		if err := render.Results(&b, resp, render.Options{}); err != nil {
			t.Fatal(err)
		}
		r, got := resp.Results[0], EstimateTokens(b.String())
		switch {
		case (budget == 0 || budget >= 100) && (len(r.Text) > 200 || !strings.Contains(r.Text, "After image wombat.")):
			t.Errorf("budget %d: %d bytes, want the word's start and the text after it: %q", budget, len(r.Text), r.Text[:min(len(r.Text), 300)])
		case budget > 0 && got > max(budget+budget/20, 2*budget):
			t.Errorf("budget %d: the answer is about %d tokens\n%s", budget, got, b.String()[:min(b.Len(), 500)])
		case budget >= 100 && got > budget+budget/20:
			t.Errorf("budget %d: the answer is about %d tokens\n%s", budget, got, b.String())
		}
		if r.RestFrom != 3 || r.RestTo != 3 || r.ReadHint != "a 1.1 MB run without spaces on line 3 shown to its first 64 bytes: read v:img.md, lines 3-3" {
			t.Errorf("budget %d: rest %d-%d, %q", budget, r.RestFrom, r.RestTo, r.ReadHint)
		}
	}
}

// min_score leaves out every result scoring under it, the first too, and
// the notice counts them and names the best left out.
func TestMinScore(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "reactivity.md", "# Reactivity\n\nThe reactivity system tracks reactive state.\n\n## Watchers\n\nA watcher runs a callback on change; its cleanup runs first.\n")
	write(t, vault, "other.md", "# Other\n\nA system of pipes carries water.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	req := mdsearch.SearchRequest{Query: "reactivity system", Mode: mdsearch.ModeKeyword, N: 5}
	all := search(t, e, req).Results
	if len(all) < 2 || all[0].Score <= all[len(all)-1].Score {
		t.Fatalf("want results of different scores, got %+v", all)
	}
	for _, tc := range []struct {
		name   string
		min    float64
		kept   int
		notice string
	}{
		{"off", 0, len(all), ""},
		{"all pass", all[len(all)-1].Score, len(all), ""},
		{"the weakest left out", all[len(all)-1].Score + 1e-9, len(all) - 1,
			fmt.Sprintf("1 result left out: it scored under min_score %g (%s)", all[len(all)-1].Score+1e-9, render.Percent(all[len(all)-1].Score))},
		{"all left out", 1, 0, fmt.Sprintf("%s left out: they scored under min_score 1 (the best %s)", nResults(len(all)), render.Percent(all[0].Score))},
	} {
		req := req
		req.MinScore = tc.min
		resp := search(t, e, req)
		if len(resp.Results) != tc.kept || resp.Total != tc.kept {
			t.Errorf("%s: %d results (total %d), want %d", tc.name, len(resp.Results), resp.Total, tc.kept)
		}
		for _, r := range resp.Results {
			if r.Score < tc.min {
				t.Errorf("%s: kept a result scoring %v", tc.name, r.Score)
			}
		}
		if !strings.Contains(resp.Notice, tc.notice) || tc.notice == "" && resp.Notice != "" {
			t.Errorf("%s: notice %q, want one holding %q", tc.name, resp.Notice, tc.notice)
		}
	}
}
