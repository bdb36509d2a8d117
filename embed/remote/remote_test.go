package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
)

var apis = []API{Ollama, OpenAI}

// open makes an Embedder for s with fast retries.
func open(t *testing.T, s *server, mod func(*Options)) *Embedder {
	t.Helper()
	o := Options{API: s.api, URL: s.URL, Model: s.model, Backoff: time.Millisecond, MaxBackoff: 50 * time.Millisecond}
	if mod != nil {
		mod(&o)
	}
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func normalized(text string, dim int) []float32 {
	v := vectorOf(text, dim)
	embed.Normalize(v)
	return v
}

func wantErr(t *testing.T, err error, parts ...string) *mdsearch.Error {
	t.Helper()
	var e *mdsearch.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T); want *mdsearch.Error", err, err)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q lacks %q", err, p)
		}
	}
	return e
}

func TestEmbedBatchesAndNormalises(t *testing.T) {
	for _, api := range apis {
		t.Run(string(api), func(t *testing.T) {
			s := newServer(t, api, 16)
			s.reverse = true
			e := open(t, s, func(o *Options) { o.BatchSize = 2 })
			texts := []string{"alpha", "beta", "gamma", "delta", "epsilon"}
			vecs, err := e.Embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			if s.count() != 3 {
				t.Errorf("%d requests for 5 texts in batches of 2; want 3", s.count())
			}
			for i, text := range texts {
				if got := embed.Cosine(vecs[i], normalized(text, 16)); got < 0.99999 {
					t.Errorf("vector %d (%s) is not its text's: cosine %v", i, text, got)
				}
				if n := embed.Dot(vecs[i], vecs[i]); math.Abs(float64(n)-1) > 1e-5 {
					t.Errorf("vector %d has squared norm %v; want 1", i, n)
				}
			}
			if e.Dim() != 16 || e.ModelID() != string(api)+":test-model@16" {
				t.Errorf("Dim %d, ModelID %q", e.Dim(), e.ModelID())
			}
		})
	}
}

// TestConcurrentEmbed runs Embed from several goroutines at once, as the
// engine does with Parallel calls and one more in flight: every answer is
// its own texts' (run with -race, it also checks the Embedder is safe for
// concurrent use).
func TestConcurrentEmbed(t *testing.T) {
	for _, api := range apis {
		t.Run(string(api), func(t *testing.T) {
			s := newServer(t, api, 8)
			e := open(t, s, func(o *Options) { o.BatchSize = 3; o.Parallel = 2 })
			const calls = 6
			errs := make(chan error, calls)
			for c := range calls {
				go func() {
					texts := []string{fmt.Sprint("call ", c, " a"), fmt.Sprint("call ", c, " b"), "", fmt.Sprint("call ", c, " c"), fmt.Sprint("call ", c, " d")}
					vecs, err := e.Embed(context.Background(), texts)
					if err == nil {
						for i, text := range texts {
							want := make([]float32, 8)
							if text != "" {
								want = normalized(text, 8)
							}
							if embed.Dot(vecs[i], want) < embed.Dot(want, want)-1e-5 {
								err = fmt.Errorf("call %d: vector %d is not %q's", c, i, text)
								break
							}
						}
					}
					errs <- err
				}()
			}
			for range calls {
				if err := <-errs; err != nil {
					t.Error(err)
				}
			}
			if got := s.count(); got != 2*calls {
				t.Errorf("%d requests; want 2 for each of %d calls", got, calls)
			}
		})
	}
}

func TestBlankTextsAreNotSent(t *testing.T) {
	for _, api := range apis {
		t.Run(string(api), func(t *testing.T) {
			s := newServer(t, api, 4)
			e := open(t, s, nil)
			vecs, err := e.Embed(context.Background(), []string{"", "words", " \n"})
			if err != nil {
				t.Fatal(err)
			}
			if len(s.inputs) != 1 || len(s.inputs[0]) != 1 || s.inputs[0][0] != "words" {
				t.Errorf("sent %q; want only the non-blank text", s.inputs)
			}
			for _, i := range []int{0, 2} {
				if len(vecs[i]) != 4 || embed.Dot(vecs[i], vecs[i]) != 0 {
					t.Errorf("blank text %d: %v; want a zero vector of dim 4", i, vecs[i])
				}
			}
			// Only blanks and no known dimension: one probe learns it.
			e2 := open(t, s, nil)
			vecs, err = e2.Embed(context.Background(), []string{""})
			if err != nil || len(vecs[0]) != 4 {
				t.Fatalf("all blank: %v, %v", vecs, err)
			}
		})
	}
}

