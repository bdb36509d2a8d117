package engine

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/rescore"
	"github.com/mdsearch/mdsearch/store"
)

// TestStageMemo: features are reused only for the same candidates with
// the same first-stage scores, in the same order.
func TestStageMemo(t *testing.T) {
	var m stageMemo
	top := []candidate{{id: 1, score: 0.9}, {id: 2, score: 0.5}}
	if _, _, ok := m.get(top); ok {
		t.Fatal("an empty memo answered")
	}
	xs, copyOf := []rescore.Vector{{1}, {2}}, []int{-1, 0}
	m.put(top, xs, copyOf)
	if got, copies, ok := m.get([]candidate{{id: 1, score: 0.9}, {id: 2, score: 0.5}}); !ok || &got[0] != &xs[0] || !slices.Equal(copies, copyOf) {
		t.Error("the same candidates were not reused")
	}
	for _, other := range [][]candidate{
		{{id: 2, score: 0.5}, {id: 1, score: 0.9}},
		{{id: 1, score: 0.9}, {id: 2, score: 0.4}},
		{{id: 1, score: 0.9}},
		{{id: 1, score: 0.9}, {id: 2, score: 0.5}, {id: 3, score: 0.1}},
	} {
		if _, _, ok := m.get(other); ok {
			t.Errorf("%v reused the features of %v", other, top)
		}
	}
}

// TestCopiesOf: a candidate repeating an earlier one's passage word for
// word in another note is its copy; the same text twice in one note, or
// a passage the read left out, is not.
func TestCopiesOf(t *testing.T) {
	p := func(text, title, tags string) store.Passage {
		return store.Passage{Keywords: [4]string{text, "h", title, tags}}
	}
	top := []candidate{{id: 1, doc: 10}, {id: 2, doc: 11}, {id: 3, doc: 20}, {id: 4, doc: 10}, {id: 5, doc: 21}, {id: 6, doc: 22},
		{id: 7, doc: 23}, {id: 8, doc: 24}}
	// 5 is a copy under another title ("Note 1.md"); 7's tags differ, so
	// it is no copy.
	ps := map[int64]store.Passage{1: p("a", "t", ""), 2: p("b", "t", ""), 3: p("a", "t", ""), 4: p("a", "t", ""),
		5: p("b", "t 1", ""), 7: p("a", "t", "x"), 8: p("a", "t", "x")}
	if got, want := copiesOf(top, ps), []int{-1, -1, 0, -1, 1, -1, -1, 6}; !slices.Equal(got, want) {
		t.Errorf("copiesOf = %v, want %v", got, want)
	}
	// A template section two notes share is two answers; a conflict copy,
	// its title its file name's, is one.
	named := func(title string) store.Passage {
		return store.Passage{Title: title, Keywords: [4]string{"template text", "summary", title, ""}}
	}
	top = []candidate{{id: 1, doc: 10}, {id: 2, doc: 11}, {id: 3, doc: 12}}
	ps = map[int64]store.Passage{1: named("project atlas"), 2: named("standup"), 3: named("project atlas.sync-conflict-20240102-150405-abcdef1")}
	if got, want := copiesOf(top, ps), []int{-1, -1, 0}; !slices.Equal(got, want) {
		t.Errorf("copiesOf = %v, want %v", got, want)
	}
}

// TestScoreDistinct: a copy takes its original's probability, and the
// others score as they would with no copy in the list: the original is
// not tied with itself. Of a set of copies the one the ranker puts
// highest is scored, and each takes its logit.
func TestScoreDistinct(t *testing.T) {
	m, err := rescore.Default()
	if err != nil {
		t.Fatal(err)
	}
	stage := m.For(string(mdsearch.ModeKeyword), "")
	xs := make([]rescore.Vector, 4)
	for i := range xs {
		xs[i][rescore.FirstScore] = 0.9 - 0.2*float64(i)
		xs[i][rescore.CoverAll] = 1 - 0.25*float64(i)
		xs[i][rescore.QueryCover] = 1
	}
	with := []rescore.Vector{xs[0], xs[0], xs[1], xs[2], xs[3]}
	wantL, wantP := stage.Score(xs, nil)
	logits, probs, cal := scoreDistinct(stage, with, []int64{1, 2, 3, 4, 5}, []int{-1, 0, -1, -1, -1}, true)
	for i, j := range []int{0, 0, 1, 2, 3} {
		if logits[i] != wantL[j] || probs[i] != wantP[j] {
			t.Errorf("candidate %d: %v, %v; want %v, %v", i, logits[i], probs[i], wantL[j], wantP[j])
		}
	}
	if cal[1] != cal[0] || cal[0][rescore.CalRank] != 1 {
		t.Errorf("the copy's calibrator inputs %v, the original's %v", cal[1], cal[0])
	}
	if _, tied := stage.Score(with, nil); tied[0] >= wantP[0] {
		t.Errorf("scored with its copy the best scores %v, alone %v: the test shows nothing", tied[0], wantP[0])
	}
	// A copy under a title the query names ranks above its original, and
	// the set scores as that copy alone would.
	named := xs[0]
	named[rescore.BM25Title] += 2
	wantL, wantP = stage.Score([]rescore.Vector{named, xs[1], xs[2], xs[3]}, nil)
	logits, probs, _ = scoreDistinct(stage, []rescore.Vector{xs[0], named, xs[1], xs[2], xs[3]}, []int64{1, 2, 3, 4, 5}, []int{-1, 0, -1, -1, -1}, false)
	if logits[0] != wantL[0] || logits[1] != wantL[0] {
		t.Errorf("logits %v: want both the named copy's %v, so that scores fall with rank", logits[:2], wantL[0])
	}
	for i, j := range []int{0, 0, 1, 2, 3} {
		if probs[i] != wantP[j] {
			t.Errorf("candidate %d: probability %v, want %v", i, probs[i], wantP[j])
		}
	}
}

