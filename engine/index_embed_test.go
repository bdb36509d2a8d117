package engine

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
)

// concurrentBow is a bow that says it runs n Embed calls side by side, and
// records how many ran at once. Calls are slowed a little so that they
// overlap when the engine lets them; call failAt (from 1) fails.
type concurrentBow struct {
	*bow
	n              int
	now, most, all atomic.Int64
	failAt         int64
}

var _ embed.Concurrent = (*concurrentBow)(nil)

func (c *concurrentBow) Concurrency() int { return c.n }

func (c *concurrentBow) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	now := c.now.Add(1)
	defer c.now.Add(-1)
	for m := c.most.Load(); now > m && !c.most.CompareAndSwap(m, now); m = c.most.Load() {
	}
	if c.all.Add(1) == c.failAt {
		return nil, errors.New("embedder failed")
	}
	select {
	case <-time.After(5 * time.Millisecond):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return c.bow.Embed(ctx, texts)
}

// semanticAnswers is every query's semantic results, scores included.
func semanticAnswers(t *testing.T, e *Engine) []string {
	var out []string
	for _, q := range []string{"starter maintenance and feeding", "aphids on tomatoes", "restore drill", "DNS at home"} {
		out = append(out, describe(search(t, e, mdsearch.SearchRequest{Query: q, Mode: mdsearch.ModeSemantic, N: 10})))
	}
	return out
}

// TestEmbedCallsOverlap: with a concurrent embedder the engine keeps up to
// one more call in flight than it runs at once, never more, and every
// vector still lands on its own window: the index answers exactly as one
// built a call at a time. A failed call stops the run, and the next run
// completes the index to the same answers.
func TestEmbedCallsOverlap(t *testing.T) {
	vault := copyDir(t, sampleVault)
	seq := openEngine(t, filepath.Join(t.TempDir(), "seq.db"), newBow("bow"))
	seq.opts.EmbedBatch = 2
	index(t, seq, vault, "s")
	want := semanticAnswers(t, seq)

	cases := []struct {
		name   string
		failAt int64
	}{{"clean", 0}, {"failing", 3}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			emb := &concurrentBow{bow: newBow("bow"), n: 2, failAt: c.failAt}
			e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), emb)
			e.opts.EmbedBatch = 2
			_, err := e.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "s"}, nil)
			if c.failAt > 0 {
				if err == nil {
					t.Fatal("index succeeded though an Embed call failed")
				}
				emb.failAt = 0
				index(t, e, vault, "s")
			} else if err != nil {
				t.Fatal(err)
			}
			if most := emb.most.Load(); most < 2 || most > int64(emb.n+1) {
				t.Errorf("%d Embed calls ran at once, want 2 to %d", most, emb.n+1)
			}
			got := semanticAnswers(t, e)
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("query %d answers differ from the index built a call at a time:\n got %s\nwant %s", i, got[i], want[i])
				}
			}
		})
	}
}

// A run that owes vectors embeds every collection's windows without one,
// and counts those it did not write apart (EmbeddedEarlier): its own are
// only its own.
func TestEmbeddedEarlierCountedApart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	a := copyDir(t, "../sample-vault")
	e, err := Open(bg, Options{IndexPath: path, Embedder: &failAfter{bow: newBow("bow"), left: 0}})
	if err != nil {
		t.Fatal(err)
	}
	first, err := e.Index(bg, mdsearch.IndexRequest{Dir: a, Name: "a"}, nil)
	e.Close()
	if err == nil || first.Windows == 0 {
		t.Fatalf("the first run did not leave windows without vectors: %v, %+v", err, first)
	}
	b := t.TempDir()
	write(t, b, "one.md", "# One\n\nA note no other collection has.\n")
	e = openEngine(t, path, newBow("bow"))
	st := index(t, e, b, "b")
	if st.Windows == 0 || st.Embedded-st.EmbeddedEarlier != st.Windows || st.EmbeddedEarlier != first.Windows {
		t.Errorf("b wrote %d windows; embedded %d, %d of them earlier runs' (a left %d)", st.Windows, st.Embedded, st.EmbeddedEarlier, first.Windows)
	}
}
