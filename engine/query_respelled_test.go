package engine

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/rescore"
)

// The respelled query's results are shown only where its best is
// likelier to answer than the typed query's: a misspelled word the rest
// of the query answers without keeps the typed query's results, with the
// suggestion offered.
func TestRespelledWhereBetter(t *testing.T) {
	e := reactivityEngine(t, "state.md", "# State\n\nState is tracked by the store. The state store keeps state for each view.\n\n## Stores\n\nA store holds the state.\n")
	const q = "store holds the state callbak"
	for _, tc := range []struct {
		mode      mdsearch.Mode
		respelled bool
	}{
		{mdsearch.ModeHybrid, false}, // the typed query's best scores higher
		{mdsearch.ModeKeyword, true},
	} {
		resp := search(t, e, mdsearch.SearchRequest{Query: q, Mode: tc.mode})
		typed := search(t, e, mdsearch.SearchRequest{Query: q, Mode: tc.mode, AsTyped: true})
		respelled := search(t, e, mdsearch.SearchRequest{Query: resp.Suggestion, Mode: tc.mode})
		if resp.Suggestion != "store holds the state callback" || resp.Respelled != tc.respelled {
			t.Fatalf("%s: suggestion %q, respelled %v, want %v", tc.mode, resp.Suggestion, resp.Respelled, tc.respelled)
		}
		want, notice := typed, `did you mean "store holds the state callback"? (its best result scores no higher)`
		if tc.respelled {
			want, notice = respelled, `showing results for "store holds the state callback"`
		}
		if !sameResults(resp.Results, want.Results, true) || !strings.Contains(resp.Notice, notice) {
			t.Errorf("%s: results %v, notice %q; want %v, a notice holding %q", tc.mode, resp.Results, resp.Notice, want.Results, notice)
		}
		if strings.Contains(typed.Notice, "scores no higher") || !strings.Contains(typed.Notice, `did you mean "store holds the state callback"?`) {
			t.Errorf("%s, as typed: notice %q, want the suggestion offered, unsearched", tc.mode, typed.Notice)
		}
		if better := bestScore(respelled.Results) > bestScore(typed.Results); better != tc.respelled {
			t.Errorf("%s: respelled best %.3f, typed %.3f", tc.mode, bestScore(respelled.Results), bestScore(typed.Results))
		}
	}
}

// With the local model, a suggestion is confirmed by the respelled query's
// search in the mode asked: "tomato" is strong in hybrid mode (meaning
// finds the Pests section) but not by keywords alone. Keyword mode shows
// it too, rescued: the typed query finds nothing likely to answer, the
// respelled one something, and "tomatto" is a slip of one letter; two
// letters off ("tomattoe"), a weaker answer is no reason to show it.
func TestRespelledGatedByMode(t *testing.T) {
	m := realModel(t)
	vault := copyDir(t, sampleVault)
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), m)
	index(t, e, vault, "sample")
	const q, respelled = "pests on tomatto plants", "pests on tomato plants"
	hybrid := search(t, e, mdsearch.SearchRequest{Query: q, Mode: mdsearch.ModeHybrid})
	if !hybrid.Respelled || hybrid.Suggestion != respelled || len(hybrid.Results) == 0 || hybrid.Results[0].Section != "Pests" {
		t.Errorf("hybrid: respelled %v, suggestion %q, results %v", hybrid.Respelled, hybrid.Suggestion, hybrid.Results)
	}
	typed := bestScore(search(t, e, mdsearch.SearchRequest{Query: q, Mode: mdsearch.ModeKeyword, AsTyped: true}).Results)
	if s := bestScore(search(t, e, mdsearch.SearchRequest{Query: respelled, Mode: mdsearch.ModeKeyword}).Results); s >= suggestMinScore || s < Unlikely || typed >= Unlikely {
		t.Errorf("keyword search of %q scores %.3f, as typed %.3f: the case no longer tells the modes apart, or tests no rescue", respelled, s, typed)
	}
	keyword := search(t, e, mdsearch.SearchRequest{Query: q, Mode: mdsearch.ModeKeyword})
	if !keyword.Respelled || keyword.Suggestion != respelled || len(keyword.Results) == 0 || keyword.Results[0].Section != "Pests" {
		t.Errorf("keyword: respelled %v, suggestion %q, notice %q", keyword.Respelled, keyword.Suggestion, keyword.Notice)
	}
	twice := search(t, e, mdsearch.SearchRequest{Query: "pests on tomattoe plants", Mode: mdsearch.ModeKeyword})
	if twice.Respelled || twice.Suggestion != "" || !strings.Contains(twice.Notice, "the query respelled so finds no answer scoring 50% or more") {
		t.Errorf("keyword, two letters off: respelled %v, suggestion %q, notice %q", twice.Respelled, twice.Suggestion, twice.Notice)
	}
}

