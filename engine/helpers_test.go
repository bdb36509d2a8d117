package engine

import (
	"context"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/internal/wordcount"
)

var bg = context.Background()

// bow is a deterministic test embedder: a hashed bag of words, so texts
// sharing words are close. It counts what it embeds.
type bow struct {
	id    string
	dim   int
	delay time.Duration // per Embed call, to slow indexing down in tests
	fail  atomic.Pointer[error]
	calls atomic.Int64
	texts atomic.Int64
}

func newBow(id string) *bow { return &bow{id: id, dim: 64} }

func (b *bow) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	b.calls.Add(1)
	if err := b.fail.Load(); err != nil {
		return nil, *err
	}
	b.texts.Add(int64(len(texts)))
	if b.delay > 0 {
		select {
		case <-time.After(b.delay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, b.dim)
		for _, w := range tokens(t) {
			h := fnv.New32a()
			h.Write([]byte(w))
			x := h.Sum32()
			sign := float32(1)
			if x&1 == 1 {
				sign = -1
			}
			v[(x>>1)%uint32(b.dim)] += sign
		}
		embed.Normalize(v)
		out[i] = v
	}
	return out, nil
}

func (b *bow) Dim() int                 { return b.dim }
func (b *bow) MaxTokens() int           { return 128 }
func (b *bow) CountTokens(s string) int { return wordcount.Count(s) + 2 }
func (b *bow) ModelID() string          { return b.id }

// copyDir copies a folder tree (regular files only) into a temp dir.
func copyDir(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func openEngine(t testing.TB, index string, emb embed.Embedder) *Engine {
	t.Helper()
	opts := Options{IndexPath: index}
	if emb != nil {
		opts.Embedder = emb
	}
	e, err := Open(bg, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func index(t testing.TB, e *Engine, dir, name string) *mdsearch.IndexStats {
	t.Helper()
	st, err := e.Index(bg, mdsearch.IndexRequest{Dir: dir, Name: name}, nil)
	if err != nil {
		t.Fatalf("index %s: %v", dir, err)
	}
	return st
}

func search(t testing.TB, e *Engine, req mdsearch.SearchRequest) *mdsearch.SearchResponse {
	t.Helper()
	resp, err := e.Search(bg, req)
	if err != nil {
		t.Fatalf("search %+v: %v", req, err)
	}
	return resp
}

func write(t testing.TB, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// paths lists result paths with their sections, for compact assertions.
func paths(resp *mdsearch.SearchResponse) string {
	var out []string
	for _, r := range resp.Results {
		out = append(out, r.Path+" > "+r.Section)
	}
	return strings.Join(out, "\n")
}

const sampleVault = "../sample-vault"

// covers reports whether r is on path and holds text of a section whose
// heading is section: its own, or one it covers because stubs merged.
func covers(r mdsearch.Result, path, section string) bool {
	if r.Path != path {
		return false
	}
	if r.Section == section {
		return true
	}
	for _, p := range r.Sections {
		if len(p) > 0 && p[len(p)-1] == section {
			return true
		}
	}
	return false
}

// describe lists results with their scores and every section they cover,
// for failure messages.
func describe(resp *mdsearch.SearchResponse) string {
	var b strings.Builder
	for _, r := range resp.Results {
		fmt.Fprintf(&b, "%s > %s (%.4f) chunks %d-%d lines %d-%d", r.Path, strings.Join(r.SectionPath, " > "),
			r.Score, r.ChunkIndex, max(r.ChunkIndex, r.ChunkEnd), r.StartLine, r.EndLine)
		if len(r.Sections) > 0 {
			fmt.Fprintf(&b, " covers %v", r.Sections)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
