package engine

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// gated is a bow whose Embed calls pass through gate first, numbered from 1.
type gated struct {
	*bow
	n    atomic.Int64
	gate func(call int64) error
}

func (g *gated) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if g.gate != nil {
		if err := g.gate(g.n.Add(1)); err != nil {
			return nil, err
		}
	}
	return g.bow.Embed(ctx, texts)
}

// TestFullReindexKeepsVectors: `index --full` replaces vectors in place.
// While it runs, and after it is cut short, every chunk still has its
// vector and semantic search (from a second engine on the file, as a
// server would) answers as before.
func TestFullReindexKeepsVectors(t *testing.T) {
	queries := []string{"starter maintenance and feeding", "aphids on tomatoes", "restore drill", "DNS at home"}
	cases := []struct {
		name string
		// gate runs at each Embed call of the full run, with check, which
		// asserts the index still answers as before.
		gate func(call int64, check func()) error
	}{
		{"searched mid-run", func(call int64, check func()) error {
			if call == 2 {
				check()
			}
			return nil
		}},
		{"interrupted", func(call int64, _ func()) error {
			if call == 2 {
				return errors.New("killed")
			}
			return nil
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			emb := &gated{bow: newBow("bow")}
			e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), emb)
			e.opts.EmbedBatch = 4
			dbPath := e.st.Path()
			index(t, e, copyDir(t, sampleVault), "s")
			reader := openEngine(t, dbPath, newBow("bow"))
			before := semanticTops(t, reader, queries)
			_, _, chunks, vectors, _ := e.st.Counts(bg, modelID(t, e))
			if vectors != chunks || chunks < 8 {
				t.Fatalf("%d vectors for %d chunks", vectors, chunks)
			}
			check := func() {
				_, _, _, v, _ := e.st.Counts(bg, modelID(t, e))
				if v != chunks {
					t.Errorf("during the run: %d vectors for %d chunks", v, chunks)
				}
				if got := semanticTops(t, reader, queries); got != before {
					t.Errorf("during the run, semantic search answers\n%s\nwant\n%s", got, before)
				}
			}
			emb.gate = func(call int64) error { return c.gate(call, check) }
			st, err := e.Index(bg, mdsearch.IndexRequest{Name: "s", Full: true}, nil)
			emb.gate = nil
			if c.name == "interrupted" && err == nil {
				t.Fatal("the interrupted run did not fail")
			}
			if c.name != "interrupted" && (err != nil || st.Embedded != chunks) {
				t.Fatalf("full run: %+v %v; want %d embedded", st, err, chunks)
			}
			check()
		})
	}
}

// semanticTops is the top result of each query, one per line.
func semanticTops(t *testing.T, e *Engine, queries []string) string {
	t.Helper()
	var out string
	for _, q := range queries {
		resp := search(t, e, mdsearch.SearchRequest{Query: q, Mode: mdsearch.ModeSemantic, N: 1})
		if len(resp.Results) == 0 {
			out += q + ": nothing (" + resp.Notice + ")\n"
			continue
		}
		out += q + ": " + resp.Results[0].Path + " > " + resp.Results[0].Section + "\n"
	}
	return out
}

func modelID(t *testing.T, e *Engine) int64 {
	t.Helper()
	id, err := e.st.ModelID(bg, e.emb.ModelID())
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestFullCountsItsEmbedding: a --full run's files phase counts every
// window it will embed as new (those with a vector too), so a progress
// bar prices the embedding to come, not none of it.
func TestFullCountsItsEmbedding(t *testing.T) {
	vault := copyDir(t, sampleVault)
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	first := index(t, e, vault, "v")
	newest := 0
	st, err := e.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "v", Full: true}, func(p mdsearch.IndexProgress) {
		if p.WindowsToEmbed == 0 { // the files phase
			newest = max(newest, p.WindowsNew)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if newest < first.Windows || st.Embedded < first.Windows {
		t.Errorf("files phase counted %d windows to embed, the run embedded %d; the collection has %d", newest, st.Embedded, first.Windows)
	}
}
