package eval

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/engine"
	"github.com/mdsearch/mdsearch/internal/testenv"
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
	e, err := engine.Open(ctx, engine.Options{IndexPath: filepath.Join(t.TempDir(), "i.db"), Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Index(ctx, mdsearch.IndexRequest{Dir: filepath.Join(root, "vault"), Name: "chroma"}, nil); err != nil {
		t.Fatal(err)
	}
	topIn := func(q string, mode mdsearch.Mode) float64 {
		resp, err := e.Search(ctx, mdsearch.SearchRequest{Query: q, N: 1, Mode: mode})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if resp.Mode != mode {
			t.Fatalf("%q: searched %s, not %s: %s", q, resp.Mode, mode, resp.Notice)
		}
		if len(resp.Results) == 0 {
			return 0
		}
		return resp.Results[0].Score
	}
	top := func(q string) float64 { return topIn(q, mdsearch.ModeHybrid) }
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
	// A query of common words alone names nothing to look for, however
	// well its words match: in every mode it scores under the mark of no
	// likely answer, as its notice says.
	for _, q := range askingNothing {
		for _, mode := range []mdsearch.Mode{mdsearch.ModeHybrid, mdsearch.ModeKeyword, mdsearch.ModeSemantic} {
			s := topIn(q, mode)
			t.Logf("%q (%s): %.3f", q, mode, s)
			if s >= engine.Unlikely {
				t.Errorf("%q (%s), which asks for nothing, scores %.3f, at least %.2f", q, mode, s, engine.Unlikely)
			}
		}
	}
}

// askingNothing are queries of common words alone (engine.AsksNothing).
// The last two are common words of real questions, which matched one
// passage far better than the rest and scored 59 % and 42 % in keyword
// mode before the stage capped them (rescore.Stage.Nothing).
var askingNothing = []string{"the", "a", "how do I", "what is it", "of and to", "is there", "in the we the for the", "for the we in that"}

// TestKeywordScoresCalibrated: the first stage's keyword scores read on
// one scale too (the second stage, which shows its own, is left out). Each
// technical docs vault is asked the Wikipedia questions, and the Wikipedia
// vault the docs' link contexts, as off-topic queries; pooled over the
// three, off-topic queries must rarely reach the strong band while most
// right top hits do. bm25 alone grows with the query's length: shown as
// s / (s + 8), as hybrid weighs it, half of these off-topic queries
// scored strong.
func TestKeywordScoresCalibrated(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes three corpora")
	}
	wiki := filepath.Join(corpora, "chroma-wikitexts", "queries.jsonl")
	sets := []struct {
		vault, queries string
		off            []string
	}{
		{"vue-docs/vault", "vue-docs/queries.jsonl", []string{wiki}},
		{"rust-book/src", "rust-book/queries.jsonl", []string{wiki}},
		{"chroma-wikitexts/vault", "chroma-wikitexts/queries.jsonl", []string{
			filepath.Join(corpora, "vue-docs", "queries.jsonl"), filepath.Join(corpora, "rust-book", "queries.jsonl")}},
	}
	configs, err := ParseConfigs([]string{"sections-keyword"})
	if err != nil {
		t.Fatal(err)
	}
	var right, off, rightN, offN float64
	for _, s := range sets {
		qs, err := LoadQueries(filepath.Join(corpora, s.queries))
		if err != nil {
			testenv.Absent(t, "corpus unavailable: %v", err)
		}
		opts := Options{Vault: filepath.Join(corpora, s.vault), Queries: qs, Configs: configs, TempDir: t.TempDir(), FirstStageOnly: true}
		for _, f := range s.off {
			q, err := LoadOffTopic(f)
			if err != nil {
				t.Fatal(err)
			}
			opts.OffTopic = append(opts.OffTopic, q...)
		}
		rep, err := Run(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		sp := rep.Configs[0].Scores
		t.Logf("%s: right %v; wrong %v; off-topic %v", s.vault, sp.Right, sp.Wrong, sp.OffTopic)
		right += sp.Right.Strong * float64(sp.Right.N)
		rightN += float64(sp.Right.N)
		off += sp.OffTopic.Strong * float64(sp.OffTopic.N)
		offN += float64(sp.OffTopic.N)
	}
	if right/rightN < 0.8 || off/offN > 0.1 {
		t.Errorf("strong: %.0f%% of right top hits (want ≥ 80%%), %.0f%% of off-topic queries (want ≤ 10%%)",
			100*right/rightN, 100*off/offN)
	}
}
