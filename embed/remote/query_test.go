package remote

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
)

// hang is a server that reads the request and never answers.
var hang = reply{handler: func(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}}

func TestQueryBudget(t *testing.T) {
	busy := reply{status: 500, body: `{"error":"boom"}`}
	tests := []struct {
		name     string
		script   []reply
		wantErr  []string // nil: success
		requests int
		maxTime  time.Duration
	}{
		{"a hung server is given up at the budget, and not asked again", []reply{hang, hang},
			[]string{"did not answer within 300ms", "the time a search waits"}, 1, 2 * time.Second},
		// The budget of these leaves room for the retry on a loaded machine,
		// where a first request may take most of 300ms.
		{"a 500 is retried once, quickly", []reply{busy, busy, busy},
			[]string{"500 Internal Server Error", "boom", "gave up after 2 attempts"}, 2, 3 * time.Second},
		{"a 500 then an answer", []reply{busy}, nil, 2, 3 * time.Second},
		{"a Retry-After past the budget fails at once", []reply{{status: 429, header: map[string]string{"Retry-After": "120"}, body: "{}"}},
			[]string{"asks to wait 2m0s"}, 1, time.Second},
		{"a 400 is not retried", []reply{{status: 400, body: `{"error":"input too long"}`}},
			[]string{"input too long"}, 1, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, Ollama, 4).then(tt.script...)
			// Indexing's policy here would wait a minute a request, four times.
			e := open(t, s, func(o *Options) {
				o.QueryTimeout = 300 * time.Millisecond
				if tt.requests == 2 {
					o.QueryTimeout = 2 * time.Second
				}
				o.Timeout, o.Retries, o.Backoff, o.MaxBackoff = time.Minute, 4, time.Second, 30*time.Second
			})
			start := time.Now()
			vec, err := e.EmbedQuery(context.Background(), "backups")
			took := time.Since(start)
			if tt.wantErr == nil {
				if err != nil || len(vec) != 4 {
					t.Fatalf("%v, %v; want a vector", vec, err)
				}
			} else {
				me := wantErr(t, err, tt.wantErr...)
				if me.Kind != mdsearch.KindUnavailable {
					t.Errorf("kind %v; want unavailable, for keyword results", me.Kind)
				}
				if strings.Contains(err.Error(), "MDSEARCH_EMBED_TIMEOUT") || strings.Contains(err.Error(), "MDSEARCH_EMBED_BATCH") {
					t.Errorf("%q: a search's hint names indexing's settings", err)
				}
			}
			if s.count() != tt.requests {
				t.Errorf("%d requests; want %d", s.count(), tt.requests)
			}
			if took > tt.maxTime {
				t.Errorf("took %v; want under %v", took, tt.maxTime)
			}
		})
	}
}

func TestQueryTimeoutHint(t *testing.T) {
	s := newServer(t, OpenAI, 4).then(hang)
	e := open(t, s, func(o *Options) { o.QueryTimeout = 100 * time.Millisecond })
	_, err := e.EmbedQuery(context.Background(), "x")
	if me := wantErr(t, err); !strings.Contains(me.Hint, "MDSEARCH_EMBED_QUERY_TIMEOUT") || CauseOf(err) != NoAnswer {
		t.Errorf("hint %q, cause %v; want MDSEARCH_EMBED_QUERY_TIMEOUT, NoAnswer", me.Hint, CauseOf(err))
	}
}

func TestQueryServerDown(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	l.Close()
	e, _ := New(Options{API: Ollama, URL: url, Backoff: time.Second})
	start := time.Now()
	_, err = e.EmbedQuery(context.Background(), "x")
	wantErr(t, err, "cannot reach the ollama server", "connection refused")
	if strings.Contains(err.Error(), "gave up") || time.Since(start) > 500*time.Millisecond {
		t.Errorf("%q after %v: a refused connection is not retried for a query", err, time.Since(start))
	}
}

