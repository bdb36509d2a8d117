package eval

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/testenv"
	"github.com/mdsearch/mdsearch/search"
)

// nonsense are queries about nothing in any dev vault: made-up words, and
// real words on topics the vault does not cover.
var nonsense = []string{
	"zxqv blorft quux",
	"flibbertigibbet wompus snarfle",
	"qwertyuiop asdfghjkl",
	"recipe for vegan lasagna with spinach",
	"how do I change a bicycle tyre",
	"best hiking boots for winter",
}

// TestNonsenseScoresLow: scores mean the same across queries, so a query
// about nothing in the vault must score below what real questions usually
// get. On chroma-wikitexts, with the real model, every nonsense query's
// top score is below the median top score of the dev questions.
func TestNonsenseScoresLow(t *testing.T) {
	emb := realModel(t)
	root := filepath.Join(corpora, "chroma-wikitexts")
	qs, err := LoadQueries(filepath.Join(root, "queries.jsonl"))
	if err != nil {
		testenv.Absent(t, "corpus chroma-wikitexts unavailable: %v", err)
	}
	ctx := context.Background()
	e, err := search.Open(ctx, search.Options{IndexPath: filepath.Join(t.TempDir(), "i.db"), Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Index(ctx, mdsearch.IndexRequest{Dir: filepath.Join(root, "vault"), Name: "chroma"}, nil); err != nil {
		t.Fatal(err)
	}
	top := func(q string) float64 {
		resp, err := e.Search(ctx, mdsearch.SearchRequest{Query: q, N: 1})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if resp.Mode != mdsearch.ModeHybrid {
			t.Fatalf("%q: searched %s: %s", q, resp.Mode, resp.Notice)
		}
		if len(resp.Results) == 0 {
			return 0
		}
		return resp.Results[0].Score
	}
	var tops []float64
	for _, q := range qs.Queries {
		tops = append(tops, top(q.Text))
	}
	slices.Sort(tops)
	median := tops[len(tops)/2]
	t.Logf("dev top scores: min %.3f, median %.3f, max %.3f", tops[0], median, tops[len(tops)-1])
	for _, q := range nonsense {
		s := top(q)
		t.Logf("%q: %.3f", q, s)
		if s >= median {
			t.Errorf("%q scores %.3f, not below the dev questions' median top score %.3f", q, s, median)
		}
	}
}
