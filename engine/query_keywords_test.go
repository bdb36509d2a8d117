package engine

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/testenv"
)

// TestScoresWhateverN: a passage scores the same however many results a
// search asks for; the results for n are the first n of those for 20
// (their notes and scores: a result may take in a neighbouring passage
// found further down).
// The second stage scores each candidate against the others, so its
// candidates must not depend on n. Here more passages hold both words
// than a search of a few results once read of the keyword list, and
// fewer than one of five read, so the list the second stage drew on
// depended on n (TestScoresWhateverNDeeper and TestFirstTopKept have the
// deeper rounds).
func TestScoresWhateverN(t *testing.T) {
	tiers := map[string]string{}
	for i := range 130 {
		tiers[fmt.Sprintf("both/n%03d.md", i)] = fmt.Sprintf("# Note %d\n\nThe harbour ferry timetable %d lists %s.\n", i, i, strings.Repeat("crossings and sailings of the day ", 8+i%7))
	}
	for i := range 60 {
		tiers[fmt.Sprintf("one/m%02d.md", i)] = fmt.Sprintf("# Other %d\n\n%s\n", i, strings.Repeat("ferry ", 6+i%5))
	}
	for name, files := range map[string]map[string]string{"tiers": tiers} {
		vault := t.TempDir()
		for rel, text := range files {
			write(t, vault, rel, text)
		}
		e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
		index(t, e, vault, "v")
		for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeHybrid} {
			list := func(n int) []string {
				var out []string
				for _, r := range search(t, e, mdsearch.SearchRequest{Query: "ferry timetable", Mode: mode, N: n, MaxPerPage: 2}).Results {
					out = append(out, fmt.Sprintf("%s %v", r.Path, r.Score))
				}
				return out
			}
			long := list(20)
			for _, n := range []int{1, 2, 3, 5, 10} {
				if got := list(n); !slices.Equal(got, long[:min(n, len(long))]) {
					t.Errorf("%s, %s, n=%d: %v, not the start of n=20's %v", name, mode, n, got, long)
				}
			}
		}
	}
}

// TestFirstTopKept: a deeper round, read where the first cannot fill the
// results asked for (a few long notes under the per-note cap), gives the
// second stage the first round's candidates, however the deeper lists fuse:
// in a small vault the first round may hold fewer than secondK, and the
// deeper round's others would join them.
func TestFirstTopKept(t *testing.T) {
	cands := func(ids ...int64) []candidate {
		out := make([]candidate, len(ids))
		for i, id := range ids {
			out[i] = candidate{id: id, score: 1 / float64(i+1)}
		}
		return out
	}
	ids := func(cs []candidate) []int64 {
		out := make([]int64, len(cs))
		for i, c := range cs {
			out[i] = c.id
		}
		return out
	}
	for _, tc := range []struct {
		name          string
		first, deeper []int64
		want, top     []int64
	}{
		{"fewer than secondK", []int64{1, 2, 3}, []int64{9, 1, 3, 8, 2}, []int64{1, 2, 3, 9, 8}, []int64{1, 2, 3}},
		{"the same", []int64{1, 2}, []int64{1, 2}, []int64{1, 2}, []int64{1, 2}},
		{"none first", nil, []int64{4, 5}, []int64{4, 5}, []int64{4, 5}}, // the deeper round is the first with candidates
	} {
		q := &query{}
		if got := ids(q.keepFirstTop(cands(tc.first...))); !slices.Equal(got, tc.first) {
			t.Errorf("%s: the first round's candidates became %v", tc.name, got)
		}
		got, top := q.stageRead(q.keepFirstTop(cands(tc.deeper...)))
		if !slices.Equal(ids(got), tc.want) || !slices.Equal(ids(top), tc.top) {
			t.Errorf("%s: %v, the second stage reading %v; want %v and %v", tc.name, ids(got), ids(top), tc.want, tc.top)
		}
	}
	// A search keeping the passages that hold its phrases reads deeper for
	// more of them, and the second stage reads them all.
	q := &query{holding: map[int64]bool{}}
	q.keepFirstTop(cands(1, 2))
	if got := ids(q.keepFirstTop(cands(9, 1, 2))); !slices.Equal(got, []int64{9, 1, 2}) {
		t.Errorf("phrases: the deeper round became %v", got)
	}
	// More than secondK: the first secondK are kept.
	many := make([]int64, secondK+10)
	for i := range many {
		many[i] = int64(i + 1)
	}
	q = &query{}
	q.keepFirstTop(cands(many...))
	deeper := append([]int64{1000}, many...)
	_, top := q.stageRead(q.keepFirstTop(cands(deeper...)))
	if !slices.Equal(ids(top), many[:secondK]) {
		t.Errorf("the second stage reads %v, want the first round's best %d", ids(top), secondK)
	}
}

// TestScoresWhateverNDeeper: in a vault of few notes the per-note cap
// keeps a search of 20 results from being filled by its first round, and a
// deeper round reads more candidates; the first round's are the second
// stage's still, so the scores are those of a search of five. On the
// Wikipedia articles with the local model, "who founded the Columbus Blue
// Jackets" scored 89.9 % asked for five results and 90.5 % for twenty.
func TestScoresWhateverNDeeper(t *testing.T) {
	vault := testenv.NeedCorpora(t, "chroma-wikitexts", "vault")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), realModel(t))
	index(t, e, vault, "v")
	const q = "who founded the Columbus Blue Jackets"
	list := func(n int) []string {
		var out []string
		for _, r := range search(t, e, mdsearch.SearchRequest{Query: q, N: n}).Results {
			out = append(out, fmt.Sprintf("%s %v", r.Path, r.Score))
		}
		return out
	}
	long := list(20)
	if five := list(5); !slices.Equal(five, long[:min(5, len(long))]) {
		t.Errorf("n=5: %v, not the start of n=20's %v", five, long)
	}
}
