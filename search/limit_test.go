package search

import (
	"context"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
)

// TestSearchConcurrencyIsBounded: however many searches arrive at once, no
// more than GOMAXPROCS embed their query at the same time; the rest wait.
func TestSearchConcurrencyIsBounded(t *testing.T) {
	var inFlight, peak atomic.Int64
	emb := &gated{bow: newBow("bow")}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), emb)
	index(t, e, copyDir(t, sampleVault), "s")
	emb.gate = func(int64) error {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		time.Sleep(5 * time.Millisecond)
		return nil
	}
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			if _, err := e.Search(bg, mdsearch.SearchRequest{Query: "starter", Mode: mdsearch.ModeSemantic}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if max := int64(runtime.GOMAXPROCS(0)); peak.Load() > max || peak.Load() == 0 {
		t.Errorf("peak of %d concurrent query embeddings, limit %d", peak.Load(), max)
	}
	ctx, cancel := context.WithCancel(bg)
	for range cap(work) {
		work <- struct{}{}
	}
	cancel()
	_, err := e.Search(ctx, mdsearch.SearchRequest{Query: "starter"})
	for range cap(work) {
		<-work
	}
	if err == nil {
		t.Error("a search whose client left still ran")
	}
}

func TestReadHint(t *testing.T) {
	for _, tt := range []struct {
		r    mdsearch.Result
		want string
	}{
		{mdsearch.Result{Collection: "notes", Path: "a.md", SectionPath: []string{"A", "B"}}, `cut to fit the token budget, 3 more lines: read notes:a.md, section "A/B"`},
		{mdsearch.Result{Collection: "notes", Path: "a.md"}, "cut to fit the token budget, 3 more lines: read notes:a.md"},
		{mdsearch.Result{Path: "a.md", SectionPath: []string{"A"}}, `cut to fit the token budget, 3 more lines: read a.md, section "A"`},
		// A stub merged forward: the rest is in the last section covered.
		{mdsearch.Result{Path: "a.md", SectionPath: []string{"A"}, Sections: [][]string{{"A"}, {"A", "B"}}},
			`cut to fit the token budget, 3 more lines: read a.md, section "A/B"`},
	} {
		if got := readHint(tt.r, 3); got != tt.want {
			t.Errorf("readHint(%+v) = %q, want %q", tt.r, got, tt.want)
		}
	}
}