func TestRetries(t *testing.T) {
	tests := []struct {
		name     string
		script   []reply
		retries  int
		wantErr  []string // nil: success
		requests int
		minTime  time.Duration
	}{
		{"429 then success, honouring Retry-After", []reply{{status: 429, header: map[string]string{"Retry-After": "1"}, body: `{"error":"slow down"}`}},
			2, nil, 2, time.Second},
		{"503 twice then success", []reply{{status: 503, body: "busy"}, {status: 502, body: "bad gateway"}},
			2, nil, 3, 0},
		{"500 until retries run out", []reply{{status: 500, body: `{"error":"boom"}`}, {status: 500, body: `{"error":"boom"}`}, {status: 500, body: `{"error":"boom"}`}},
			2, []string{"500 Internal Server Error", "boom", "gave up after 3 attempts"}, 3, 0},
		{"Retry-After longer than we wait", []reply{{status: 429, header: map[string]string{"Retry-After": "3600"}, body: "{}"}},
			2, []string{"asks to wait 1h0m0s"}, 1, 0},
		{"400 is not retried", []reply{{status: 400, body: `{"error":"input too long"}`}},
			2, []string{"400 Bad Request", "input too long"}, 1, 0},
		{"no retries configured", []reply{{status: 503, body: "busy"}},
			-1, []string{"503"}, 1, 0},
	}
	for _, tt := range tests {
		for _, api := range apis {
			t.Run(tt.name+"/"+string(api), func(t *testing.T) {
				s := newServer(t, api, 4).then(tt.script...)
				e := open(t, s, func(o *Options) { o.Retries = tt.retries; o.MaxBackoff = time.Minute })
				start := time.Now()
				_, err := e.Embed(context.Background(), []string{"x"})
				if tt.wantErr == nil && err != nil {
					t.Fatal(err)
				}
				if tt.wantErr != nil {
					wantErr(t, err, tt.wantErr...)
				}
				if s.count() != tt.requests {
					t.Errorf("%d requests; want %d", s.count(), tt.requests)
				}
				if d := time.Since(start); d < tt.minTime {
					t.Errorf("took %v; Retry-After asked for %v", d, tt.minTime)
				}
			})
		}
	}
}

