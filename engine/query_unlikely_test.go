package engine

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A search says no result is likely to answer when the second stage's
// best score is under Unlikely, and only then.
func TestUnlikelyNotice(t *testing.T) {
	weak := []mdsearch.Result{{Score: Unlikely / 2}}
	for _, tc := range []struct {
		name    string
		q       query
		scored  bool
		results []mdsearch.Result
		says    bool
	}{
		{"weak best", query{}, true, weak, true},
		{"strong best", query{}, true, []mdsearch.Result{{Score: Unlikely}}, false},
		{"no results", query{}, true, nil, false},
		{"first stage scores", query{}, false, weak, false},    // no second stage: another scale
		{"reranked", query{reranked: true}, true, weak, false}, // the reranker's scale
		{"asks nothing", query{nothing: true}, true, weak, false},
	} {
		if got := isUnlikely(&tc.q, tc.scored, tc.results); got != tc.says {
			t.Errorf("%s: unlikely %v", tc.name, got)
		}
	}
}

// The notice says what a low best score means: in semantic mode, or
// with a respelled query, not that the notes lack the answer.
func TestUnlikelyNoticeWords(t *testing.T) {
	for _, tc := range []struct {
		name      string
		respelled respell
		semantic  bool
		want, not string
	}{
		{"plain", noRespell, false, "the notes most likely do not hold the answer", "meaning alone"},
		{"semantic", noRespell, true, "meaning alone misses answers that the default hybrid search finds", "do not hold"},
		{"respelled", respellOffered, false, "as typed", "do not hold"},
		{"respelled, semantic", respellOffered, true, "with the respelled query the results may differ, and a search by meaning alone misses answers that the default hybrid search finds", "do not hold"},
		// Searched respelled, it did no better: the typed query's answer is the notes'.
		{"respelled, searched", respellLost, false, "the notes most likely do not hold the answer", "respelled"},
		{"respelled, searched, semantic", respellLost, true, "meaning alone misses answers", "respelled"},
	} {
		got := unlikelyNotice(0.043, tc.respelled, tc.semantic)
		if !strings.Contains(got, "4.3%") || !strings.Contains(got, tc.want) || strings.Contains(got, tc.not) {
			t.Errorf("%s: %q", tc.name, got)
		}
	}
}

