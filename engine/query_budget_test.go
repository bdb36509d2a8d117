package engine

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/render"
)

// TestBudgetRendered: an answer with a token budget, printed as agents
// get it (headers, merged sections' names, footers with section names and
// read hints), stays within the budget, for passages that merged stub
// sections as for long ones, notice included. (A budget under what one result's header,
// footer and a dozen words cost is not held: the first result is kept.)
func TestBudgetRendered(t *testing.T) {
	dir := t.TempDir()
	for i := range 6 {
		var b strings.Builder
		fmt.Fprintf(&b, "# Widget note %d\n\n", i)
		for _, h := range []string{"Setup", "Usage", "Options", "Caveats", "Examples"} {
			fmt.Fprintf(&b, "## %s of the widget %d\n\nThe widget %s is short.\n\n", h, i, strings.ToLower(h))
		}
		fmt.Fprintf(&b, "## Long part\n\n%s\n\n%s\n", strings.Repeat("The widget runs long here. ", 40), strings.Repeat("More widget words. ", 40))
		write(t, dir, fmt.Sprintf("folder/sub/widget-%d.md", i), b.String())
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, dir, "notes")
	for _, budget := range []int{100, 150, 200, 300, 450, 600, 900} {
		// Explained, each result's why lines count too.
		resp := search(t, e, mdsearch.SearchRequest{Query: "widget", Mode: mdsearch.ModeKeyword, N: 10, MaxTokens: budget, Explain: budget%300 == 0})
		var b strings.Builder
		if err := render.Results(&b, resp, render.Options{SectionPaths: true}); err != nil {
			t.Fatal(err)
		}
		over := strings.Contains(resp.Notice, fmt.Sprintf("over max_tokens %d: the first result", budget))  // one result's frame is over: said
		if got := EstimateTokens(b.String()); got > budget+budget/20 && !(over && len(resp.Results) == 1) { // the notice counts too
			t.Errorf("budget %d: the answer is about %d tokens (%d results)\n%s", budget, got, len(resp.Results), b.String())
		}
	}
	// A budget under what the first result costs at least is said to be
	// over, never as if what is shown fit.
	for budget, over := range map[int]bool{20: true, 40: true, 300: false} {
		resp := search(t, e, mdsearch.SearchRequest{Query: "widget", Mode: mdsearch.ModeKeyword, N: 10, MaxTokens: budget})
		if says := strings.Contains(resp.Notice, fmt.Sprintf("over max_tokens %d: the first result", budget)); says != over || len(resp.Results) == 0 {
			t.Errorf("budget %d: %d results, notice %q; want it said over: %v", budget, len(resp.Results), resp.Notice, over)
		}
	}
	// An adapter's notice about the request leads the answer's and counts
	// against its budget.
	lead := "collection \"\" and tag \" \" were read as absent; where \"owner\" and \"team\" were null: searched without those filters"
	for _, budget := range []int{150, 200, 300} {
		resp := search(t, e, mdsearch.SearchRequest{Query: "widget", Mode: mdsearch.ModeKeyword, N: 10, MaxTokens: budget, Notice: lead})
		var b strings.Builder
		if err := render.Results(&b, resp, render.Options{SectionPaths: true}); err != nil {
			t.Fatal(err)
		}
		over := strings.Contains(resp.Notice, fmt.Sprintf("over max_tokens %d: the first result", budget)) && len(resp.Results) == 1
		if got := EstimateTokens(b.String()); got > budget+budget/20 && !over || !strings.HasPrefix(resp.Notice, lead) {
			t.Errorf("budget %d with a lead notice: about %d tokens, notice %q", budget, got, resp.Notice)
		}
	}
}

// whyTokens covers what render prints of a result's why, and not much more.
func TestWhyTokens(t *testing.T) {
	cos, rr := 0.61, 0.9
	for _, w := range []*mdsearch.Why{
		{KeywordRank: 1, FirstStage: 0.4},
		{Words: []mdsearch.WordMatch{{Word: "sourdough", In: []string{"text", "heading", "title"}}, {Word: `"rye flour"`, In: []string{}}},
			KeywordRank: 2, SemanticRank: 12, Cosine: &cos, HeadingCosine: &cos, FirstStage: 0.5964,
			Factors:   []mdsearch.Factor{{Name: "keywords", Effect: 2.791}, {Name: "common_heading", Effect: -0.6}, {Name: "phrase", Effect: 0.653}},
			ScoreBase: 0.1045, ScoreFactors: []mdsearch.Factor{{Name: "ranking", Effect: 1.762}, {Name: "query_found", Effect: 0.946}, {Name: "query_cosine", Effect: -0.598}},
			Reranker: &rr, LocalScore: &cos},
	} {
		printed := EstimateTokens(strings.Join(render.WhyLines(w), "\n"))
		if est := whyTokens(w); est < printed || est > printed*3/2+8 {
			t.Errorf("why of %d words, %d factors: estimated %d tokens, printed %d", len(w.Words), len(w.Factors), est, printed)
		}
	}
}

// frameTokens counts what a footer's "section continues to line N" adds
// to it, as render prints it.
func TestFrameTokensSectionEnd(t *testing.T) {
	r := mdsearch.Result{Path: "a.md", SectionPath: []string{"Unresolved questions"}, ChunkIndex: 23, TotalChunks: 32,
		StartLine: 504, EndLine: 519, PageWordCount: 4194}
	with := r
	with.SectionEnd = 525
	printed := EstimateTokens(render.Footer(with)) - EstimateTokens(render.Footer(r))
	if got := frameTokens(with) - frameTokens(r); printed <= 0 || got < printed {
		t.Errorf("section_end adds %d tokens to the frame, %d to the footer printed", got, printed)
	}
}

