package engine

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// The score of a filtered search is the probability of an answer among
// the notes searched: the second stage reads what the query finds in the
// search's scope, so a filter neither lends a passage the evidence of a
// note it leaves out nor takes from it the lead it has over nothing.
// Keyword mode: its stage serves any embedder.
func TestScopedScores(t *testing.T) {
	vault := filepath.Join(t.TempDir(), "v")
	write(t, vault, "Quokka.md", "---\ntags: [marsupial]\n---\n# Quokka\n\nThe quokka is a small wallaby that lives on Rottnest Island.\n")
	write(t, vault, "Ferries.md", "# Ferries\n\nFerries run to the island twice a day from the harbour.\n")
	write(t, vault, "Bread.md", "# Bread\n\nA sourdough loaf needs a lively starter and a long proof.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "i.db"), newBow("scope"))
	index(t, e, vault, "v")
	top := func(req mdsearch.SearchRequest) mdsearch.Result {
		t.Helper()
		req.Mode = mdsearch.ModeKeyword
		resp := search(t, e, req)
		if len(resp.Results) == 0 {
			t.Fatalf("%+v: no results", req)
		}
		return resp.Results[0]
	}

	// The only note holding "quokka" left out, the rest hold none of the
	// query's rarest word: as if the vault did not hold it.
	whole := top(mdsearch.SearchRequest{Query: "quokka island"})
	ferries := top(mdsearch.SearchRequest{Query: "quokka island", Exclude: []string{"Quokka.md"}})
	if whole.Path != "Quokka.md" || ferries.Path != "Ferries.md" {
		t.Fatalf("tops %s, %s", whole.Path, ferries.Path)
	}
	if ferries.Score >= Unlikely*2 || whole.Score < 0.5 {
		t.Errorf("quokka island: %.3f with the quokka's note, %.3f without it (it holds no quokka)", whole.Score, ferries.Score)
	}
	if got := top(mdsearch.SearchRequest{Query: "quokka island", PathPrefix: "Ferries"}); got.Score != ferries.Score {
		t.Errorf("the same scope by path prefix scores %.3f, by exclude %.3f", got.Score, ferries.Score)
	}

}

// A filter that leaves one passage: it leads the same passage had it held
// nothing of the query, not a tie with no one (hybrid: 98.2 % among the
// others, 63.2 % alone). The real model: the hybrid stage is fitted to it.
func TestLoneScore(t *testing.T) {
	vault := filepath.Join(t.TempDir(), "v")
	write(t, vault, "Monotremes.md", "---\ntags: [alpha]\n---\n# Monotremes\n\nThe platypus lays eggs and hunts by electroreception in streams.\n")
	write(t, vault, "Birds.md", "# Birds\n\nSwallows migrate south each autumn.\n")
	write(t, vault, "Fish.md", "# Fish\n\nSalmon swim upstream to spawn.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "i.db"), realModel(t))
	index(t, e, vault, "v")
	among := search(t, e, mdsearch.SearchRequest{Query: "platypus", Mode: mdsearch.ModeHybrid})
	alone := search(t, e, mdsearch.SearchRequest{Query: "platypus", Mode: mdsearch.ModeHybrid, Tags: []string{"alpha"}})
	if len(among.Results) != 3 || len(alone.Results) != 1 || alone.Results[0].Path != "Monotremes.md" {
		t.Fatalf("among the others:\n%salone:\n%s", describe(among), describe(alone))
	}
	if a, b := alone.Results[0].Score, among.Results[0].Score; b < 0.5 || math.Abs(a-b) > 0.05 {
		t.Errorf("platypus: %.3f alone under its tag, %.3f among the others", a, b)
	}
}

// A folder indexed in two collections: each passage is found twice, and
// the copy is left out of the results and of the second stage's reading,
// where it would tie with its original and cut its score (hybrid: 99.6 %
// → 61.5 %). The real model: the hybrid stage is fitted to it.
func TestCopiesScoreOnce(t *testing.T) {
	e := openEngine(t, filepath.Join(t.TempDir(), "i.db"), realModel(t))
	index(t, e, copyDir(t, sampleVault), "one")
	req := mdsearch.SearchRequest{Query: "restore drill", Mode: mdsearch.ModeHybrid, N: 3}
	once := search(t, e, req).Results[0]
	index(t, e, copyDir(t, sampleVault), "two")
	resp := search(t, e, req)
	twice := resp.Results[0]
	if once.Path != "homelab/Backups.md" || twice.Path != once.Path || once.Score < 0.5 {
		t.Fatalf("tops %s (%.3f), %s", once.Path, once.Score, twice.Path)
	}
	if math.Abs(twice.Score-once.Score) > 0.05 {
		t.Errorf("found in one collection it scores %.3f, in two %.3f", once.Score, twice.Score)
	}
	for _, r := range resp.Results[1:] {
		if r.Path == twice.Path && r.Text == twice.Text {
			t.Errorf("the copy was shown: %s", describe(resp))
		}
	}
}

// A vault of two passages: FTS5 gives every word the same least idf
// there, so a note holding the query's word and one that does not tied at
// zero, and the second stage ordered them by chance ("dentist": the note
// without it first at 80.6 %). The real model: the hybrid stage is fitted
// to it.
func TestTwoPassageVault(t *testing.T) {
	vault := filepath.Join(t.TempDir(), "v")
	write(t, vault, "Todo.md", "# Todo\n\n## Home items\n\nBuy a new bicycle tyre and book the dentist appointment for March.\n")
	write(t, vault, "Alpha.md", "# Alpha\n\n## Design\n\nThe alpha project stores events in Postgres with logical replication to a reporting replica.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "i.db"), realModel(t))
	index(t, e, vault, "v")
	for _, mode := range []mdsearch.Mode{mdsearch.ModeHybrid, mdsearch.ModeKeyword} {
		resp := search(t, e, mdsearch.SearchRequest{Query: "dentist", Mode: mode})
		if len(resp.Results) == 0 || resp.Results[0].Path != "Todo.md" || resp.Results[0].Score < 0.5 {
			t.Fatalf("%s: %s", mode, describe(resp))
		}
		for _, r := range resp.Results[1:] {
			if r.Score >= 0.25 { // the README's weak band
				t.Errorf("%s: %s, without the word, scores %.3f", mode, r.Path, r.Score)
			}
		}
	}
}