// A weak best result in a collection whose first index run was stopped
// before it read every note does not say the notes lack the answer: it
// says the run was stopped, and how to finish it.
func TestUnlikelyWhileUnread(t *testing.T) {
	vault := copyDir(t, sampleVault)
	for i := range 1200 {
		write(t, vault, fmt.Sprintf("more/n%04d.md", i), fmt.Sprintf("# N%d\n\n%s\n", i, strings.Repeat("alpha words here. ", 30)))
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	if st, err := e.Index(stopAtCommit(t, e), mdsearch.IndexRequest{Dir: vault, Name: "v"}, nil); err == nil || st == nil || st.Added == 0 || st.Added == st.Files {
		t.Fatalf("the first run was not stopped part way: %v, %+v", err, st)
	}
	resp := search(t, e, mdsearch.SearchRequest{Query: "alpha telescope mirror calibration", Mode: mdsearch.ModeKeyword, N: 3})
	if len(resp.Results) > 0 && (!strings.Contains(resp.Notice, `the first index run of collection "v" was stopped before it read every note`) ||
		strings.Contains(resp.Notice, "most likely do not hold")) {
		t.Errorf("notice %q", resp.Notice)
	}
	if len(resp.Results) == 0 {
		t.Fatalf("no results to judge: %q", resp.Notice)
	}
}

// A search whose best result is unlikely to answer, or whose query asks
// nothing, shows each result's opening, saying which lines read the rest,
// and the notice says so; one that is likely to answer shows them whole.
func TestUnlikelyResultsCut(t *testing.T) {
	e := telescopeIndex(t)

	weak := search(t, e, mdsearch.SearchRequest{Query: "alpha quasar spectroscopy redshift", Mode: mdsearch.ModeKeyword, N: 3})
	if len(weak.Results) == 0 || !strings.Contains(weak.Notice, "no result is likely to answer") ||
		!strings.Contains(weak.Notice, fmt.Sprintf("%d results cut to their opening", len(weak.Results))) {
		t.Fatalf("weak search: notice %q, %d results", weak.Notice, len(weak.Results))
	}
	for _, r := range weak.Results {
		if !r.Truncated || EstimateTokens(r.Text) > 2*unlikelyPreview || !strings.HasPrefix(r.ReadHint, "cut as unlikely to answer, ") || r.RestFrom <= r.EndLine {
			t.Errorf("%s: truncated %v, %d tokens, hint %q, lines %d-%d then %d-%d", r.Path, r.Truncated, EstimateTokens(r.Text), r.ReadHint, r.StartLine, r.EndLine, r.RestFrom, r.RestTo)
		}
	}

	// A query of no word the keyword index reads asks nothing a result can
	// be known to answer: meaning's results show their openings, in every
	// mode, as a query of common words alone does.
	for _, mode := range []mdsearch.Mode{mdsearch.ModeHybrid, mdsearch.ModeSemantic} {
		resp := search(t, e, mdsearch.SearchRequest{Query: "->", Mode: mode, N: 3})
		if len(resp.Results) == 0 || !strings.Contains(resp.Notice, "results cut to their opening") {
			t.Errorf("%s \"->\": notice %q, %d results", mode, resp.Notice, len(resp.Results))
		}
		for _, r := range resp.Results {
			if !r.Truncated || EstimateTokens(r.Text) > 2*unlikelyPreview {
				t.Errorf("%s \"->\": %s shown whole, %d tokens", mode, r.Path, EstimateTokens(r.Text))
			}
		}
	}

	// A quoted phrase chose them: their openings may not show it, so they stay whole.
	quoted := search(t, e, mdsearch.SearchRequest{Query: `"north wall" quasar spectroscopy redshift`, Mode: mdsearch.ModeKeyword, N: 3})
	if len(quoted.Results) == 0 || !strings.Contains(quoted.Notice, "no result is likely to answer") || strings.Contains(quoted.Notice, "cut to") || quoted.Results[0].Truncated {
		t.Errorf("quoted: notice %q, %d results", quoted.Notice, len(quoted.Results))
	}

	// Under a budget, the notice counts the cut results shown, and those
	// left out are named with all their lines, not their openings'.
	budget := search(t, e, mdsearch.SearchRequest{Query: "alpha quasar spectroscopy redshift", Mode: mdsearch.ModeKeyword, N: 3, MaxTokens: 250})
	if len(budget.Results) != 1 || !strings.Contains(budget.Notice, "1 result cut to its opening") || !strings.Contains(budget.Notice, "did not fit max_tokens 250") {
		t.Errorf("budget: notice %q, %d results", budget.Notice, len(budget.Results))
	}
	whole := weak.Results[1]
	if named := fmt.Sprintf("(lines %d-%d,", whole.StartLine, whole.RestTo); !strings.Contains(budget.Notice, named) {
		t.Errorf("budget: notice %q, want the second result named %s", budget.Notice, named)
	}

	// A query of common words alone asks nothing, in every mode: its
	// results, which none can be known to answer, show their openings.
	for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeHybrid, mdsearch.ModeSemantic} {
		nothing := search(t, e, mdsearch.SearchRequest{Query: "on the", Mode: mode, N: 3})
		if len(nothing.Results) == 0 || !strings.Contains(nothing.Notice, "holds only common words") ||
			!strings.Contains(nothing.Notice, "cut to their opening") || !nothing.Results[0].Truncated {
			t.Errorf("%s: common words alone: notice %q, %d results", mode, nothing.Notice, len(nothing.Results))
		}
	}

	strong := search(t, e, mdsearch.SearchRequest{Query: "telescope mirror calibration", Mode: mdsearch.ModeKeyword, N: 3})
	if len(strong.Results) == 0 || strong.Results[0].Score < Unlikely || strings.Contains(strong.Notice, "cut to") {
		t.Fatalf("strong search: notice %q, %d results", strong.Notice, len(strong.Results))
	}
	if r := strong.Results[0]; r.Truncated || EstimateTokens(r.Text) < 4*unlikelyPreview {
		t.Errorf("strong search's best: truncated %v, %d tokens", r.Truncated, EstimateTokens(r.Text))
	}
}