func TestQueryBlankAndProbe(t *testing.T) {
	s := newServer(t, OpenAI, 6)
	e := open(t, s, nil)
	if err := e.QuickProbe(context.Background()); err != nil || e.Dim() != 6 {
		t.Fatalf("QuickProbe: %v, dim %d", err, e.Dim())
	}
	v, err := e.EmbedQuery(context.Background(), " ")
	if err != nil || len(v) != 6 || embed.Dot(v, v) != 0 || s.count() != 1 {
		t.Errorf("blank query: %v, %v after %d requests; want a zero vector and no request", v, err, s.count())
	}
	v, err = embed.Query(context.Background(), e, "alpha")
	if err != nil || embed.Cosine(v, normalized("alpha", 6)) < 0.99999 {
		t.Errorf("embed.Query: %v, %v", v, err)
	}
}

func TestRetryAfterMessage(t *testing.T) {
	s := newServer(t, OpenAI, 4).then(reply{status: 429, header: map[string]string{"Retry-After": "120"},
		body: `{"error":{"message":"Rate limit reached","type":"requests"}}`})
	_, err := open(t, s, nil).Embed(context.Background(), []string{"x"})
	wantErr(t, err, "429 Too Many Requests: Rate limit reached; the server asks to wait 2m0s (")
	for _, once := range []string{"embed " + s.URL, "try again later", "("} {
		if n := strings.Count(err.Error(), once); n != 1 {
			t.Errorf("%q: %q %d times; want once", err, once, n)
		}
	}
	if CauseOf(err) != Busy {
		t.Errorf("cause %v", CauseOf(err))
	}
}

func TestTakeDim(t *testing.T) {
	tests := []struct {
		indexed string
		took    bool
	}{
		{"ollama:test-model@4", true},
		{"ollama:test-model@8", true}, // taken, and the answer then refuses it
		{"ollama:other@4", false},
		{"openai:test-model@4", false},
		{"ollama:test-model@", false},
		{"ollama:test-model@-4", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.indexed, func(t *testing.T) {
			s := newServer(t, Ollama, 4)
			e := open(t, s, nil)
			if got := e.TakeDim(tt.indexed); got != tt.took {
				t.Fatalf("TakeDim = %v; want %v", got, tt.took)
			}
			if !tt.took {
				return
			}
			if e.ModelID() != tt.indexed {
				t.Errorf("ModelID %q before any request; want %q", e.ModelID(), tt.indexed)
			}
			_, err := e.EmbedQuery(context.Background(), "x")
			if s.count() != 1 {
				t.Errorf("%d requests; want the query's alone", s.count())
			}
			if tt.indexed == "ollama:test-model@4" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			me := wantErr(t, err, "a vector of 4 dimensions", "want 8")
			if CauseOf(err) != WrongDimension || !strings.Contains(me.Hint, tt.indexed) || !strings.Contains(me.Hint, "mdsearch index") {
				t.Errorf("cause %v, hint %q", CauseOf(err), me.Hint)
			}
		})
	}
	// A dimension already known is kept.
	e := open(t, newServer(t, Ollama, 4), func(o *Options) { o.Dim = 4 })
	if e.TakeDim("ollama:test-model@8") || e.Dim() != 4 {
		t.Errorf("TakeDim replaced a configured dimension: %d", e.Dim())
	}
}

func TestKeyIsMasked(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	echo := func(status int) reply {
		return reply{handler: func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(status)
			auth := r.Header.Get("Authorization")
			if status == 200 {
				io.WriteString(w, "<html>proxy login for "+auth+"</html>")
				return
			}
			json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
				"message": "Incorrect API key provided: " + strings.TrimPrefix(auth, "Bearer "), "code": "invalid_api_key"}})
		}}
	}
	for _, status := range []int{401, 200} {
		s := newServer(t, OpenAI, 4).then(echo(status))
		_, err := open(t, s, func(o *Options) { o.APIKey = key }).Embed(context.Background(), []string{"x"})
		wantErr(t, err, "***")
		if strings.Contains(err.Error(), key) || strings.Contains(err.Error(), key[:12]) {
			t.Errorf("%d: the key shows in %q", status, err)
		}
	}
}

func TestPasswordInURLIsNotShown(t *testing.T) {
	s := newServer(t, Ollama, 4).then(reply{status: 500, body: "boom"})
	url := strings.Replace(s.URL, "http://", "http://user:hunter2@", 1)
	e := open(t, s, func(o *Options) { o.URL = url; o.Retries = -1 })
	_, err := e.Embed(context.Background(), []string{"x"})
	wantErr(t, err, "user:xxxxx@")
	if strings.Contains(err.Error(), "hunter2") {
		t.Errorf("the password shows in %q", err)
	}
}

