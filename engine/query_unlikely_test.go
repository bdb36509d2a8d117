package engine

import (
	"fmt"
	"path/filepath"
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
