package sentenceencoder

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
)

func TestEmbedEmptyBatch(t *testing.T) {
	m := testModel(t, Options{})
	for _, texts := range [][]string{nil, {}} {
		vecs, err := m.Embed(context.Background(), texts)
		if err != nil || vecs == nil || len(vecs) != 0 {
			t.Errorf("Embed(%#v) = %v, %v; want an empty result and no error", texts, vecs, err)
		}
	}
}

// TestEmbedBatchingKeepsOrder embeds the same texts in different batch
// sizes and input orders: every text must get the same vector regardless.
func TestEmbedBatchingKeepsOrder(t *testing.T) {
	ref := loadReference(t)
	var texts []string
	for _, c := range ref.Cases {
		texts = append(texts, c.Text)
	}
	alone := testModel(t, Options{BatchSize: 1})
	want, err := alone.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	reversed := make([]string, len(texts))
	for i, s := range texts {
		reversed[len(texts)-1-i] = s
	}
	tests := []struct {
		name  string
		batch int
		texts []string
		index func(i int) int // position of texts[i] in the input
	}{
		{"batch 3", 3, texts, func(i int) int { return i }},
		{"batch 32", 32, texts, func(i int) int { return i }},
		{"batch 7 reversed", 7, reversed, func(i int) int { return len(texts) - 1 - i }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := testModel(t, Options{BatchSize: tt.batch, Threads: 1})
			got, err := m.Embed(context.Background(), tt.texts)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(texts) {
				t.Fatalf("%d vectors for %d texts", len(got), len(texts))
			}
			for i := range texts {
				v := got[tt.index(i)]
				if len(v) != Dimension {
					t.Fatalf("text %d: %d dimensions", i, len(v))
				}
				if c := cosine(v, want[i]); c < 0.99999 {
					t.Errorf("text %d (%q): cosine %.6f with its unbatched vector", i, texts[i], c)
				}
			}
		})
	}
}

func TestEmbedVectorsAreNormalised(t *testing.T) {
	m := testModel(t, Options{})
	vecs, err := m.Embed(context.Background(), []string{"", "a", "hello world", strings.Repeat("long ", 500)})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vecs {
		var sq float64
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				t.Fatalf("vector %d holds %v", i, x)
			}
			sq += float64(x) * float64(x)
		}
		if sq < 0.9999 || sq > 1.0001 {
			t.Errorf("vector %d: squared norm %f, want 1", i, sq)
		}
	}
}

func TestEmbedHugeTextIsTruncatedAndCounted(t *testing.T) {
	m := testModel(t, Options{})
	huge := strings.Repeat("Markdown notes grow in odd ways; search finds them again. ", 10<<20/58)
	short := strings.Join(strings.Fields(huge)[:300], " ")
	start := time.Now()
	n := m.CountTokens(huge)
	if n <= Window {
		t.Fatalf("CountTokens(10 MB) = %d", n)
	}
	before := m.Truncated()
	vecs, err := m.Embed(context.Background(), []string{huge, "fits", short})
	if err != nil {
		t.Fatal(err)
	}
	if elapsed := time.Since(start); elapsed > 20*time.Second {
		t.Errorf("10 MB text took %s", elapsed)
	}
	if got := m.Truncated() - before; got != 2 {
		t.Errorf("Truncated grew by %d, want 2 (the 10 MB text and the 300-word one)", got)
	}
	// Both long texts share their first 128 tokens, so their vectors match.
	if c := cosine(vecs[0], vecs[2]); c < 0.99999 {
		t.Errorf("truncated texts with the same first %d tokens: cosine %f", Window, c)
	}
}

func TestEmbedHonoursCancellation(t *testing.T) {
	m := testModel(t, Options{BatchSize: 1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	vecs, err := m.Embed(ctx, []string{"a", "b"})
	if !errors.Is(err, context.Canceled) || vecs != nil {
		t.Fatalf("Embed with a cancelled context = %v, %v; want context.Canceled", vecs, err)
	}
}

func TestEmbedConcurrentAndClose(t *testing.T) {
	m := testModel(t, Options{BatchSize: 4})
	texts := []string{"one", "two words", "three little words", "", "🎉"}
	want, err := m.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			got, err := m.Embed(context.Background(), texts)
			if err != nil {
				t.Error(err)
				return
			}
			for i := range got {
				if c := cosine(got[i], want[i]); c < 0.99999 {
					t.Errorf("concurrent Embed: text %d cosine %f", i, c)
				}
			}
		})
	}
	wg.Wait()
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := m.Embed(context.Background(), texts); err == nil {
		t.Fatal("Embed after Close succeeded")
	}
}

func TestModelContract(t *testing.T) {
	m := testModel(t, Options{})
	ref := loadReference(t)
	if m.Dim() != 512 || m.MaxTokens() != 128 || m.ModelID() != DefaultPrecision.ModelID() {
		t.Errorf("Dim, MaxTokens, ModelID = %d, %d, %q", m.Dim(), m.MaxTokens(), m.ModelID())
	}
	for _, c := range ref.Cases {
		if n := m.CountTokens(c.Text); n != len(c.IDs) {
			t.Errorf("%s: CountTokens = %d, want %d", c.Name, n, len(c.IDs))
		}
	}
}

// requireUnavailable checks err is an *mdsearch.Error of kind
// KindUnavailable whose hint names the fix.
func requireUnavailable(t *testing.T, err error, mention string) {
	t.Helper()
	var me *mdsearch.Error
	if !errors.As(err, &me) {
		t.Fatalf("error %v (%T) is not an *mdsearch.Error", err, err)
	}
	if me.Kind != mdsearch.KindUnavailable || !strings.Contains(me.Hint, "mdsearch setup") {
		t.Errorf("error %q: kind %v, hint %q; want KindUnavailable and a hint naming `mdsearch setup`", err, me.Kind, me.Hint)
	}
	if !strings.Contains(err.Error(), mention) {
		t.Errorf("error %q does not mention %q", err, mention)
	}
}