// TestSlips: a respelling is a slip where each word is one edit from a
// word typed of six letters or more; a rescue needs the typed query's
// best unlikely to answer and the respelled one's not.
func TestSlips(t *testing.T) {
	for _, tc := range []struct {
		typed []respelling
		want  bool
	}{
		{[]respelling{{"borowing", "borrowing"}}, true},
		{[]respelling{{"Tomatto", "tomato"}}, true},
		{[]respelling{{"tomattoe", "tomatoes"}}, false},     // two edits
		{[]respelling{{"oven", "over"}}, false},             // too short to tell
		{[]respelling{{"percussion", "permission"}}, false}, // two edits
		{[]respelling{{"borowing", "borrowing"}, {"chess", "chefs"}}, false},
		{[]respelling{{"spell check", "spellcheck"}}, true}, // a join
		{nil, true},
	} {
		if got := slips(tc.typed); got != tc.want {
			t.Errorf("%v: slips %v, want %v", tc.typed, got, tc.want)
		}
	}
	for _, tc := range []struct {
		typed, respelled float64
		want             bool
	}{
		{0.006, 0.30, true},
		{0.006, 0.05, false}, // nothing likely either way
		{0.20, 0.40, false},  // the typed query finds something likely
		{0.09, 0.10, true},
	} {
		if got := rescued(tc.typed, tc.respelled); got != tc.want {
			t.Errorf("typed %.3f, respelled %.3f: rescued %v", tc.typed, tc.respelled, got)
		}
	}
}

// The check and the comparison read each search's best before min_score
// leaves results out: a high min_score costs the results, not the
// suggestion, and an empty typed search is below any respelled one.
func TestRespelledUnderMinScore(t *testing.T) {
	e := reactivityEngine(t)
	resp := search(t, e, mdsearch.SearchRequest{Query: "reactivty system", Mode: mdsearch.ModeKeyword, MinScore: 0.999})
	if resp.Suggestion != "reactivity system" || !resp.Respelled || len(resp.Results) != 0 || !strings.Contains(resp.Notice, "left out") {
		t.Errorf("suggestion %q, respelled %v, %d results, notice %q", resp.Suggestion, resp.Respelled, len(resp.Results), resp.Notice)
	}
	if got := bestScore(nil); got >= 0 {
		t.Errorf("no results: best %v, want below 0", got)
	}
}

