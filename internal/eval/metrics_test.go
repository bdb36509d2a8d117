package eval

import (
	"math"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// res is a result on path with a section path and line range.
func res(path string, lines [2]int, section ...string) mdsearch.Result {
	return mdsearch.Result{Path: path, SectionPath: section, StartLine: lines[0], EndLine: lines[1], Text: "one two three"}
}

// labelled is a resolved labelled query.
func labelled(labels ...Label) *Query {
	for i := range labels {
		l := &labels[i]
		if !l.span.resolved {
			l.span = span{resolved: true, path: l.SectionPath, start: 1, end: 1000}
		}
	}
	return &Query{Text: "q", Relevant: labels}
}

func label(path string, start, end int, section ...string) Label {
	return Label{Path: path, SectionPath: section, span: span{resolved: true, path: section, start: start, end: end}}
}

func TestScore(t *testing.T) {
	adapt := label("V.md", 28, 30, "V", "Legacy", "Adaptations")
	// "/" resolves to the text before the first heading, which has no path.
	intro := Label{Path: "V.md", SectionPath: []string{"/"}, span: span{resolved: true, start: 1, end: 3}}
	cases := []struct {
		name    string
		q       *Query
		results []mdsearch.Result
		k       int
		want    Outcome
	}{
		{
			name:    "section hit at rank 2",
			q:       labelled(adapt),
			results: []mdsearch.Result{res("W.md", [2]int{1, 3}, "W"), res("V.md", [2]int{28, 29}, "V", "Legacy", "Adaptations")},
			k:       5,
			want:    Outcome{PageRank: 2, Hit3: true, PagesFound: 1, PagesWanted: 1, Labelled: true, SectionRank: 2, SpanRank: 2},
		},
		{
			name: "deeper subsection counts, parent does not",
			q:    labelled(label("V.md", 26, 30, "V", "Legacy")),
			results: []mdsearch.Result{
				res("V.md", [2]int{20, 25}, "V", "Reception"),
				res("V.md", [2]int{29, 30}, "V", "Legacy", "Adaptations"),
			},
			k:    5,
			want: Outcome{PageRank: 1, Hit3: true, PagesFound: 1, PagesWanted: 1, Labelled: true, SectionRank: 2, SpanRank: 2},
		},
		{
			name:    "parent section is no section hit but its lines overlap",
			q:       labelled(adapt),
			results: []mdsearch.Result{res("V.md", [2]int{26, 29}, "V", "Legacy")},
			k:       5,
			want:    Outcome{PageRank: 1, Hit3: true, PagesFound: 1, PagesWanted: 1, Labelled: true, SpanRank: 1},
		},
		{
			name: "merged stub passage: a section it also covers is a section hit",
			q:    labelled(adapt),
			results: []mdsearch.Result{func() mdsearch.Result {
				r := res("V.md", [2]int{26, 30}, "V", "Legacy")
				r.Sections = [][]string{{"V", "Legacy"}, {"V", "Legacy", "Adaptations"}}
				return r
			}()},
			k:    5,
			want: Outcome{PageRank: 1, Hit3: true, PagesFound: 1, PagesWanted: 1, Labelled: true, SectionRank: 1, SpanRank: 1},
		},
		{
			name:    `the intro ("/"): another section of the note is no section hit`,
			q:       labelled(intro),
			results: []mdsearch.Result{res("V.md", [2]int{20, 25}, "V", "Legacy")},
			k:       5,
			want:    Outcome{PageRank: 1, Hit3: true, PagesFound: 1, PagesWanted: 1, Labelled: true},
		},
		{
			name:    `the intro ("/"): its own passage is a section hit`,
			q:       labelled(intro),
			results: []mdsearch.Result{res("V.md", [2]int{20, 25}, "V", "Legacy"), res("V.md", [2]int{1, 3})},
			k:       5,
			want:    Outcome{PageRank: 1, Hit3: true, PagesFound: 1, PagesWanted: 1, Labelled: true, SectionRank: 2, SpanRank: 2},
		},
		{
			name: `the intro ("/") merged forward into the first section is a section hit`,
			q:    labelled(intro),
			results: []mdsearch.Result{func() mdsearch.Result {
				r := res("V.md", [2]int{1, 9}, "V")
				r.Sections = [][]string{{"V"}, {}}
				return r
			}()},
			k:    5,
			want: Outcome{PageRank: 1, Hit3: true, PagesFound: 1, PagesWanted: 1, Labelled: true, SectionRank: 1, SpanRank: 1},
		},
		{
			name:    "a whole-note label: any section is a section hit",
			q:       labelled(label("V.md", 1, 40)),
			results: []mdsearch.Result{res("V.md", [2]int{20, 25}, "V", "Legacy")},
			k:       5,
			want:    Outcome{PageRank: 1, Hit3: true, PagesFound: 1, PagesWanted: 1, Labelled: true, SectionRank: 1, SpanRank: 1},
		},
		{
			name:    "baseline chunk: span hit only",
			q:       labelled(adapt),
			results: []mdsearch.Result{res("V.md", [2]int{1, 40})},
			k:       5,
			want:    Outcome{PageRank: 1, Hit3: true, PagesFound: 1, PagesWanted: 1, Labelled: true, SpanRank: 1},
		},
		{
			name:    "adjacent lines do not overlap",
			q:       labelled(adapt),
			results: []mdsearch.Result{res("V.md", [2]int{20, 27}), res("V.md", [2]int{31, 40})},
			k:       5,
			want:    Outcome{PageRank: 1, Hit3: true, PagesFound: 1, PagesWanted: 1, Labelled: true},
		},
		{
			name:    "same section on another page is no hit",
			q:       labelled(adapt),
			results: []mdsearch.Result{res("W.md", [2]int{28, 29}, "V", "Legacy", "Adaptations")},
			k:       5,
			want:    Outcome{PagesWanted: 1, Labelled: true},
		},
		{
			name: "hit beyond k is ignored, Hit@3 looks at 3 results",
			q:    labelled(adapt),
			results: []mdsearch.Result{
				res("A.md", [2]int{1, 1}), res("B.md", [2]int{1, 1}), res("V.md", [2]int{28, 28}, "V", "Legacy", "Adaptations"),
			},
			k:    2,
			want: Outcome{PagesWanted: 1, Labelled: true, Hit3: true},
		},
		{
			name: "two relevant pages, one found",
			q:    labelled(adapt, label("W.md", 1, 5, "W")),
			results: []mdsearch.Result{
				res("X.md", [2]int{1, 1}), res("X.md", [2]int{2, 2}), res("Y.md", [2]int{1, 1}), res("W.md", [2]int{9, 9}, "W", "Other"),
			},
			k:    5,
			want: Outcome{PageRank: 4, PagesFound: 1, PagesWanted: 2, Labelled: true, SectionRank: 4},
		},
		{
			name:    "path contains",
			q:       &Query{Text: "q", PathContains: "api-design", Difficulty: "easy"},
			results: []mdsearch.Result{res("x/remote.md", [2]int{1, 1}), res("eval/api-design-principles.md", [2]int{1, 9}), res("eval/api-design-principles.md", [2]int{10, 19})},
			k:       5,
			want:    Outcome{Difficulty: "easy", PageRank: 2, Hit3: true, PagesFound: 1, PagesWanted: 1},
		},
		{
			name: "no results",
			q:    &Query{Text: "q", PathContains: "a"},
			k:    5,
			want: Outcome{PagesWanted: 1},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Score(c.q, c.results, c.k)
			want := c.want
			want.Query = "q"
			for _, r := range c.results[:min(c.k, len(c.results))] {
				want.Tokens += 1.3 * float64(resultWords(r))
			}
			// Reported to a tenth: JSON shows 757.9, not 757.9000000000001.
			want.Tokens = math.Round(want.Tokens*10) / 10
			if got.Tokens != want.Tokens {
				t.Errorf("tokens %v, want %v", got.Tokens, want.Tokens)
			}
			got.Tokens = want.Tokens
			if !equalOutcome(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
		})
	}
}

// resultWords is what an agent reads of a res result: its three words of
// text under the heading prefix "[A > B] " (2n−1 words for n headings, no
// title), or the text alone without a section path.
func resultWords(r mdsearch.Result) int {
	if n := len(r.SectionPath); n > 0 {
		return 3 + 2*n - 1
	}
	return 3
}

func equalOutcome(a, b Outcome) bool {
	return a.Query == b.Query && a.Difficulty == b.Difficulty && a.PageRank == b.PageRank && a.Hit3 == b.Hit3 &&
		a.PagesFound == b.PagesFound && a.PagesWanted == b.PagesWanted && a.Labelled == b.Labelled &&
		a.SectionRank == b.SectionRank && a.SpanRank == b.SpanRank && a.Tokens == b.Tokens
}

func TestScoreTokensCountThePrefix(t *testing.T) {
	r := mdsearch.Result{Path: "a.md", Title: "A", SectionPath: []string{"B"}, Text: "four words of text"}
	if got := Score(&Query{Text: "q", PathContains: "a"}, []mdsearch.Result{r}, 5).Tokens; math.Abs(got-1.3*7) > 1e-9 {
		t.Errorf("tokens %v, want 1.3 × 7 words", got)
	}
	if got := EstimateTokens(strings.Repeat("word ", 10)); math.Abs(got-13) > 1e-9 {
		t.Errorf("EstimateTokens: %v, want 13", got)
	}
}

func TestSummarize(t *testing.T) {
	outs := []Outcome{
		{PageRank: 1, Hit3: true, PagesFound: 1, PagesWanted: 1, Labelled: true, SectionRank: 1, SpanRank: 1, Tokens: 100, LatencyMS: 4, Difficulty: "easy"},
		{PageRank: 2, Hit3: true, PagesFound: 1, PagesWanted: 2, Labelled: true, SpanRank: 3, Tokens: 200, LatencyMS: 1, Difficulty: "easy"},
		{PageRank: 4, PagesFound: 1, PagesWanted: 1, Labelled: true, Tokens: 300, LatencyMS: 3, Difficulty: "hard"},
		{Tokens: 0, LatencyMS: 2, PagesWanted: 1},
	}
	m := Summarize(outs)
	want := Metrics{
		Queries:    4,
		RecallAtK:  (1 + 0.5 + 1 + 0) / 4,
		MRR:        (1 + 0.5 + 0.25 + 0) / 4,
		Hit3:       0.5,
		SectionHit: 1.0 / 3,
		SpanHit:    2.0 / 3,
		Labelled:   3,
		Tokens:     150,
		P50MS:      2, // nearest rank: ceil(0.5 × 4) = 2nd of 1 2 3 4
		P95MS:      4,
	}
	for _, f := range []struct {
		name      string
		got, want float64
	}{
		{"recall", m.RecallAtK, want.RecallAtK}, {"MRR", m.MRR, want.MRR}, {"Hit@3", m.Hit3, want.Hit3},
		{"section", m.SectionHit, want.SectionHit}, {"span", m.SpanHit, want.SpanHit}, {"tokens", m.Tokens, want.Tokens},
		{"p50", m.P50MS, want.P50MS}, {"p95", m.P95MS, want.P95MS},
	} {
		if math.Abs(f.got-f.want) > 1e-9 {
			t.Errorf("%s: %v, want %v", f.name, f.got, f.want)
		}
	}
	if m.Queries != 4 || m.Labelled != 3 {
		t.Errorf("counts: %+v", m)
	}
	if len(m.Hit3By) != 2 || m.Hit3By["easy"] != 1 || m.Hit3By["hard"] != 0 {
		t.Errorf("by difficulty: %v", m.Hit3By)
	}
	if z := Summarize(nil); z.Queries != 0 || z.MRR != 0 || z.Hit3By != nil {
		t.Errorf("empty: %+v", z)
	}
}

func TestPercentile(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3, 10, 9, 8, 7, 6}
	cases := []struct{ p, want float64 }{{0, 1}, {10, 1}, {50, 5}, {51, 6}, {95, 10}, {100, 10}}
	for _, c := range cases {
		if got := Percentile(xs, c.p); got != c.want {
			t.Errorf("p%v = %v, want %v", c.p, got, c.want)
		}
	}
	if Percentile(nil, 50) != 0 || Percentile([]float64{7}, 95) != 7 {
		t.Error("edge cases")
	}
	if xs[0] != 5 {
		t.Error("Percentile sorted its input")
	}
}
