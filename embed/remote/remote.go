package remote

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/internal/httpjson"
	"github.com/mdsearch/mdsearch/internal/wordcount"
)

// API names a server protocol.
type API string

const (
	Ollama API = "ollama" // POST /api/embed
	OpenAI API = "openai" // POST /v1/embeddings
)

// Defaults for zero Options fields.
const (
	DefaultOllamaURL    = "http://localhost:11434"
	DefaultOllamaModel  = "nomic-embed-text"
	DefaultOpenAIModel  = "text-embedding-3-small"
	DefaultBatchSize    = 32
	DefaultMaxTokens    = 512
	DefaultTimeout      = 60 * time.Second
	DefaultQueryTimeout = 5 * time.Second
	DefaultRetries      = 4
	DefaultBackoff      = 500 * time.Millisecond
	DefaultMaxBackoff   = 30 * time.Second
)

// Options configure an Embedder. Zero fields take the defaults above.
type Options struct {
	API       API
	URL       string // server base URL; required for OpenAI, e.g. http://localhost:8080/v1
	Model     string
	APIKey    string        // sent as "Authorization: Bearer KEY" when set
	Dim       int           // expected dimension; 0 learns it from the first answer
	BatchSize int           // texts per request
	MaxTokens int           // the model's window, by EstimateTokens
	Timeout   time.Duration // per request, retries excluded
	// QueryTimeout bounds EmbedQuery, a search's query, in all: its
	// request, a probe and a retry together.
	QueryTimeout time.Duration
	Retries      int           // extra attempts after a retryable failure; negative means none
	Backoff      time.Duration // first retry delay; it doubles each time, with jitter
	MaxBackoff   time.Duration // longest wait; a longer Retry-After fails at once
	// Parallel is how many Embed calls the server is asked to work on at
	// once while indexing; default 1. The engine keeps one call more in
	// flight, so the server has the next request while the last answer is
	// written.
	Parallel int
	Client   *http.Client
}

// Embedder is an embed.Embedder backed by an HTTP server.
type Embedder struct {
	opts      Options
	endpoint  string
	shown     string // endpoint for messages: a password in the URL is not printed
	indexed   string // the index's model ID the dimension was taken from (TakeDim), if it was
	dim       atomic.Int64
	confirmed atomic.Bool // an answer had vectors of dim, or dim is the index's
	truncated atomic.Int64
}

var (
	_ embed.Embedder   = (*Embedder)(nil)
	_ embed.Concurrent = (*Embedder)(nil)
	_ embed.Querier    = (*Embedder)(nil)
	_ embed.Confirmer  = (*Embedder)(nil)
)

// probeText is what Probe embeds: short, and never blank.
const probeText = "mdsearch dimension probe"

// New checks opts and fills in defaults. It does not contact the server;
// Probe does.
func New(opts Options) (*Embedder, error) {
	bad := func(hint, format string, args ...any) (*Embedder, error) {
		return nil, mdsearch.Errorf(mdsearch.KindInvalid, "embed", httpjson.Redact(opts.URL), hint, format, args...)
	}
	switch opts.API {
	case Ollama:
		opts.URL = or(opts.URL, DefaultOllamaURL)
		opts.Model = or(opts.Model, DefaultOllamaModel)
	case OpenAI:
		if opts.URL == "" {
			return bad("set --embed-url or MDSEARCH_EMBED_URL to the server's base URL, e.g. http://localhost:8080/v1",
				"an OpenAI-compatible embedder needs a URL")
		}
		opts.Model = or(opts.Model, DefaultOpenAIModel)
	default:
		return bad(`use "ollama" or "openai"`, "unknown embedding API %q", opts.API)
	}
	endpoint, shown, err := endpointOf(opts.API, opts.URL)
	if err != nil {
		return bad("give a URL like http://host:port", "bad embedding server URL: %v", err)
	}
	if opts.Dim < 0 || opts.BatchSize < 0 || opts.MaxTokens < 0 || opts.Timeout < 0 || opts.QueryTimeout < 0 || opts.Parallel < 0 {
		return bad("", "negative dimension, batch size, max tokens, timeout or parallel requests")
	}
	opts.BatchSize = orInt(opts.BatchSize, DefaultBatchSize)
	opts.Parallel = orInt(opts.Parallel, 1)
	opts.MaxTokens = orInt(opts.MaxTokens, DefaultMaxTokens)
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.QueryTimeout == 0 {
		opts.QueryTimeout = DefaultQueryTimeout
	}
	if opts.Retries == 0 {
		opts.Retries = DefaultRetries
	}
	if opts.Backoff == 0 {
		opts.Backoff = DefaultBackoff
	}
	if opts.MaxBackoff == 0 {
		opts.MaxBackoff = DefaultMaxBackoff
	}
	if opts.Client == nil {
		opts.Client = &http.Client{CheckRedirect: httpjson.NoRedirects}
	}
	e := &Embedder{opts: opts, endpoint: endpoint, shown: shown}
	e.dim.Store(int64(opts.Dim))
	return e, nil
}

