package embed

import (
	"context"
	"math"
	"strings"

	"github.com/mdsearch/mdsearch/internal/wordcount"
)

// Embedder turns texts into vectors. It is the whole contract between mdsearch
// and a model: the local model in embed/sentenceencoder and the servers in embed/remote
// both implement it.
type Embedder interface {
	// Embed returns one L2-normalised vector per text, in input order.
	// Texts over MaxTokens are truncated by the model; implementations count
	// such truncations (see Truncations) rather than hide them.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Dim is the length of every vector.
	Dim() int
	// MaxTokens is the model window: how many of its own tokens the model
	// reads of one text (the chunker's window budget is at most this).
	MaxTokens() int
	// CountTokens counts text in the model's own tokens, as Embed would see
	// it (special tokens included), so the chunker can size chunks to fit.
	CountTokens(text string) int
	// ModelID names the model and its settings. The index stores it, and a
	// change forces a re-embed.
	ModelID() string
}

// Querier is an optional Embedder method for a search's query. A person
// waits on a search, so an embedder whose calls can hang or be retried
// for minutes (a server) answers a query on a short budget of its own;
// Embed, which indexing calls, may wait patiently.
type Querier interface {
	EmbedQuery(ctx context.Context, text string) ([]float32, error)
}

// Query is text's vector: e's EmbedQuery when it is a Querier, else
// Embed's one vector (nil if it returned another number).
func Query(ctx context.Context, e Embedder, text string) ([]float32, error) {
	if q, ok := e.(Querier); ok {
		return q.EmbedQuery(ctx, text)
	}
	vecs, err := e.Embed(ctx, []string{text})
	if err != nil || len(vecs) != 1 {
		return nil, err
	}
	return vecs[0], nil
}

// Concurrent is an Embedder that runs several Embed calls side by side to
// advantage and is safe for concurrent use. While it indexes, the engine
// keeps Concurrency calls in flight and one more, so the embedder has the
// next call while an answer is written; an Embedder without it gets one
// call at a time.
type Concurrent interface {
	Concurrency() int
}

// ConcurrencyOf is how many Embed calls e runs side by side: its
// Concurrency when it is Concurrent, else one.
func ConcurrencyOf(e Embedder) int {
	if c, ok := e.(Concurrent); ok {
		return max(1, c.Concurrency())
	}
	return 1
}

// Confirmer is an optional Embedder method for an embedder whose Dim may
// not be its model's yet: a server's, not yet asked, or declared by a
// setting no answer has met. An index run confirms it before recording
// the model ID, so the index never names a dimension its vectors lack. Confirm returns once Dim is the model's, asking the
// server if need be, or why it could not.
type Confirmer interface {
	Confirm(ctx context.Context) error
}

// Confirm is e's Confirm, or nil when e knows its dimension from the start.
func Confirm(ctx context.Context, e Embedder) error {
	if c, ok := e.(Confirmer); ok {
		return c.Confirm(ctx)
	}
	return nil
}

// Readier is an optional Embedder method for an embedder that learns its
// dimension after it is opened: a server's, asked in the background so a
// long-running process listens at once. Ready returns nil once Dim is
// known, else, without waiting, why not; a search then shows keyword
// results and says so.
type Readier interface {
	Ready() error
}

// Ready is e's Ready, or nil when e is not a Readier.
func Ready(e Embedder) error {
	if r, ok := e.(Readier); ok {
		return r.Ready()
	}
	return nil
}

// Vocabulary is an optional Embedder method: the share, 0 to 1, of text's
// characters the model does not read as parts of words (unknown to its
// vocabulary, or spelled out a letter at a time). A query made mostly of
// them embeds to a vector that says little of what it means, so search
// leaves meaning out of its ranking.
type Vocabulary interface {
	Unread(text string) float64
}

// UnreadShare is e's Unread for text, or 0 when e does not say.
func UnreadShare(e Embedder, text string) float64 {
	if v, ok := e.(Vocabulary); ok {
		return v.Unread(text)
	}
	return 0
}

// Lexicon is an optional Embedder method: whether word (lower case) is a
// whole word of the model's vocabulary. A model's vocabulary holds the
// words its training text used most, so such a word is spelled right.
type Lexicon interface {
	Knows(word string) bool
}

// Knows is e's Knows for word, and whether e has a Lexicon at all.
func Knows(e Embedder, word string) (known, ok bool) {
	if l, ok := e.(Lexicon); ok {
		return l.Knows(word), true
	}
	return false, false
}

// TokenCounter is the part of Embedder the chunker needs.
type TokenCounter interface {
	CountTokens(text string) int
}

// RangeCounter is a TokenCounter that also counts ranges of one text for
// far less than counting each alone: the chunker counts every byte of a
// note several times over (blocks, cuts, overlaps, windows).
type RangeCounter interface {
	TokenCounter
	// Ranges prepares text for counting its ranges. skip lists ranges of
	// text, in order and apart, that the caller will not count ranges in
	// or across: a counter may leave them out of its preparation. A range
	// that does meet one is still counted exactly, the slow way. The
	// counter reads text only until Release: the caller may pass bytes
	// it changes after.
	Ranges(text string, skip [][2]int) Ranges
}

// Ranges counts ranges of the text a RangeCounter prepared.
type Ranges interface {
	// CountRange returns CountTokens(head + text[start:end]), exactly.
	CountRange(head string, start, end int) int
	// Release hands back what Ranges holds for reuse; the Ranges is not
	// used after.
	Release()
}

// Whole is Ranges for any counter: each range counted on its own.
func Whole(c TokenCounter, text string) Ranges { return whole{c, text} }

type whole struct {
	c    TokenCounter
	text string
}

func (w whole) CountRange(head string, start, end int) int {
	return w.c.CountTokens(head + w.text[start:end])
}

func (whole) Release() {}

// Words counts whitespace-separated words. It stands in for a model's
// tokenizer when no model is loaded (keyword-only indexing, tests).
type Words struct{}

// CountTokens implements TokenCounter.
func (Words) CountTokens(text string) int { return wordcount.Count(text) }

// Normalize scales v to unit length in place. A zero vector stays zero.
func Normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
}

// Dot is the inner product; for normalised vectors it is the cosine.
func Dot(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// Cosine is the cosine similarity of a and b, normalised or not.
func Cosine(a, b []float32) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	if aa == 0 || bb == 0 {
		return 0
	}
	return ab / math.Sqrt(aa*bb)
}

// IsBlank reports whether text has no visible characters.
func IsBlank(text string) bool { return strings.TrimSpace(text) == "" }