// A redirect is named, not followed: followed, a 301 turns the POST into
// a GET (a 404 blamed on the URL), and one to another host drops the key.
func TestRedirectIsNamed(t *testing.T) {
	s := newServer(t, OpenAI, 4)
	for _, code := range []int{301, 307} {
		proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, s.URL+r.URL.Path, code)
		}))
		defer proxy.Close()
		e := open(t, s, func(o *Options) { o.URL = proxy.URL; o.APIKey = "sk-k"; o.Retries = -1 })
		_, err := e.Embed(context.Background(), []string{"x"})
		wantErr(t, err, "redirects to "+s.URL+"/v1/embeddings")
		if CauseOf(err) != NotEmbeddings {
			t.Errorf("%d: cause %v", code, CauseOf(err))
		}
	}
}

func TestCauseOf(t *testing.T) {
	tests := []struct {
		name  string
		api   API
		reply reply
		dim   int
		want  Cause
	}{
		{"401", OpenAI, reply{status: 401, body: `{"error":{"message":"bad key"}}`}, 0, KeyRefused},
		{"403", OpenAI, reply{status: 403, body: "forbidden"}, 0, KeyRefused},
		{"no model", Ollama, reply{status: 404, body: `{"error":"model \"m\" not found, try pulling it first"}`}, 0, NoSuchModel},
		{"wrong path", OpenAI, reply{status: 404, body: "404 page not found"}, 0, NotEmbeddings},
		{"invalid JSON", Ollama, reply{status: 200, body: `{"embeddings": [[0.1, `}, 0, NotEmbeddings},
		{"empty vector", Ollama, reply{status: 200, body: `{"embeddings":[[]]}`}, 0, NotEmbeddings},
		{"wrong dimension", Ollama, reply{status: 200, body: `{"embeddings":[[1,2]]}`}, 4, WrongDimension},
		{"500", Ollama, reply{status: 500, body: "boom"}, 0, Failing},
		{"429", OpenAI, reply{status: 429, body: `{"error":{"message":"Rate limit reached"}}`}, 0, Busy},
		{"400", Ollama, reply{status: 400, body: `{"error":"input too long"}`}, 0, Refused},
		{"no answer", Ollama, hang, 0, NoAnswer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, tt.api, 4).then(tt.reply)
			e := open(t, s, func(o *Options) { o.Dim, o.Retries, o.Timeout = tt.dim, -1, 100*time.Millisecond })
			_, err := e.Embed(context.Background(), []string{"x"})
			if got := CauseOf(err); got != tt.want {
				t.Errorf("CauseOf(%v) = %v; want %v", err, got, tt.want)
			}
		})
	}
	if CauseOf(context.Canceled) != Unknown || CauseOf(nil) != Unknown {
		t.Error("an error of no server has a cause")
	}
}

// A refusal of a text over the model's window names the setting that
// cuts texts shorter, as each server words it; other refusals do not.
func TestOverWindowHint(t *testing.T) {
	for body, want := range map[string]bool{
		`{"error":{"message":"This model's maximum context length is 100 tokens, however you requested 180 tokens"}}`: true,
		`{"error":"the input length exceeds the context length"}`:                                                     true,
		`{"error":"Input validation error: inputs must have less than 512 tokens. Given: 600"}`:                       true,
		`{"error":"input is too large to process. increase the physical batch size"}`:                                 true,
		`{"error":"maximum batch size exceeded"}`:                                                                     false,
		`{"error":"invalid encoding_format"}`:                                                                         false,
	} {
		s := newServer(t, OpenAI, 4).then(reply{status: 400, body: body})
		_, err := open(t, s, func(o *Options) { o.Retries = -1 }).Embed(context.Background(), []string{"x"})
		me := wantErr(t, err)
		if got := strings.Contains(me.Hint, "MDSEARCH_EMBED_MAX_TOKENS"); got != want {
			t.Errorf("400 %s: hint %q; want the window's setting named: %v", body, me.Hint, want)
		}
	}
}
