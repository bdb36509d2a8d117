package rerank

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/httpjson"
)

// Reranker scores documents against a query; higher is more relevant.
// Its scores are what a search shows, as they are: a Reranker maps its
// model's scale to 0–1 itself (New's client does, scale.go), and the
// engine refuses an answer outside it, keeping the local ranking.
type Reranker interface {
	// Rerank returns one score per doc, in order, each from 0 to 1 and on
	// one scale for the server: a doc's score never depends on the others'.
	// A doc the server left out (it answered for its best few alone) is
	// NaN: it has no score.
	Rerank(ctx context.Context, query string, docs []string) ([]float64, error)
	// Name is for notices, e.g. "reranker http://127.0.0.1:8012/v1/rerank".
	Name() string
}

// Protocols a server speaks (Options.API).
const (
	Auto   = "auto"   // decided from the URL and the server's answers
	Cohere = "cohere" // {"query", "documents"} → {"results": [{"index", "relevance_score"}]}
	TEI    = "tei"    // {"query", "texts"} → [{"index", "score"}]
)

// Scales a server's scores are on (Options.Scores); Auto decides from
// the answers (scale.go).
const (
	Logits        = "logits"        // a cross-encoder's raw output: mapped through the logistic function
	Probabilities = "probabilities" // 0–1 already: shown as they are
)

// Defaults.
const (
	DefaultTimeout = 10 * time.Second
	// DefaultPath is the path a URL without one gets: llama.cpp, TEI and
	// Infinity all serve it.
	DefaultPath = "/rerank"
)

// Options configure the HTTP client. Zero fields take the defaults.
type Options struct {
	Model   string        // sent as "model" (Cohere-style) when set
	APIKey  string        // sent as "Authorization: Bearer KEY" when set
	Timeout time.Duration // per Rerank call; 0 is DefaultTimeout
	API     string        // Auto (when empty), Cohere or TEI
	Scores  string        // Auto (when empty), Logits or Probabilities
	Client  *http.Client  // nil: a client of its own
}

// client is the HTTP Reranker.
type client struct {
	opts     Options
	endpoint string
	shown    string // endpoint with its password redacted, for messages

	mu  sync.Mutex
	api string // Auto until an answer decides it

	// sawLogits: with Scores Auto, this server has sent a score outside
	// 0–1, so its scores are read as logits from then on. One client
	// serves a process's searches, so this is kept per server, for the
	// life of the process.
	sawLogits atomic.Bool
}

// choice reads a setting whose value is Auto (the default, also when
// empty) or one of others, in any case; ok is false for any other value,
// which is returned as given, trimmed, for the message.
func choice(v string, others ...string) (string, bool) {
	v = strings.ToLower(strings.TrimSpace(v))
	if v == "" {
		return Auto, true
	}
	return v, v == Auto || slices.Contains(others, v)
}

// New checks rawURL and opts and returns the HTTP client. It does not
// contact the server.
func New(rawURL string, opts Options) (Reranker, error) {
	bad := func(hint, format string, args ...any) (Reranker, error) {
		return nil, mdsearch.Errorf(mdsearch.KindInvalid, "reranker", httpjson.Redact(rawURL), hint, format, args...)
	}
	var ok bool
	if opts.API, ok = choice(opts.API, Cohere, TEI); !ok {
		return bad("use auto, cohere or tei (--reranker-api, MDSEARCH_RERANKER_API)", "unknown reranker API %q", opts.API)
	}
	if opts.Scores, ok = choice(opts.Scores, Logits, Probabilities); !ok {
		return bad("use auto, logits or probabilities (--reranker-scores, MDSEARCH_RERANKER_SCORES)", "unknown reranker score scale %q", opts.Scores)
	}
	endpoint, err := endpointOf(rawURL)
	if err != nil {
		return bad("give --reranker (MDSEARCH_RERANKER) a URL like http://127.0.0.1:8012/v1/rerank", "%v", err)
	}
	if opts.Timeout < 0 {
		return bad("give --reranker-timeout a positive duration, e.g. 10s", "negative timeout %v", opts.Timeout)
	}
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Client == nil {
		opts.Client = &http.Client{CheckRedirect: httpjson.NoRedirects}
	}
	c := &client{opts: opts, endpoint: endpoint, shown: httpjson.Redact(endpoint), api: opts.API}
	if c.api == Auto && cohereOnly(endpoint) {
		c.api = Cohere
	}
	return c, nil
}

// endpointOf checks an http(s) URL and gives one without a path
// DefaultPath.
func endpointOf(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an http or https URL", httpjson.Redact(raw))
	}
	if strings.Trim(u.Path, "/") == "" {
		u.Path = DefaultPath
	}
	return u.String(), nil
}

// cohereOnly reports a path only Cohere-style servers use (TEI serves
// /rerank alone).
func cohereOnly(endpoint string) bool {
	u, _ := url.Parse(endpoint) // endpointOf parsed it
	p := strings.TrimRight(u.Path, "/")
	return strings.HasSuffix(p, "/v1/rerank") || strings.HasSuffix(p, "/v2/rerank") || strings.HasSuffix(p, "/v1/reranking")
}

// Name is "reranker URL", the URL redacted.
func (c *client) Name() string { return "reranker " + c.shown }

// protocol is the protocol requests use now.
func (c *client) protocol() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.api
}

// decide settles an auto client's protocol, once.
func (c *client) decide(api string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.api == Auto {
		c.api = api
	}
}

// Rerank asks the server to score docs against query. Scores are 0–1,
// read on the server's scale (scale.go); a doc the server left out
// is NaN. The scale is decided over every batch's answer at once, so
// the batches of one query are never read on two scales.
func (c *client) Rerank(ctx context.Context, query string, docs []string) ([]float64, error) {
	if len(docs) == 0 {
		return []float64{}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	raw := make([]float64, 0, len(docs))
	known := ""
	for start := 0; start < len(docs); start += MaxBatch {
		s, k, err := c.rerank(ctx, query, docs[start:min(start+MaxBatch, len(docs))])
		if err != nil {
			return nil, err
		}
		raw, known = append(raw, s...), cmp.Or(known, k)
	}
	return c.scaleAll(raw, known)
}

// MaxBatch is the most passages one request sends: TEI refuses more than
// 32 by default (--max-client-batch-size), and a cross-encoder scores each
// passage apart from the others, so more go in several requests.
const MaxBatch = 32

// rerank asks for the raw scores of at most MaxBatch docs, NaN for a doc
// the server left out, and the scale the answer's shape tells ("" if
// none).
func (c *client) rerank(ctx context.Context, query string, docs []string) ([]float64, string, error) {
	api := c.protocol()
	body, err := c.post(ctx, c.request(api, query, docs))
	if err != nil && api == Auto && mentionsTexts(err) {
		// TEI refuses a Cohere-style body: it wants "texts".
		c.decide(TEI)
		body, err = c.post(ctx, c.request(TEI, query, docs))
	}
	if err != nil {
		return nil, "", err
	}
	scores, shape, known, err := c.decode(body, len(docs))
	if err != nil {
		return nil, "", err
	}
	c.decide(shape)
	return scores, known, nil
}