// Results left out by the budget are named in the notice, in order, in
// the room the budget keeps for them (an eighth): an agent reads the one
// it wants.
func TestBudgetNamesDropped(t *testing.T) {
	dir := t.TempDir()
	for i := range 5 {
		write(t, dir, fmt.Sprintf("widget-%d.md", i), fmt.Sprintf("# Widget %d\n\n## Long part\n\n%s\n", i, strings.Repeat("The widget runs long here. ", 30+10*i)))
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, dir, "notes")
	all := search(t, e, mdsearch.SearchRequest{Query: "widget", Mode: mdsearch.ModeKeyword, N: 5})
	for _, budget := range []int{250, 400, 600} {
		resp := search(t, e, mdsearch.SearchRequest{Query: "widget", Mode: mdsearch.ModeKeyword, N: 5, MaxTokens: budget})
		kept, dropped := len(resp.Results), len(all.Results)-len(resp.Results)
		if dropped == 0 {
			continue
		}
		_, list, ok := strings.Cut(resp.Notice, fmt.Sprintf("did not fit max_tokens %d: ", budget))
		if !ok {
			t.Errorf("budget %d: notice %q names none of the %d results left out", budget, resp.Notice, dropped)
			continue
		}
		at := 0
		for _, r := range all.Results[kept:] {
			name := fmt.Sprintf("%q (lines %d-%d, %.1f%%)", r.Path+" > "+strings.Join(r.SectionPath, " > "), r.StartLine, r.EndLine, 100*r.Score)
			i := strings.Index(list[at:], name)
			if i < 0 {
				break
			}
			at += i + len(name)
		}
		if at == 0 {
			t.Errorf("budget %d: notice %q names none of the %d results left out, in order", budget, resp.Notice, dropped)
		}
		var b strings.Builder
		if err := render.Results(&b, resp, render.Options{SectionPaths: true}); err != nil {
			t.Fatal(err)
		}
		if got := EstimateTokens(b.String()); got > budget+budget/20 {
			t.Errorf("budget %d: the answer is about %d tokens\n%s", budget, got, b.String())
		}
	}
}

// A list names no note it leaves out, so its budget keeps no room for
// names: the next note would not have fit.
func TestBudgetListKeepsNoRoom(t *testing.T) {
	dir := t.TempDir()
	for i := range 20 {
		write(t, dir, fmt.Sprintf("n%02d.md", i), fmt.Sprintf("---\ntags: [garden]\n---\n# Note %d\n\n%s\n", i, strings.Repeat("Compost and beds and tomatoes. ", 8)))
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, dir, "notes")
	all := search(t, e, mdsearch.SearchRequest{Tag: "garden", N: 20})
	for _, budget := range []int{300, 500, 600, 800} {
		resp := search(t, e, mdsearch.SearchRequest{Tag: "garden", N: 20, MaxTokens: budget})
		shown := len(resp.Results)
		if shown == 0 || shown >= len(all.Results) || strings.Contains(resp.Notice, "(lines") {
			t.Fatalf("budget %d: %d of %d notes, notice %q", budget, shown, len(all.Results), resp.Notice)
		}
		var b strings.Builder
		if err := render.Results(&b, resp, render.Options{SectionPaths: true}); err != nil {
			t.Fatal(err)
		}
		if used, next := EstimateTokens(b.String()), resultTokens(all.Results[shown]); used+next < budget-budget/20 {
			t.Errorf("budget %d: %d notes in %d tokens, and the next costs %d: room left unused", budget, shown, used, next)
		}
	}
}

// Two parts of one section left out are named once, their lines
// together: reading the section reads both; two sections of one path
// apart, by the read name of the second; a single line is named as
// results name it; "and N more" counts the sections not named.
func TestNamedDroppedOnce(t *testing.T) {
	part := func(start, end int, score float64) mdsearch.Result {
		return mdsearch.Result{Path: "a.md", SectionPath: []string{"A", "B"}, StartLine: start, EndLine: end, Score: score}
	}
	other := mdsearch.Result{Path: "c, d.md", SectionPath: []string{"C"}, StartLine: 3, EndLine: 3, Score: 0.05}
	twin := mdsearch.Result{Path: "a.md", SectionPath: []string{"A", "B"}, ReadSection: "#b-1", StartLine: 40, EndLine: 44, Score: 0.04}
	for _, tc := range []struct {
		in   []mdsearch.Result
		room int
		want string
	}{
		{[]mdsearch.Result{part(10, 20, 0.2), part(21, 30, 0.1), other}, 1000,
			`3 more results did not fit max_tokens 300: "a.md > A > B" (lines 10-30, 20.0%), "c, d.md > C" (line 3, 5.0%); read one, or raise max_tokens to see them`},
		{[]mdsearch.Result{part(10, 20, 0.2), part(21, 30, 0.1)}, 1000,
			`2 more results did not fit max_tokens 300: "a.md > A > B" (lines 10-30, 20.0%); read one, or raise max_tokens to see them`},
		{[]mdsearch.Result{part(10, 20, 0.2), twin, other}, 20,
			`3 more results did not fit max_tokens 300: "a.md > A > B" (lines 10-20, 20.0%), and 2 more sections; read one, or raise max_tokens to see them`},
		{[]mdsearch.Result{part(10, 20, 0.2), twin}, 1000,
			`2 more results did not fit max_tokens 300: "a.md > A > B" (lines 10-20, 20.0%), "a.md > #b-1" (lines 40-44, 4.0%); read one, or raise max_tokens to see them`},
	} {
		if got := namedDroppedNotice(tc.in, 300, tc.room); got != tc.want {
			t.Errorf("got\n%s\nwant\n%s", got, tc.want)
		}
	}
}