// TestHeadingWords: the share of a section heading's words that a query
// names, stemmed as the keyword index stems them, common words aside;
// the note's title and text before any heading never count there. The
// passages that open a note (its title's section, the text before any
// heading) read how much of the title a query names when it names
// nothing else.
func TestHeadingWords(t *testing.T) {
	ps := map[int64]store.Passage{
		1: {Level: 2, Heading: "shallowref()", Title: "reactivity api"},
		2: {Level: 2, Heading: "maintaining state with `key`", Title: "list rendering"},
		3: {Level: 1, Heading: "reactivity api", Title: "reactivity api"},
		4: {Level: 0, Heading: "", Title: "reactivity api"},
		5: {Level: 3, Heading: "the", Title: "x"},
		6: {Level: 2, Heading: "keyed lists", Title: "y"},
	}
	ids := []int64{1, 2, 3, 4, 5, 6}
	none := []float64{0, 0, 0, 0, 0, 0}
	for _, tc := range []struct {
		query      string
		in, titled []float64
	}{
		{"To avoid the deep conversion, use shallowRef() instead.", []float64{1, 0, 0, 0, 0, 0}, none},
		{"every child must be uniquely keyed while maintaining its state", []float64{0, 1, 0, 0, 0, 0.5}, none},
		{"What is the Reactivity API?", none, []float64{0, 0, 1, 1, 0, 0}},
		{"reactivity", none, []float64{0, 0, 0.5, 0.5, 0, 0}},
		{"the reactive APIs", none, []float64{0, 0, 1, 1, 0, 0}},          // stemmed
		{"what's the reactivity API?", none, []float64{0, 0, 1, 1, 0, 0}}, // "what's" is "what"
		{"Reactivity API's", none, []float64{0, 0, 1, 1, 0, 0}},
		{"reactivity api caveats", none, none}, // names more than the title
		{"what is the", none, none},            // names nothing
		{"", none, none},
	} {
		in, titled, err := headingWords(context.Background(), sectionHeadings(tc.query, ids, ps))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(in, tc.in) || !slices.Equal(titled, tc.titled) {
			t.Errorf("%q: %v and %v, want %v and %v", tc.query, in, titled, tc.in, tc.titled)
		}
	}
	if in, titled, err := headingWords(context.Background(), sectionHeadings("x", nil, ps)); err != nil || len(in)+len(titled) != 0 {
		t.Errorf("no candidates: %v, %v, %v", in, titled, err)
	}
}

// benchHeadings is a question and 50 candidates, each with a heading of
// its own: the heading features' benchmarks.
func benchHeadings() (string, []int64, map[int64]store.Passage) {
	ps := map[int64]store.Passage{}
	ids := make([]int64, 50)
	for i := range ids {
		ids[i] = int64(i + 1)
		ps[ids[i]] = store.Passage{Level: 2, Heading: fmt.Sprintf("handling errors %d with result values", i), Title: "x"}
	}
	return "how do I propagate errors with the question mark operator in a function that returns Result", ids, ps
}

// BenchmarkHeadingsIn times the stemmed heading features of 50 candidates: with
// the stems remembered from the last query (the common case: a vault's
// headings repeat) and with every word new to the stemmer.
func BenchmarkHeadingsIn(b *testing.B) {
	query, ids, ps := benchHeadings()
	b.Run("remembered", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := headingWords(bg, sectionHeadings(query, ids, ps)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("new", func(b *testing.B) {
		n := 0
		for b.Loop() {
			for _, id := range ids {
				n++
				ps[id] = store.Passage{Level: 2, Heading: fmt.Sprintf("heading%d words%d", n, n), Title: "x"}
			}
			if _, _, err := headingWords(bg, sectionHeadings(query, ids, ps)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
