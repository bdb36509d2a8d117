package engine

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/rerank"
)

// favouring is a Cohere-style rerank server that scores a passage 0.9
// when it holds word, else 0.1, and records the documents it was sent.
type favouring struct {
	word string
	mu   sync.Mutex
	seen []string
}

func (f *favouring) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Query     string   `json:"query"`
		Documents []string `json:"documents"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.seen = req.Documents
	f.mu.Unlock()
	type result struct {
		Index int     `json:"index"`
		Score float64 `json:"relevance_score"`
	}
	var out []result
	for i := len(req.Documents) - 1; i >= 0; i-- { // any order will do
		s := 0.1
		if strings.Contains(req.Documents[i], f.word) {
			s = 0.9
		}
		out = append(out, result{i, s})
	}
	json.NewEncoder(w).Encode(map[string]any{"results": out})
}

// rerankVault holds three notes that keyword search ranks Alpha, Beta,
// Gamma for "compost": Gamma alone names the tomatoes.
func rerankVault(t *testing.T) string {
	dir := t.TempDir()
	write(t, dir, "Alpha.md", "# Alpha\n\n## Heap\n\ncompost compost compost, turned weekly.\n")
	write(t, dir, "Beta.md", "# Beta\n\n## Bins\n\ncompost compost in three bins, and leaves.\n")
	write(t, dir, "Gamma.md", "# Gamma\n\n## Beds\n\ncompost spread under the tomatoes in spring, with straw and more straw on top.\n")
	return dir
}

func TestRemoteReranker(t *testing.T) {
	vault := rerankVault(t)
	fav := &favouring{word: "tomatoes"}
	up := httptest.NewServer(fav)
	t.Cleanup(up.Close)
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	tests := []struct {
		name     string
		url      string // "" is no reranker
		noRerank bool
		n        int
		want     string // paths in order
		notice   string
	}{
		{"local ranking", "", false, 3, "Alpha.md Beta.md Gamma.md", ""},
		{"reranked", up.URL + "/v1/rerank", false, 3, "Gamma.md Alpha.md Beta.md", ""},
		{"reranked, first only", up.URL + "/v1/rerank", false, 1, "Gamma.md", ""},
		{"opted out", up.URL + "/v1/rerank", true, 3, "Alpha.md Beta.md Gamma.md", ""},
		{"reranker down", down.URL + "/v1/rerank", false, 3, "Alpha.md Beta.md Gamma.md",
			"reranker unavailable: rerank " + down.URL + "/v1/rerank: cannot reach the reranker"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{IndexPath: filepath.Join(t.TempDir(), "i.db")}
			if tt.url != "" {
				rr, err := rerank.New(tt.url, rerank.Options{})
				if err != nil {
					t.Fatal(err)
				}
				opts.Reranker = rr
			}
			e, err := Open(bg, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			index(t, e, vault, "v")
			resp := search(t, e, mdsearch.SearchRequest{Query: "compost", N: tt.n, Mode: mdsearch.ModeKeyword, NoRerank: tt.noRerank, Explain: true})
			reranked := strings.HasPrefix(tt.want, "Gamma")
			var got []string
			for _, r := range resp.Results {
				got = append(got, r.Path)
				if r.Score < 0 || r.Score > 1 {
					t.Errorf("%s: score %v is not 0–1", r.Path, r.Score)
				}
				// Why names the reranker's score, and the local one it replaced.
				switch w := r.Why; {
				case w == nil:
					t.Errorf("%s: no why", r.Path)
				case reranked && (w.Reranker == nil || *w.Reranker != r.Score || w.LocalScore == nil):
					t.Errorf("%s: why %+v of a reranked result scored %v", r.Path, w, r.Score)
				case !reranked && (w.Reranker != nil || w.LocalScore != nil):
					t.Errorf("%s: why %+v names a reranker", r.Path, w)
				}
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("results %v, want %s\n%s", got, tt.want, describe(resp))
			}
			if !strings.Contains(resp.Notice, tt.notice) || (tt.notice == "" && strings.Contains(resp.Notice, "reranker")) {
				t.Errorf("notice %q, want %q", resp.Notice, tt.notice)
			}
			if reranked && resp.Results[0].Score != 0.9 {
				t.Errorf("first score %v, want the reranker's 0.9", resp.Results[0].Score)
			}
		})
	}
	// The reranker saw all three passages, though one was asked for, each
	// under its heading path.
	if len(fav.seen) != 3 || !strings.HasPrefix(fav.seen[0], "[Alpha] # Alpha") {
		t.Errorf("the reranker was sent %q", fav.seen)
	}
}

// scoring is a Reranker that gives the passages its scores, in order.
type scoring []float64

func (s scoring) Rerank(context.Context, string, []string) ([]float64, error) {
	return append([]float64(nil), s...), nil
}

func (scoring) Name() string { return "reranker test" }

// TestRerankerContract: a Reranker's scores are 0–1 (rerank.Reranker); the
// engine shows them as they are, and one that breaks the contract costs
// the reranking, with a notice, never a score outside 0–1.
func TestRerankerContract(t *testing.T) {
	vault := rerankVault(t)
	tests := []struct {
		name   string
		scores scoring // for Alpha, Beta, Gamma
		want   string
		first  float64 // the first result's score, when reranked
		notice string
	}{
		{"0–1", scoring{0.2, 0.1, 0.8}, "Gamma.md Alpha.md Beta.md", 0.8, ""},
		{"the ends", scoring{0, 1, 0.5}, "Beta.md Gamma.md Alpha.md", 1, ""},
		{"over 1", scoring{0.2, 1.3, 0.1}, "Alpha.md Beta.md Gamma.md", 0,
			"reranker unavailable: reranker test returned the score 1.3, outside 0–1; showing the local ranking"},
		{"below 0", scoring{-2, 0.5, 0.1}, "Alpha.md Beta.md Gamma.md", 0, "returned the score -2, outside 0–1"},
		{"one left out", scoring{0.2, math.NaN(), 0.6}, "Gamma.md Alpha.md Beta.md", 0.6,
			"reranker test scored 2 of the 3 passages it was sent; the others follow in the local ranking, scored 0"},
		{"a zero and one left out", scoring{math.NaN(), 0, 0.6}, "Gamma.md Beta.md Alpha.md", 0.6, "scored 2 of the 3"},
		{"every one left out", scoring{math.NaN(), math.NaN(), math.NaN()}, "Alpha.md Beta.md Gamma.md", 0,
			"reranker test scored none of the 3 passages it was sent; showing the local ranking"},
		{"infinite", scoring{math.Inf(1), 0.5, 0.1}, "Alpha.md Beta.md Gamma.md", 0, "returned the score +Inf, outside 0–1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Open(bg, Options{IndexPath: filepath.Join(t.TempDir(), "i.db"), Reranker: tt.scores})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			index(t, e, vault, "v")
			resp := search(t, e, mdsearch.SearchRequest{Query: "compost", N: 3, Mode: mdsearch.ModeKeyword})
			var got []string
			for _, r := range resp.Results {
				got = append(got, r.Path)
				if r.Score < 0 || r.Score > 1 {
					t.Errorf("%s: score %v is not 0–1", r.Path, r.Score)
				}
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("results %v, want %s", got, tt.want)
			}
			if tt.first > 0 && resp.Results[0].Score != tt.first || tt.notice == "" && resp.Notice != "" {
				t.Errorf("notice %q, first score %v; want %q, and the reranker's %v", resp.Notice, resp.Results[0].Score, tt.notice, tt.first)
			}
			if !strings.Contains(resp.Notice, tt.notice) {
				t.Errorf("notice %q, want %q", resp.Notice, tt.notice)
			}
		})
	}
}

// failing is a Reranker that fails, counting its calls.
type failing struct{ calls int }

func (f *failing) Rerank(context.Context, string, []string) ([]float64, error) {
	f.calls++
	return nil, mdsearch.Errorf(mdsearch.KindUnavailable, "rerank", "http://127.0.0.1:8012/v1/rerank", "", "no answer within 10s")
}

func (*failing) Name() string { return "reranker test" }

// TestRerankerPause: a reranker that failed is skipped by the searches
// that follow for rerankPause, each saying so, so a server down or hung
// costs one search its timeout, not every one; after the pause it is
// tried again, and an answer ends the pause.
func TestRerankerPause(t *testing.T) {
	rr := &failing{}
	e, err := Open(bg, Options{IndexPath: filepath.Join(t.TempDir(), "i.db"), Reranker: rr})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	index(t, e, rerankVault(t), "v")
	first := search(t, e, mdsearch.SearchRequest{Query: "compost", Mode: mdsearch.ModeKeyword})
	second := search(t, e, mdsearch.SearchRequest{Query: "compost", Mode: mdsearch.ModeKeyword})
	if rr.calls != 1 || !strings.Contains(first.Notice, "reranker unavailable: ") ||
		!strings.Contains(second.Notice, "reranker unavailable (it failed ") || len(second.Results) != 3 {
		t.Errorf("%d calls; notices %q, %q", rr.calls, first.Notice, second.Notice)
	}

	var s rerankState
	now := time.Now()
	s.failed(now, rr.err())
	if msg := s.skip(now.Add(10 * time.Second)); !strings.Contains(msg, "it failed 10s ago: ") || !strings.Contains(msg, "in 20s") {
		t.Errorf("paused: %q", msg)
	}
	if msg := s.skip(now.Add(rerankPause)); msg != "" {
		t.Errorf("after the pause: %q", msg)
	}
	if s.failed(now.Add(rerankPause), rr.err()) {
		t.Error("a failure after the pause, with none between, is news")
	}
	s.ok()
	if msg := s.skip(now.Add(rerankPause)); msg != "" || !s.failed(now, rr.err()) {
		t.Errorf("after an answer: %q", msg)
	}
}

func (f *failing) err() error { _, err := f.Rerank(bg, "", nil); return err }

// An answer that scores no passage (a server leaving out all it finds
// weak) keeps the local ranking and its scores, and pauses nothing: it
// answered.
func TestRerankerScoresNone(t *testing.T) {
	e, err := Open(bg, Options{IndexPath: filepath.Join(t.TempDir(), "i.db"), Reranker: scoring{math.NaN(), math.NaN(), math.NaN()}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	index(t, e, rerankVault(t), "v")
	for range 2 {
		resp := search(t, e, mdsearch.SearchRequest{Query: "compost", Mode: mdsearch.ModeKeyword})
		if strings.Contains(resp.Notice, "unavailable") || !strings.Contains(resp.Notice, "scored none of the 3") || resp.Results[0].Score == 0 {
			t.Errorf("notice %q, first score %v", resp.Notice, resp.Results[0].Score)
		}
	}
}

// Scores names what a mode's scores are: calibrated in keyword mode with
// any embedder, the first stage's in hybrid with another embedder than
// the model's, and a reranker's where one is set.
func TestScoresKind(t *testing.T) {
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	if got := e.Scores(mdsearch.ModeKeyword); got != "probability" {
		t.Errorf("keyword: %q", got)
	}
	if got := e.Scores(mdsearch.ModeHybrid); got != "first-stage" {
		t.Errorf("hybrid with another embedder: %q", got)
	}
	if got := openEngine(t, filepath.Join(t.TempDir(), "none.db"), nil).Scores(mdsearch.ModeHybrid); got != "probability" {
		t.Errorf("hybrid without an embedder (keyword searches): %q", got)
	}
	e.opts.Reranker = scoring{0.5}
	if got := e.Scores(mdsearch.ModeKeyword); got != "reranker" {
		t.Errorf("with a reranker: %q", got)
	}
	// Status says so, for the search page's reading of a percentage.
	if st, err := e.Status(bg); err != nil || st.Scores != "reranker" {
		t.Errorf("status's scores: %v, %v", st, err)
	}
}