// endpointOf turns a base URL into the embedding endpoint, and that
// endpoint as messages show it, without a password. A URL that already
// names the endpoint is kept.
func endpointOf(api API, base string) (endpoint, shown string, err error) {
	u, err := url.Parse(base)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) { // its message repeats the URL, password and all
			err = ue.Err
		}
		return "", "", err // the message names the URL, redacted
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", "", fmt.Errorf("%q is not an http(s) URL", u.Redacted())
	}
	p := strings.TrimRight(u.Path, "/")
	switch {
	case api == Ollama:
		// Its older endpoint (/api/embeddings, in many a copied
		// config) and its API's root name the same server.
		for _, end := range []string{"/api/embeddings", "/api/embed", "/api"} {
			if strings.HasSuffix(p, end) {
				p = strings.TrimSuffix(p, end)
				break
			}
		}
		p += "/api/embed"
	case api == OpenAI && strings.HasSuffix(p, "/embeddings"):
	case api == OpenAI && strings.HasSuffix(p, "/v1"):
		p += "/embeddings"
	case api == OpenAI:
		p += "/v1/embeddings"
	}
	u.Path = p
	return u.String(), u.Redacted(), nil
}

// Endpoint is the URL requests go to.
func (e *Embedder) Endpoint() string { return e.endpoint }

// Dim is the vector length: the configured one, else the one learned from
// the first answer, else 0.
func (e *Embedder) Dim() int { return int(e.dim.Load()) }

// MaxTokens is the window texts are cut to, by EstimateTokens.
func (e *Embedder) MaxTokens() int { return e.opts.MaxTokens }

// CountTokens is EstimateTokens: an over-estimate, as no tokenizer for
// the served model is at hand.
func (e *Embedder) CountTokens(text string) int { return EstimateTokens(text) }

// ModelID is "API:MODEL@DIM", e.g. "ollama:nomic-embed-text@768".
func (e *Embedder) ModelID() string {
	return fmt.Sprintf("%s:%s@%d", e.opts.API, e.opts.Model, e.Dim())
}

// ParseModelID reads a model ID as ModelID writes it (dim 0 where it
// names none, or "@0" before the server told it); ok is false for one
// that is not a server's (the local model's has no API).
func ParseModelID(id string) (api API, model string, dim int, ok bool) {
	a, rest, found := strings.Cut(id, ":")
	if !found || a == "" {
		return "", "", 0, false
	}
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		if n, err := strconv.Atoi(rest[at+1:]); err == nil && n >= 0 {
			return API(a), rest[:at], n, true
		}
	}
	return API(a), rest, 0, true
}

// Concurrency implements embed.Concurrent: the Parallel option. Embed
// is safe for concurrent use.
func (e *Embedder) Concurrency() int { return e.opts.Parallel }

// Truncated counts the texts cut to MaxTokens so far.
func (e *Embedder) Truncated() int64 { return e.truncated.Load() }

// Close releases idle connections.
func (e *Embedder) Close() error {
	e.opts.Client.CloseIdleConnections()
	return nil
}

// Probe embeds one short text, which checks that the server answers and
// learns the dimension if it was not configured.
func (e *Embedder) Probe(ctx context.Context) error {
	_, err := e.Embed(ctx, []string{probeText})
	return err
}

// Unanswered is the error of a search made before the server told the
// dimension (a probe still waits for its answer): there is no model ID
// to find vectors of yet.
func (e *Embedder) Unanswered() error {
	return e.fail(NoAnswer, "semantic search starts once it answers",
		"the server has not answered yet, so its model's dimension is not known")
}

// TakeDim takes the dimension from the model ID an index records
// ("ollama:nomic-embed-text@768") when it names this API and model and no
// dimension is known yet, and reports whether it did: a search then
// sends no probe before its query (on a paid API, a second request each
// time), nor a server at all. Every answer is still checked
// against it, so a server whose model changed under the same name fails
// the query, or the index run, saying so: the model ID the index records
// stays true. A new index has none to take; its run probes the server.
func (e *Embedder) TakeDim(indexed string) bool {
	api, model, n, ok := ParseModelID(indexed)
	if !ok || n <= 0 || api != e.opts.API || model != e.opts.Model || !e.dim.CompareAndSwap(0, int64(n)) {
		return false
	}
	e.indexed = indexed
	e.confirmed.Store(true) // the index's own: nothing new to record
	return true
}