func TestBadAnswers(t *testing.T) {
	tests := []struct {
		name   string
		api    API
		reply  reply
		dim    int
		expect []string
	}{
		{"html page", Ollama, reply{status: 200, body: "<html><body>It works!</body></html>"}, 0,
			[]string{"invalid JSON", `"<html><body>It works!`, "is --embed-url an Ollama server?"}},
		{"empty body", OpenAI, reply{status: 200}, 0, []string{"invalid JSON"}},
		{"wrong shape", Ollama, reply{status: 200, body: `{"embedding":[1,2]}`}, 0, []string{`without the expected field "embeddings"`}},
		{"wrong shape openai", OpenAI, reply{status: 200, body: `{"embeddings":[[1,2]]}`}, 0, []string{`without the expected field "data"`}},
		{"too few vectors", Ollama, reply{status: 200, body: `{"embeddings":[[1,2]]}`}, 0, []string{"asked for 2 embeddings, the server returned 1", "MDSEARCH_EMBED_BATCH=1"}},
		{"too many vectors", Ollama, reply{status: 200, body: `{"embeddings":[[1,2],[1,2],[1,2]]}`}, 0,
			[]string{"asked for 2 embeddings, the server returned 3", "more vectors than texts"}},
		{"NaN", OpenAI, reply{status: 200, body: `{"data":[{"index":0,"embedding":[NaN, 1]},{"index":1,"embedding":[1,2]}]}`}, 0,
			[]string{"a vector holding NaN", "broken vector"}},
		{"too few vectors openai", OpenAI, reply{status: 200, body: `{"data":[{"index":0,"embedding":[1,2]}]}`}, 0,
			[]string{"asked for 2 embeddings, the server returned 1"}},
		{"repeated index", OpenAI, reply{status: 200, body: `{"data":[{"index":0,"embedding":[1,2]},{"index":0,"embedding":[1,2]}]}`}, 0,
			[]string{"repeated or out-of-range index (0)"}},
		{"missing index", OpenAI, reply{status: 200, body: `{"data":[{"embedding":[1,2]},{"index":0,"embedding":[1,2]}]}`}, 0,
			[]string{"index (none)"}},
		{"wrong dimension", Ollama, reply{status: 200, body: `{"embeddings":[[1,2,3],[1,2,3]]}`}, 4,
			[]string{"vectors of 3 dimensions, but MDSEARCH_EMBED_DIM declares 4"}},
		{"ragged dimensions", OpenAI, reply{status: 200, body: `{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[1]}]}`}, 0,
			[]string{"a vector of 1 dimensions (text 2 of the batch), want 2"}},
		{"empty vector", Ollama, reply{status: 200, body: `{"embeddings":[[],[]]}`}, 0, []string{"empty vector for text 1"}},
		{"zero vector", Ollama, reply{status: 200, body: `{"embeddings":[[0.5,1],[0,0]]}`}, 0, []string{"a vector of zeros (text 2 of the batch)", "MDSEARCH_EMBED_BATCH=1"}},
		{"unknown model", Ollama, reply{status: 404, body: `{"error":"model \"x\" not found, try pulling it first"}`}, 0,
			[]string{"404", "ollama pull test-model"}},
		{"wrong path", OpenAI, reply{status: 404, body: "404 page not found"}, 0,
			[]string{`"404 page not found"`, "is --embed-url an OpenAI-compatible server?"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, tt.api, 2).then(tt.reply)
			e := open(t, s, func(o *Options) { o.Dim = tt.dim })
			_, err := e.Embed(context.Background(), []string{"a", "b"})
			me := wantErr(t, err, tt.expect...)
			if me.Kind != mdsearch.KindUnavailable || !strings.Contains(err.Error(), s.URL) {
				t.Errorf("kind %v, error %q: want KindUnavailable naming the URL", me.Kind, err)
			}
			if s.count() != 1 {
				t.Errorf("%d requests; a bad answer is not retried", s.count())
			}
		})
	}
}

func TestServerDown(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	l.Close()
	for _, api := range apis {
		t.Run(string(api), func(t *testing.T) {
			// Four retries allowed, but a refused connection is retried only once.
			e, _ := New(Options{API: api, URL: url, Retries: 4, Backoff: time.Millisecond})
			_, err := e.Embed(context.Background(), []string{"x"})
			me := wantErr(t, err, "cannot reach the "+string(api)+" server", url, "connection refused", "gave up after 2 attempts")
			if me.Kind != mdsearch.KindUnavailable || !strings.Contains(me.Hint, "--embed-url") {
				t.Errorf("kind %v, hint %q", me.Kind, me.Hint)
			}
			if api == Ollama && !strings.Contains(me.Hint, "ollama serve") {
				t.Errorf("hint %q lacks `ollama serve`", me.Hint)
			}
		})
	}
}

func TestTimeout(t *testing.T) {
	slow := reply{handler: func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // lets the server notice the client hanging up
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}}
	s := newServer(t, Ollama, 4).then(slow, slow)
	e := open(t, s, func(o *Options) { o.Timeout = 50 * time.Millisecond; o.Retries = 1 })
	_, err := e.Embed(context.Background(), []string{"x"})
	wantErr(t, err, "no answer within 50ms", "gave up after 2 attempts")
	// A retry after a timeout succeeds.
	s.then(slow)
	if _, err := e.Embed(context.Background(), []string{"x"}); err != nil {
		t.Fatalf("timeout then success: %v", err)
	}
}

