package eval

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/gob"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
)

// Cache is an embed.Embedder that remembers every vector it computed, keyed
// by the SHA-256 of the text, so configurations of one run that embed the
// same text (the same chunk cut the same way) pay for it once. Queries
// should bypass it (SetBypass) so their latency includes embedding.
type Cache struct {
	emb embed.Embedder

	mu   sync.Mutex
	vecs map[[32]byte][]float32

	computed   atomic.Int64 // texts sent to the model
	hits       atomic.Int64 // texts answered from the cache
	overWindow atomic.Int64 // texts longer than the model's window
	bypass     atomic.Bool
	replaces   string // the model of the vectors Load found and left out
}

var (
	_ embed.Embedder     = (*Cache)(nil)
	_ embed.Concurrent   = (*Cache)(nil)
	_ embed.RangeCounter = (*Cache)(nil)
)

// NewCache wraps emb.
func NewCache(emb embed.Embedder) *Cache {
	return &Cache{emb: emb, vecs: map[[32]byte][]float32{}}
}

// CacheStats count the texts a Cache has seen.
type CacheStats struct {
	Computed   int64 `json:"computed"`    // embedded by the model
	Hits       int64 `json:"hits"`        // reused
	OverWindow int64 `json:"over_window"` // longer than the window, so truncated by the model
}

// Stats returns the counts so far (bypassed texts are not counted).
func (c *Cache) Stats() CacheStats {
	return CacheStats{Computed: c.computed.Load(), Hits: c.hits.Load(), OverWindow: c.overWindow.Load()}
}

// Sub is the difference of two snapshots.
func (s CacheStats) Sub(o CacheStats) CacheStats {
	return CacheStats{Computed: s.Computed - o.Computed, Hits: s.Hits - o.Hits, OverWindow: s.OverWindow - o.OverWindow}
}

// SetBypass sends every text straight to the model, uncounted and
// unremembered, while on.
func (c *Cache) SetBypass(on bool) { c.bypass.Store(on) }

// Embed implements embed.Embedder: cached texts are answered from memory,
// the rest are embedded in one call to the wrapped model.
func (c *Cache) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if c.bypass.Load() {
		return c.emb.Embed(ctx, texts)
	}
	keys := make([][32]byte, len(texts))
	out := make([][]float32, len(texts))
	var miss []int
	window := c.emb.MaxTokens()
	c.mu.Lock()
	for i, t := range texts {
		keys[i] = sha256.Sum256([]byte(t))
		if v, ok := c.vecs[keys[i]]; ok {
			out[i] = slices.Clone(v)
		} else {
			miss = append(miss, i)
		}
	}
	c.mu.Unlock()
	for _, t := range texts {
		if window > 0 && c.emb.CountTokens(t) > window {
			c.overWindow.Add(1)
		}
	}
	c.hits.Add(int64(len(texts) - len(miss)))
	if len(miss) == 0 {
		return out, nil
	}
	batch := make([]string, len(miss))
	for j, i := range miss {
		batch[j] = texts[i]
	}
	vecs, err := c.emb.Embed(ctx, batch)
	if err != nil {
		return nil, err
	}
	if len(vecs) != len(batch) {
		return nil, fmt.Errorf("%s returned %d vectors for %d texts", c.emb.ModelID(), len(vecs), len(batch))
	}
	c.computed.Add(int64(len(miss)))
	c.mu.Lock()
	defer c.mu.Unlock()
	for j, i := range miss {
		c.vecs[keys[i]] = vecs[j]
		out[i] = slices.Clone(vecs[j])
	}
	return out, nil
}

// Concurrency implements embed.Concurrent as the wrapped model does: the
// cache itself is safe for concurrent use.
func (c *Cache) Concurrency() int { return embed.ConcurrencyOf(c.emb) }

// Unread implements embed.Vocabulary for the model it wraps.
func (c *Cache) Unread(text string) float64 { return embed.UnreadShare(c.emb, text) }

// Knows implements embed.Lexicon: the wrapped embedder's, which knows no
// word when it has no vocabulary.
func (c *Cache) Knows(word string) bool {
	known, _ := embed.Knows(c.emb, word)
	return known
}

// Dim implements embed.Embedder.
func (c *Cache) Dim() int { return c.emb.Dim() }

// MaxTokens implements embed.Embedder.
func (c *Cache) MaxTokens() int { return c.emb.MaxTokens() }

// CountTokens implements embed.Embedder.
func (c *Cache) CountTokens(text string) int { return c.emb.CountTokens(text) }

// Ranges counts ranges as the wrapped model does, when it can, else one
// text at a time.
func (c *Cache) Ranges(text string, skip [][2]int) embed.Ranges {
	if rc, ok := c.emb.(embed.RangeCounter); ok {
		return rc.Ranges(text, skip)
	}
	return embed.Whole(c.emb, text)
}

// ModelID implements embed.Embedder: the cache does not change vectors.
func (c *Cache) ModelID() string { return c.emb.ModelID() }

// Load adds the vectors saved in file (by Save, for the same model) to the
// cache; a missing file is no error. Tuning runs that rebuild the same
// index many times keep their vectors this way.
func (c *Cache) Load(file string) error {
	f, err := os.Open(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	var saved savedCache
	if err := gob.NewDecoder(bufio.NewReader(f)).Decode(&saved); err != nil {
		// Left as it is: a run would replace it, and it may be another
		// program's file given by mistake.
		return mdsearch.Errorf(mdsearch.KindInvalid, "eval", file, "delete it (the next run rebuilds it), or give another --embed-cache",
			"not an embedding cache, or a damaged one: %v", err)
	}
	if saved.Model != c.emb.ModelID() {
		c.replaces = saved.Model // another model's vectors: start afresh
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	maps.Copy(c.vecs, saved.Vecs)
	return nil
}

// Replaces is the model whose vectors Load found in the file and left
// out ("" if none): Save replaces them with this model's.
func (c *Cache) Replaces() string { return c.replaces }

// CheckSaveable reports whether Save could write file, before a run
// computes vectors it could not keep: Save writes a new file in its
// folder, then renames it.
func CheckSaveable(file string) error {
	f, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".*.tmp")
	if err != nil {
		return mdsearch.Errorf(mdsearch.KindInvalid, "eval", file, "give a file in a folder you can write", "the embedding cache cannot be saved there: %v", unwrapPath(err))
	}
	f.Close()
	return os.Remove(f.Name())
}

// Save writes every cached vector to file, replacing it atomically: it
// writes a temporary file of its own in the same folder, then renames it,
// so two runs saving at once do not write into each other's file.
func (c *Cache) Save(file string) (err error) {
	c.mu.Lock()
	saved := savedCache{Model: c.emb.ModelID(), Vecs: maps.Clone(c.vecs)}
	c.mu.Unlock()
	f, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	w := bufio.NewWriter(f)
	if err := gob.NewEncoder(w).Encode(saved); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), file)
}

// savedCache is the file format of Save.
type savedCache struct {
	Model string
	Vecs  map[[32]byte][]float32
}
