package eval

import (
	"context"
	"errors"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/internal/wordcount"
)

// hashEmbedder is a deterministic stand-in model for testing the cache
// wrapper: each text maps to a vector derived from its hash, and every
// call is recorded.
type hashEmbedder struct {
	calls  [][]string
	fail   error
	short  bool // return one vector too few
	window int  // MaxTokens; default 128
}

func (h *hashEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	h.calls = append(h.calls, slices.Clone(texts))
	if h.fail != nil {
		return nil, h.fail
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		f := fnv.New32a()
		f.Write([]byte(t))
		s := f.Sum32()
		out[i] = []float32{float32(s & 0xff), float32(s >> 8 & 0xff), float32(s >> 16 & 0xff), 1}
		embed.Normalize(out[i])
	}
	if h.short {
		out = out[:len(out)-1]
	}
	return out, nil
}

func (h *hashEmbedder) Dim() int { return 4 }
func (h *hashEmbedder) MaxTokens() int {
	if h.window == 0 {
		return 128
	}
	return h.window
}
func (h *hashEmbedder) CountTokens(text string) int { return wordcount.Count(text) }
func (h *hashEmbedder) ModelID() string             { return "hash-4" }

func TestCache(t *testing.T) {
	ctx := context.Background()
	m := &hashEmbedder{window: 3}
	c := NewCache(m)
	first, err := c.Embed(ctx, []string{"a", "b c d e", "c"})
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.Embed(ctx, []string{"c", "new one", "a", "new one"})
	if err != nil {
		t.Fatal(err)
	}
	wantCalls := [][]string{{"a", "b c d e", "c"}, {"new one", "new one"}}
	if len(m.calls) != 2 || !slices.Equal(m.calls[0], wantCalls[0]) || !slices.Equal(m.calls[1], wantCalls[1]) {
		t.Errorf("model calls %q, want %q", m.calls, wantCalls)
	}
	direct, _ := (&hashEmbedder{}).Embed(ctx, []string{"c", "new one", "a"})
	for i, want := range direct {
		if !slices.Equal(second[i], want) {
			t.Errorf("vector %d differs from the model's", i)
		}
	}
	if !slices.Equal(first[0], second[2]) {
		t.Error("cached vector differs")
	}
	first[0][0] = 42 // callers may not corrupt the cache
	if third, _ := c.Embed(ctx, []string{"a"}); third[0][0] == 42 {
		t.Error("cache shares its vectors with callers")
	}
	want := CacheStats{Computed: 5, Hits: 3, OverWindow: 1}
	if got := c.Stats(); got != want {
		t.Errorf("stats %+v, want %+v", got, want)
	}
	if d := c.Stats().Sub(CacheStats{Computed: 1, Hits: 1}); d != (CacheStats{Computed: 4, Hits: 2, OverWindow: 1}) {
		t.Errorf("Sub: %+v", d)
	}

	c.SetBypass(true)
	if _, err := c.Embed(ctx, []string{"a", "b c d e"}); err != nil {
		t.Fatal(err)
	}
	if len(m.calls) != 3 || len(m.calls[2]) != 2 || c.Stats() != want {
		t.Errorf("bypass should reach the model uncounted: calls %q, stats %+v", m.calls, c.Stats())
	}
	c.SetBypass(false)

	if c.Dim() != 4 || c.MaxTokens() != 3 || c.CountTokens("x y") != 2 || c.ModelID() != "hash-4" {
		t.Error("the cache must present the model's facts unchanged")
	}
}

func TestCacheErrors(t *testing.T) {
	ctx := context.Background()
	boom := errors.New("boom")
	c := NewCache(&hashEmbedder{fail: boom})
	if _, err := c.Embed(ctx, []string{"x"}); !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
	if _, err := NewCache(&hashEmbedder{short: true}).Embed(ctx, []string{"x", "y"}); err == nil || !strings.Contains(err.Error(), "1 vectors for 2 texts") {
		t.Errorf("short answer: %v", err)
	}
	if _, err := c.Embed(ctx, nil); err != nil {
		t.Errorf("no texts: %v", err)
	}
}

func TestCacheSaveLoad(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "vectors.gob")
	c := NewCache(&hashEmbedder{})
	want, err := c.Embed(ctx, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	// Two saves at once each write a temporary file of their own.
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() { errs[i] = c.Save(file) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 1 || left[0].Name() != "vectors.gob" {
		t.Errorf("files after Save: %v", left)
	}
	m := &hashEmbedder{}
	loaded := NewCache(m)
	if err := loaded.Load(file); err != nil {
		t.Fatal(err)
	}
	got, err := loaded.Embed(ctx, []string{"a", "b"})
	if err != nil || len(m.calls) != 0 || !slices.Equal(got[0], want[0]) || !slices.Equal(got[1], want[1]) {
		t.Errorf("loaded vectors %v %v (model calls %q), want %v", got, err, m.calls, want)
	}
	if err := c.Save(filepath.Join(dir, "missing", "vectors.gob")); err == nil {
		t.Error("Save into a missing folder succeeded")
	}
	if left, _ := os.ReadDir(dir); len(left) != 1 {
		t.Errorf("files after a failed Save: %v", left)
	}
}

// otherModel is hashEmbedder under another name, as another precision is.
type otherModel struct{ *hashEmbedder }

func (otherModel) ModelID() string { return "hash-4-int8" }

// A cache file of another model is named, one that cannot be read is
// refused with the fix and left as it is, and one that cannot be saved
// is found before a run.
func TestCacheFileProblems(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "vectors.gob")
	c := NewCache(&hashEmbedder{})
	if _, err := c.Embed(ctx, []string{"a"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(file); err != nil {
		t.Fatal(err)
	}
	other := NewCache(otherModel{&hashEmbedder{}})
	if err := other.Load(file); err != nil || other.Replaces() != "hash-4" {
		t.Errorf("another model's cache: %v, replaces %q, want hash-4", err, other.Replaces())
	}
	same := NewCache(&hashEmbedder{})
	if err := same.Load(file); err != nil || same.Replaces() != "" {
		t.Errorf("the same model's cache: %v, replaces %q", err, same.Replaces())
	}
	damaged := filepath.Join(dir, "damaged.gob")
	b, _ := os.ReadFile(file)
	os.WriteFile(damaged, b[:len(b)/2], 0o644)
	err := NewCache(&hashEmbedder{}).Load(damaged)
	if err == nil || !strings.Contains(err.Error(), damaged) || !strings.Contains(err.Error(), "delete it (the next run rebuilds it)") {
		t.Errorf("a damaged cache: %v", err)
	}
	if after, _ := os.ReadFile(damaged); len(after) != len(b)/2 {
		t.Error("a damaged cache was changed")
	}
	for _, c := range []struct {
		file string
		ok   bool
	}{{file, true}, {filepath.Join(dir, "new.gob"), true}, {filepath.Join(dir, "missing", "v.gob"), false}} {
		err := CheckSaveable(c.file)
		if (err == nil) != c.ok || (err != nil && !strings.Contains(err.Error(), c.file)) {
			t.Errorf("CheckSaveable(%s): %v, want ok %v", c.file, err, c.ok)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 2 {
		t.Errorf("CheckSaveable left files: %v", left)
	}
}