// A passage that merges stub sections names them all; cut to its opening
// it names those whose headings it still shows, and its own alone where
// it shows no other.
func TestCutNamesSectionsShown(t *testing.T) {
	vault := t.TempDir()
	stub := strings.Repeat("Bolt the frame down to the slab with four anchors and check it is level. ", 3)
	long := strings.Repeat("The pump draws water from the cistern through the copper pipe.\n\n", 30)
	write(t, vault, "pump.md", "# Pump\n\n## Install\n\n"+stub+"\n\n## Wiring\n\n"+long)
	write(t, vault, "valve.md", "# Valve\n\n"+stub+"\n\n## Wiring\n\n"+strings.Repeat("The valve opens when the float rises. ", 20)+"\n\n"+long)
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	for _, tt := range []struct {
		query string
		whole bool
		want  [][]string
	}{
		{"pump quasar spectroscopy redshift", false, [][]string{{"Pump"}, {"Pump", "Install"}}},
		{"valve quasar spectroscopy redshift", false, nil},
		{"pump cistern copper pipe", true, [][]string{{"Pump"}, {"Pump", "Install"}, {"Pump", "Wiring"}}},
	} {
		resp := search(t, e, mdsearch.SearchRequest{Query: tt.query, Mode: mdsearch.ModeKeyword, N: 1})
		if len(resp.Results) != 1 {
			t.Fatalf("%s: %d results", tt.query, len(resp.Results))
		}
		r := resp.Results[0]
		if r.Truncated == tt.whole || !slices.EqualFunc(r.Sections, tt.want, slices.Equal) || len(r.ReadSections) > len(r.Sections) {
			t.Errorf("%s: truncated %v, sections %q (read %q), want %q", tt.query, r.Truncated, r.Sections, r.ReadSections, tt.want)
		}
	}
}

// After a first result likely to answer, the results that score under
// Unlikely and show one section show their openings, and the notice says
// why (keyword mode: the test embedder has no second stage to score
// hybrid's). Semantic mode's, whose right answers score low, and a
// reranker's stay whole (TestLowCutWhen).
func TestLowResultsCut(t *testing.T) {
	e := telescopeIndex(t)
	for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeSemantic} {
		resp := search(t, e, mdsearch.SearchRequest{Query: "telescope mirror calibration north wall", Mode: mode, N: 5})
		if len(resp.Results) < 3 || resp.Results[0].Score < Unlikely || resp.Results[0].Truncated {
			t.Fatalf("%s: want a likely first result, whole, and others: %s", mode, describe(resp))
		}
		cut := 0
		for _, r := range resp.Results[1:] {
			low := r.Score < Unlikely && mode != mdsearch.ModeSemantic
			if r.Truncated != low || low && EstimateTokens(r.Text) > 2*unlikelyPreview {
				t.Errorf("%s: %s at %.3f: cut %v, %d tokens", mode, r.Path, r.Score, r.Truncated, EstimateTokens(r.Text))
			}
			if low {
				cut++
			}
		}
		if says := strings.Contains(resp.Notice, "scoring under 10% cut to their opening"); says != (cut > 1) {
			t.Errorf("%s: %d cut, notice %q", mode, cut, resp.Notice)
		}
		if mode == mdsearch.ModeKeyword && cut < 2 {
			t.Errorf("keyword: %d results cut, want the low ones: %s", cut, describe(resp))
		}
	}
}

func TestLowCutWhen(t *testing.T) {
	for _, tc := range []struct {
		name         string
		q            query
		scored, weak bool
		want         bool
	}{
		{"hybrid", query{mode: mdsearch.ModeHybrid}, true, false, true},
		{"keyword", query{mode: mdsearch.ModeKeyword}, true, false, true},
		{"semantic", query{mode: mdsearch.ModeSemantic}, true, false, false},
		{"not scored", query{mode: mdsearch.ModeHybrid}, false, false, false},
		{"first unlikely too", query{mode: mdsearch.ModeHybrid}, true, true, false},
		{"reranked", query{mode: mdsearch.ModeHybrid, reranked: true}, true, false, false},
		{"rerank to come", query{mode: mdsearch.ModeHybrid, deferred: true}, true, false, false},
	} {
		if got := lowCut(&tc.q, tc.scored, tc.weak); got != tc.want {
			t.Errorf("%s: lowCut = %v", tc.name, got)
		}
	}
}

// telescopeIndex indexes four long notes about a beam and wall and one
// about a telescope, each a single long passage: results worth cutting.
func telescopeIndex(t *testing.T) *Engine {
	t.Helper()
	vault := t.TempDir()
	long := strings.Repeat("The alpha beam rests on the brackets of the north wall.\n\n", 30)
	for i := range 4 {
		write(t, vault, fmt.Sprintf("n%d.md", i), fmt.Sprintf("# Note %d\n\n%s", i, long))
	}
	write(t, vault, "telescope.md", "# Telescope\n\n"+strings.Repeat("Collimate the telescope mirror before calibration of the mount.\n\n", 30))
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	return e
}
