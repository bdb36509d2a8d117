package engine

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
)

// batchOf is a batch of n texts of tokens tokens each.
func batchOf(n, tokens int) []store.Pending {
	b := make([]store.Pending, n)
	for i := range b {
		b[i].Tokens = tokens
	}
	return b
}

// TestFitTextTokens: the fit recovers a text's fixed part from batches'
// times, keeps it within bounds, and declines where the times cannot
// tell tokens from texts.
func TestFitTextTokens(t *testing.T) {
	at := func(perToken, perText float64, bs ...[]store.Pending) []timedBatch {
		var out []timedBatch
		for _, b := range bs {
			s := perToken*float64(pendingTokens(b)) + perText*float64(len(b))
			out = append(out, timedBatch{batch: b, took: time.Duration(s * float64(time.Second))})
		}
		return out
	}
	long, short, short2 := batchOf(64, 120), batchOf(64, 8), batchOf(40, 5)
	for _, tt := range []struct {
		name  string
		timed []timedBatch
		want  float64
		ok    bool
	}{
		{"VNNI-like", at(1e-5, 80e-5, long, short, long, short), 80, true},
		{"AVX2-like", at(5e-5, 25e-5, long, short, long, short2), 5, true},
		{"free texts", at(5e-5, 0, long, short), 0, true},
		{"short texts cheaper per token: none", at(5e-5, -1e-4, long, short), 0, true},
		{"dearer than four long texts: bounded", at(1e-6, 1e-3, long, short), 480, true},
		{"far below none: none", at(5e-5, -3e-4, long, short), 0, true},
		{"one batch", at(1e-5, 1e-4, long), 0, false},
		{"lengths alike", at(1e-5, 1e-4, long, batchOf(32, 100)), 0, false},
		{"longer is quicker", []timedBatch{{batch: long, took: time.Millisecond}, {batch: short, took: time.Second}}, 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			k, ok := fitTextTokens(tt.timed)
			if ok != tt.ok || math.Abs(k-tt.want) > 1e-6*math.Max(1, math.Abs(tt.want)) {
				t.Errorf("fit = %.4f, %v; want %.4f, %v", k, ok, tt.want, tt.ok)
			}
		})
	}
}

// pacedBow is a bow whose Embed takes perToken a token and perText a
// text, as a model's time goes, and that records the order of its texts.
// With shared set, calls side by side take turns, as calls of the local
// model share its sessions.
type pacedBow struct {
	*bow
	n                 int
	perToken, perText time.Duration
	shared            *sync.Mutex
	mu                sync.Mutex
	lens              []int // tokens of each text embedded, in call order
}

func (p *pacedBow) Concurrency() int { return p.n }

func (p *pacedBow) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	var d time.Duration
	p.mu.Lock()
	for _, s := range texts {
		n := p.CountTokens(s)
		d += p.perText + time.Duration(n)*p.perToken
		p.lens = append(p.lens, n)
	}
	p.mu.Unlock()
	if p.shared != nil {
		p.shared.Lock()
		defer p.shared.Unlock()
	}
	time.Sleep(d)
	return p.bow.Embed(ctx, texts)
}

// probeVault writes notes of long and short paragraphs, so that an index
// run has long and short texts to embed.
func probeVault(t *testing.T) string {
	dir := t.TempDir()
	for i := range 60 {
		words := 4
		if i%2 == 0 {
			words = 90
		}
		var b strings.Builder
		fmt.Fprintf(&b, "# Note %d\n\n", i)
		for w := range words {
			fmt.Fprintf(&b, "word%d_%d ", i, w)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("n%02d.md", i)), []byte(b.String()+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestProbeTimesTextCost: a run of enough batches times a few long and
// short ones first and reports a text's fixed part in tokens, near what
// the model's pace says (sleeps overrun under load, so loosely), whether
// or not calls side by side wait for each other; every text is still
// embedded once, and the index answers as one built without a probe.
func TestProbeTimesTextCost(t *testing.T) {
	vault := probeVault(t)
	plain := openEngine(t, filepath.Join(t.TempDir(), "plain.db"), newBow("bow"))
	plain.opts.EmbedBatch = 1000 // one batch: no probe
	index(t, plain, vault, "p")
	for _, shared := range []bool{false, true} {
		t.Run(fmt.Sprintf("shared=%v", shared), func(t *testing.T) {
			// Timed under load, sleeps overrun unevenly: a run whose
			// estimate misses is tried again, up to three runs in all.
			var seen []float64
			for range 3 {
				emb := &pacedBow{bow: newBow("bow"), n: 2, perToken: 100 * time.Microsecond, perText: 5 * time.Millisecond}
				if shared {
					emb.shared = new(sync.Mutex)
				}
				k := probeRun(t, vault, emb, plain)
				if seen = append(seen, k); k >= 15 && k <= 150 {
					return
				}
			}
			t.Errorf("timed text cost %.1f tokens in three runs, want about 50", seen)
		})
	}
}

// probeRun indexes vault with emb, checks the probe's order of calls and
// the answers against plain's, and returns its estimate of a text's cost.
func probeRun(t *testing.T, vault string, emb *pacedBow, plain *Engine) float64 {
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), emb)
	e.opts.EmbedBatch = 2
	var last mdsearch.IndexProgress
	if _, err := e.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "p"}, func(p mdsearch.IndexProgress) { last = p }); err != nil {
		t.Fatal(err)
	}
	if last.TextTokens == nil {
		t.Fatal("no text cost timed in a run of 60 batches")
	}
	if len(emb.lens) != last.WindowsToEmbed || last.WindowsEmbedded != last.WindowsToEmbed {
		t.Errorf("%d texts embedded, %d reported, %d to embed", len(emb.lens), last.WindowsEmbedded, last.WindowsToEmbed)
	}
	// First a long batch a session at once, then a long and a short one
	// in turn, one call at a time, twice. Texts in the rest's calls may
	// interleave, as calls run side by side.
	shortest, longest := slices.Min(emb.lens), slices.Max(emb.lens)
	warm, probed := emb.lens[:2*2], emb.lens[2*2:2*(2+2*probePairs)]
	if slices.Min(warm) != longest {
		t.Errorf("the warm-up embedded %v, want the longest texts (%d tokens)", warm, longest)
	}
	short := 0
	for _, n := range probed {
		if n == shortest {
			short++
		}
	}
	if short != 2*probePairs || slices.Max(probed) != longest { // two texts a batch
		t.Errorf("the probe embedded %v, want %d of the shortest texts and the rest the longest", probed, 2*probePairs)
	}
	for _, q := range []string{"word0_3", "word7_1 word8_60"} {
		req := mdsearch.SearchRequest{Query: q, Mode: mdsearch.ModeSemantic, N: 5}
		if got, want := describe(search(t, e, req)), describe(search(t, plain, req)); got != want {
			t.Errorf("%q answers differ from an index built without a probe:\n got %s\nwant %s", q, got, want)
		}
	}
	return *last.TextTokens // loose bounds: 25.8 seen at a load of 12, 10.9 at 5
}