// reactivityEngine is an engine (bag-of-words vectors) over a vault of a
// note on reactivity and its watchers, and the notes more names, given as
// path and text in turn.
func reactivityEngine(t *testing.T, more ...string) *Engine {
	t.Helper()
	vault := t.TempDir()
	write(t, vault, "reactivity.md", "# Reactivity\n\nThe reactivity system tracks reactive state.\n\n## Watchers\n\nA watcher runs a callback on change; its cleanup runs first.\n")
	for i := 0; i+1 < len(more); i += 2 {
		write(t, vault, more[i], more[i+1])
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	return e
}

// counting is a Reranker that records the queries it is asked and scores
// the passages it is sent in their order, 0.9 down; with fail set, it
// fails so instead.
type counting struct {
	queries []string
	fail    func(context.Context) error
}

func (c *counting) Rerank(ctx context.Context, query string, docs []string) ([]float64, error) {
	c.queries = append(c.queries, query)
	if c.fail != nil {
		return nil, c.fail(ctx)
	}
	out := make([]float64, len(docs))
	for i := range out {
		out[i] = max(0.9-0.1*float64(i), 0)
	}
	return out, nil
}

func (*counting) Name() string { return "counting reranker" }

// A misspelled query asks the reranker once, for the query it shows: the
// local scores choose between the typed query and its respelling.
func TestRespelledRerankedOnce(t *testing.T) {
	rr := &counting{}
	vault := t.TempDir()
	write(t, vault, "reactivity.md", "# Reactivity\n\nThe reactivity system tracks reactive state.\n\n## Watchers\n\nA watcher runs a callback on change; its cleanup runs first.\n")
	e, err := Open(bg, Options{IndexPath: filepath.Join(t.TempDir(), "index.db"), Embedder: newBow("bow"), Reranker: rr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	index(t, e, vault, "v")
	for _, tc := range []struct {
		name  string
		req   mdsearch.SearchRequest
		asked []string // the queries the reranker is sent
	}{
		{"respelled", mdsearch.SearchRequest{Query: "reactivty system"}, []string{"reactivity system"}},
		{"as typed", mdsearch.SearchRequest{Query: "reactivty system", AsTyped: true}, []string{"reactivty system"}},
		{"spelled right", mdsearch.SearchRequest{Query: "reactivity system"}, []string{"reactivity system"}},
		{"no rerank", mdsearch.SearchRequest{Query: "reactivty system", NoRerank: true}, nil},
	} {
		rr.queries = nil
		tc.req.Mode = mdsearch.ModeKeyword
		resp := search(t, e, tc.req)
		if !slices.Equal(rr.queries, tc.asked) {
			t.Errorf("%s: the reranker was asked %q, want %q", tc.name, rr.queries, tc.asked)
		}
		if len(resp.Results) == 0 || (tc.asked != nil) != (resp.Results[0].Score == 0.9) {
			t.Errorf("%s: results %v, want them scored by the reranker: %v", tc.name, resp.Results, tc.asked != nil)
		}
		if tc.req.Query == "reactivty system" && (resp.Suggestion != "reactivity system" || resp.Respelled == tc.req.AsTyped) {
			t.Errorf("%s: suggestion %q, respelled %v; notice %q", tc.name, resp.Suggestion, resp.Respelled, resp.Notice)
		}
	}
}

// A word respelled whose respelled query is as unlikely to be answered
// is not said to be why the results are weak; one whose respelled query
// scores higher, if under the bar for a suggestion, is.
func TestRespelledNoLikelier(t *testing.T) {
	e := reactivityEngine(t, "travel.md", "# Travel\n\nWe drove through New York and Boston last spring, stopping for coffee at every diner on the way north.\n")
	for _, tc := range []struct {
		query string
		why   bool // the weak notice says the misspelling may be why
	}{
		{"runny yolk coffee", false}, // "runny york coffee" is as unlikely
		{"yolk callback", true},      // "york callback" scores 10% or more
	} {
		resp := search(t, e, mdsearch.SearchRequest{Query: tc.query, Mode: mdsearch.ModeKeyword})
		respelled := search(t, e, mdsearch.SearchRequest{Query: strings.ReplaceAll(tc.query, "yolk", "york"), Mode: mdsearch.ModeKeyword, AsTyped: true})
		if weak := bestScore(respelled.Results) < Unlikely; weak == tc.why {
			t.Fatalf("%q: respelled best %.3f: the case no longer tells the two apart", tc.query, bestScore(respelled.Results))
		}
		if resp.Suggestion != "" || !strings.Contains(resp.Notice, `the nearest word`) || !strings.Contains(resp.Notice, "no result is likely to answer") {
			t.Fatalf("%q: suggestion %q, notice %q", tc.query, resp.Suggestion, resp.Notice)
		}
		if got := strings.Contains(resp.Notice, "a misspelled word may be why"); got != tc.why {
			t.Errorf("%q: notice %q, want the misspelling named as why: %v", tc.query, resp.Notice, tc.why)
		}
		if !tc.why && !strings.Contains(resp.Notice, "the notes most likely do not hold the answer") {
			t.Errorf("%q: notice %q, want the notes said to lack the answer", tc.query, resp.Notice)
		}
	}
}

// A misspelled query with a reranker embeds each query text once (the
// typed one and its respelling), also where the model server is down;
// and a search cancelled while the reranker is asked fails, misspelled
// or not.
func TestRespelledRerankCosts(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "reactivity.md", "# Reactivity\n\nThe reactivity system tracks reactive state.\n\n## Watchers\n\nA watcher runs a callback on change; its cleanup runs first.\n")
	write(t, vault, "other.md", "# Other\n\nSomething about gardens and compost and the system of beds.\n")
	b, rr := stagedBow(t), &counting{}
	e, err := Open(bg, Options{IndexPath: filepath.Join(t.TempDir(), "index.db"), Embedder: b, Reranker: rr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	index(t, e, vault, "v")
	if e.stage(mdsearch.ModeHybrid) == nil {
		t.Fatal("no hybrid stage: the case reranks without deferring")
	}
	for _, down := range []bool{false, true} {
		if down {
			fe := error(mdsearch.Errorf(mdsearch.KindUnavailable, "embed", "x", "", "model server down"))
			b.fail.Store(&fe)
		}
		rr.queries = nil
		before := b.calls.Load()
		resp := search(t, e, mdsearch.SearchRequest{Query: "reactivty system"})
		if n := b.calls.Load() - before; n != 2 || len(rr.queries) != 1 || !resp.Respelled {
			t.Errorf("model down %v: %d query embeddings, the reranker asked %q, respelled %v; want 2, once, true", down, n, rr.queries, resp.Respelled)
		}
	}
	b.fail.Store(nil)
	for _, q := range []string{"reactivity system", "reactivty system"} {
		ctx, cancel := context.WithCancel(bg)
		rr.fail = func(ctx context.Context) error { cancel(); return ctx.Err() }
		if resp, err := e.Search(ctx, mdsearch.SearchRequest{Query: q, Mode: mdsearch.ModeKeyword}); !errors.Is(err, context.Canceled) {
			t.Errorf("%q, cancelled while reranked: %v, notice %q", q, err, resp.Notice)
		}
		cancel()
	}
}

// cancelling is bow that cancels the search on its nth query embedding.
type cancelling struct {
	*bow
	n, at  int
	cancel context.CancelFunc
}

func (c *cancelling) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if c.cancel != nil {
		if c.n++; c.n == c.at {
			c.cancel()
			return nil, ctx.Err()
		}
	}
	return c.bow.Embed(ctx, texts)
}

// A search cancelled while its respelling is searched fails: the answer
// does not stand as if the respelling had been searched.
func TestRespelledCancelled(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "reactivity.md", "# Reactivity\n\nThe reactivity system tracks reactive state.\n")
	c := &cancelling{bow: stagedBow(t), at: 2} // the typed query's, then the respelled one's
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), c)
	index(t, e, vault, "v")
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	c.cancel = cancel
	if resp, err := e.Search(ctx, mdsearch.SearchRequest{Query: "reactivty system", Mode: mdsearch.ModeHybrid}); !errors.Is(err, context.Canceled) {
		t.Errorf("err %v; suggestion %q, notice %q", err, resp.Suggestion, resp.Notice)
	}
}

// stagedBow is a test embedder named as the second stage's model is, so
// that hybrid mode's scores are its probabilities.
func stagedBow(t *testing.T) *bow {
	t.Helper()
	m, err := rescore.Default()
	if err != nil {
		t.Fatal(err)
	}
	return newBow(m.Embedder)
}