// Embed returns one L2-normalised vector per text, in order, sending at
// most BatchSize texts per request. Blank texts get zero vectors; no
// texts, no vectors and no request.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	if len(texts) == 0 {
		return out, nil
	}
	var idx []int // positions of the texts that are sent
	var batch []string
	flush := func() error {
		vecs, err := e.embedBatch(ctx, e.indexPolicy(), batch)
		if err != nil {
			return err
		}
		for j, v := range vecs {
			out[idx[j]] = v
		}
		idx, batch = idx[:0], batch[:0]
		return nil
	}
	for i, t := range texts {
		if embed.IsBlank(t) {
			continue
		}
		idx = append(idx, i)
		batch = append(batch, e.fit(t))
		if len(batch) == e.opts.BatchSize {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if len(batch) > 0 {
		if err := flush(); err != nil {
			return nil, err
		}
	}
	return e.fillBlanks(ctx, out)
}

// fillBlanks gives blank texts zero vectors, probing for the dimension if
// nothing else was sent.
func (e *Embedder) fillBlanks(ctx context.Context, out [][]float32) ([][]float32, error) {
	if e.Dim() == 0 {
		if err := e.Probe(ctx); err != nil {
			return nil, err
		}
	}
	for i := range out {
		if out[i] == nil {
			out[i] = make([]float32, e.Dim())
		}
	}
	return out, nil
}

// embedBatch sends one request under p and checks and normalises its
// vectors.
func (e *Embedder) embedBatch(ctx context.Context, p policy, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	body, err := e.post(ctx, p, e.request(texts))
	if err != nil {
		return nil, err
	}
	vecs, err := e.decode(body, len(texts))
	if err != nil {
		return nil, err
	}
	if err := e.checkDim(vecs); err != nil {
		return nil, err
	}
	for _, v := range vecs {
		embed.Normalize(v)
	}
	return vecs, nil
}

// fit cuts text to MaxTokens by EstimateTokens, counting the cut.
func (e *Embedder) fit(text string) string {
	if EstimateTokens(text) <= e.opts.MaxTokens {
		return text
	}
	e.truncated.Add(1)
	return Truncate(text, e.opts.MaxTokens)
}

// EstimateTokens over-estimates the tokens of text for an unknown
// subword tokenizer: the larger of bytes/3 and words×1.3, rounded up.
// English averages about 1.3 tokens a word; bytes/3 covers text without
// spaces (code, URLs), where subword tokenizers split finer; each
// character of Chinese, Japanese or Thai text is a word.
func EstimateTokens(text string) int {
	byBytes := (len(text) + 2) / 3
	byWords := (wordcount.Count(text)*13 + 9) / 10
	return max(byBytes, byWords)
}

// Truncate returns the longest prefix of text, cut at a rune boundary,
// whose EstimateTokens is at most max.
func Truncate(text string, max int) string {
	if EstimateTokens(text) <= max {
		return text
	}
	hi := min(len(text), 3*max) // bytes/3 alone already caps the length
	lo := 0
	for lo < hi { // largest n with EstimateTokens(text[:n]) <= max
		mid := (lo + hi + 1) / 2
		if EstimateTokens(text[:mid]) <= max {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return text[:extendCut(text, runeCut(text, lo), max)]
}

// extendCut moves a cut at n forward by whole runes while the prefix still
// fits: the estimate is not monotone (a combining mark after a CJK
// character lowers it), so the binary search may stop short.
func extendCut(text string, n, max int) int {
	for n < len(text) {
		_, size := utf8.DecodeRuneInString(text[n:])
		if EstimateTokens(text[:n+size]) > max {
			break
		}
		n += size
	}
	return n
}

// runeCut moves a cut at n back to the start of the rune it splits, if
// it splits a valid one.
func runeCut(s string, n int) int {
	for p := n; p > 0 && p > n-utf8.UTFMax; p-- {
		if utf8.RuneStart(s[p-1]) {
			r, size := utf8.DecodeRuneInString(s[p-1:])
			if (r != utf8.RuneError || size > 1) && p-1+size > n {
				return p - 1
			}
			return n
		}
	}
	return n
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func orInt(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}