func TestCancel(t *testing.T) {
	t.Run("during a request", func(t *testing.T) {
		started := make(chan struct{})
		s := newServer(t, OpenAI, 4).then(reply{handler: func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			close(started)
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		}})
		e := open(t, s, nil)
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-started; cancel() }()
		start := time.Now()
		_, err := e.Embed(ctx, []string{"x"})
		if !errors.Is(err, context.Canceled) || time.Since(start) > 2*time.Second {
			t.Fatalf("err = %v after %v; want context.Canceled at once", err, time.Since(start))
		}
	})
	t.Run("between batches", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		s := newServer(t, Ollama, 4)
		s.then(reply{handler: func(w http.ResponseWriter, r *http.Request) { cancel(); s.serve(w, r) }})
		e := open(t, s, func(o *Options) { o.BatchSize = 1 })
		_, err := e.Embed(ctx, []string{"a", "b", "c"})
		if !errors.Is(err, context.Canceled) || s.count() != 1 {
			t.Fatalf("err = %v after %d requests; want context.Canceled after 1", err, s.count())
		}
	})
	t.Run("during a backoff", func(t *testing.T) {
		s := newServer(t, Ollama, 4).then(reply{status: 429, header: map[string]string{"Retry-After": "20"}})
		e := open(t, s, func(o *Options) { o.MaxBackoff = time.Minute })
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := e.Embed(ctx, []string{"a"})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v; want the caller's deadline", err)
		}
	})
}

func TestAPIKey(t *testing.T) {
	s := newServer(t, OpenAI, 4)
	s.apiKey = "sk-test"
	_, err := open(t, s, nil).Embed(context.Background(), []string{"x"})
	wantErr(t, err, "401", "Incorrect API key")
	if me := wantErr(t, err); !strings.Contains(me.Hint, "MDSEARCH_EMBED_API_KEY (or OPENAI_API_KEY)") {
		t.Errorf("hint %q", me.Hint)
	}
	if _, err := open(t, s, func(o *Options) { o.APIKey = "sk-test" }).Embed(context.Background(), []string{"x"}); err != nil {
		t.Fatal(err)
	}
	// Ollama is never sent OPENAI_API_KEY, so its hint does not name it.
	o := newServer(t, Ollama, 4)
	o.apiKey = "k"
	_, err = open(t, o, nil).Embed(context.Background(), []string{"x"})
	if me := wantErr(t, err); me.Hint != "set MDSEARCH_EMBED_API_KEY to a valid key" {
		t.Errorf("Ollama's hint %q", me.Hint)
	}
}

func TestLongTextIsCutAndCounted(t *testing.T) {
	s := newServer(t, Ollama, 4)
	e := open(t, s, func(o *Options) { o.MaxTokens = 100 })
	huge := strings.Repeat("lorem ipsum dolor ", 600_000) // ~10 MB
	if _, err := e.Embed(context.Background(), []string{huge, "short"}); err != nil {
		t.Fatal(err)
	}
	if e.Truncated() != 1 {
		t.Errorf("Truncated = %d; want 1", e.Truncated())
	}
	if s.bodies[0] > 1000 {
		t.Errorf("sent %d bytes for a 100-token window", s.bodies[0])
	}
	if got := s.inputs[0][0]; EstimateTokens(got) > 100 || !strings.HasPrefix(huge, got) || got == "" {
		t.Errorf("sent %q", got)
	}
}

func TestNoTexts(t *testing.T) {
	s := newServer(t, Ollama, 4)
	vecs, err := open(t, s, nil).Embed(context.Background(), nil)
	if err != nil || len(vecs) != 0 || s.count() != 0 {
		t.Errorf("Embed(nil) = %v, %v after %d requests; want nothing, and no request", vecs, err, s.count())
	}
}

func TestParseModelID(t *testing.T) {
	for _, tc := range []struct {
		id    string
		api   API
		model string
		dim   int
		ok    bool
	}{
		{"ollama:nomic-embed-text@768", Ollama, "nomic-embed-text", 768, true},
		{"openai:org/model@v2@1536", OpenAI, "org/model@v2", 1536, true},
		{"openai:text-embedding-3-small", OpenAI, "text-embedding-3-small", 0, true},
		{"ollama:nomic-embed-text@0", Ollama, "nomic-embed-text", 0, true}, // ModelID before the dimension is known
		{"use-lite-0.2.0-int8-row", "", "", 0, false},
	} {
		api, model, dim, ok := ParseModelID(tc.id)
		if api != tc.api || model != tc.model || dim != tc.dim || ok != tc.ok {
			t.Errorf("ParseModelID(%q) = %q, %q, %d, %v", tc.id, api, model, dim, ok)
		}
	}
}
