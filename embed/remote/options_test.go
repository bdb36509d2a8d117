package remote

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch"
)

func TestNew(t *testing.T) {
	tests := []struct {
		opts     Options
		endpoint string
		modelID  string
		err      string
	}{
		{Options{API: Ollama}, "http://localhost:11434/api/embed", "ollama:nomic-embed-text@0", ""},
		{Options{API: Ollama, URL: "http://gpu:11434/", Model: "mxbai-embed-large", Dim: 1024}, "http://gpu:11434/api/embed", "ollama:mxbai-embed-large@1024", ""},
		{Options{API: Ollama, URL: "http://gpu:11434/api/embed", Parallel: 3}, "http://gpu:11434/api/embed", "", ""},
		{Options{API: Ollama, URL: "http://gpu:11434/api/embeddings"}, "http://gpu:11434/api/embed", "", ""}, // its older endpoint
		{Options{API: Ollama, URL: "http://gpu:11434/api/"}, "http://gpu:11434/api/embed", "", ""},
		{Options{API: Ollama, URL: "https://proxy/ollama/api/embeddings"}, "https://proxy/ollama/api/embed", "", ""},
		{Options{API: OpenAI, URL: "http://h:8080/v1"}, "http://h:8080/v1/embeddings", "openai:text-embedding-3-small@0", ""},
		{Options{API: OpenAI, URL: "https://h/proxy/v1/"}, "https://h/proxy/v1/embeddings", "", ""},
		{Options{API: OpenAI, URL: "http://h:8080"}, "http://h:8080/v1/embeddings", "", ""},
		{Options{API: OpenAI, URL: "http://h/v1/embeddings"}, "http://h/v1/embeddings", "", ""},
		{Options{API: OpenAI}, "", "", "needs a URL"},
		{Options{API: "cohere"}, "", "", `unknown embedding API "cohere"`},
		{Options{API: Ollama, URL: "localhost:11434"}, "", "", "not an http(s) URL"},
		{Options{API: Ollama, URL: "ftp://x"}, "", "", "not an http(s) URL"},
		{Options{API: Ollama, URL: "http://user:pw 1234@127.0.0.1:18201"}, "", "", "embed http://xxxxx@127.0.0.1:18201: bad embedding server URL: net/url: invalid userinfo"},
		{Options{API: OpenAI, URL: "http://user:pw%zz@h/v1"}, "", "", "embed http://xxxxx@h/v1: bad embedding server URL"},
		{Options{API: Ollama, Dim: -1}, "", "", "negative"},
		{Options{API: Ollama, Parallel: -1}, "", "", "negative"},
	}
	for _, tt := range tests {
		e, err := New(tt.opts)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) || mdsearch.KindOf(err) != mdsearch.KindInvalid {
				t.Errorf("New(%+v) err = %v; want KindInvalid with %q", tt.opts, err, tt.err)
			}
			if err != nil && strings.Contains(err.Error(), "pw") {
				t.Errorf("New(%+v): the password shows in %q", tt.opts, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("New(%+v): %v", tt.opts, err)
			continue
		}
		if e.Endpoint() != tt.endpoint {
			t.Errorf("endpoint %q; want %q", e.Endpoint(), tt.endpoint)
		}
		if tt.modelID != "" && e.ModelID() != tt.modelID {
			t.Errorf("ModelID %q; want %q", e.ModelID(), tt.modelID)
		}
		if e.MaxTokens() != DefaultMaxTokens {
			t.Errorf("MaxTokens %d", e.MaxTokens())
		}
		if want := max(1, tt.opts.Parallel); e.Concurrency() != want {
			t.Errorf("Concurrency %d; want %d", e.Concurrency(), want)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"", 0}, {"0", 0}, {"7", 7 * time.Second}, {" 2 ", 2 * time.Second}, {"-3", 0}, {"soon", 0},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0},
	}
	for _, tt := range tests {
		if got := parseRetryAfter(tt.in, now); got != tt.want {
			t.Errorf("parseRetryAfter(%q) = %v; want %v", tt.in, got, tt.want)
		}
	}
}

func TestBackoffGrowsWithJitter(t *testing.T) {
	e, _ := New(Options{API: Ollama, Backoff: 100 * time.Millisecond, MaxBackoff: time.Second})
	p := e.indexPolicy()
	for try, max := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		max *= time.Millisecond
		for range 50 {
			if d := p.wait(try+1, 0); d < max/2 || d > max {
				t.Fatalf("retry %d waited %v; want within [%v, %v]", try+1, d, max/2, max)
			}
		}
	}
	if d := p.wait(1, 3*time.Second); d != 3*time.Second {
		t.Errorf("Retry-After 3s gave %v", d)
	}
}

func TestServerMessage(t *testing.T) {
	e, _ := New(Options{API: OpenAI, URL: "http://h/v1", APIKey: "sk-secret-123"})
	tests := []struct{ body, want string }{
		{`{"error":"model not found"}`, "model not found"},
		{`{"error":{"message":"bad key","type":"x"}}`, "bad key"},
		{"Bad Gateway\n", `"Bad Gateway"`},
		{"", "(empty body)"},
		{strings.Repeat("é", 300), `"` + strings.Repeat("é", 100) + `…"`},
		// The key is masked wherever the server echoes it, and before the
		// body is cut, so no part of it shows.
		{`{"error":{"message":"Incorrect API key provided: sk-secret-123"}}`, "Incorrect API key provided: ***"},
		{`{"error":"bad token sk-secret-123"}`, "bad token ***"},
		{"Unauthorized: Bearer sk-secret-123\n", `"Unauthorized: Bearer ***"`},
		{strings.Repeat("x", 190) + "sk-secret-123", `"` + strings.Repeat("x", 190) + `***"`},
		{strings.Repeat("x", 195) + "sk-secret-123", `"` + strings.Repeat("x", 195) + `***"`},
	}
	for _, tt := range tests {
		if got := e.serverMessage([]byte(tt.body)); got != tt.want {
			t.Errorf("serverMessage(%.20q) = %q; want %q", tt.body, got, tt.want)
		}
	}
}

func TestEstimateTokens(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"", 0},
		{"a", 2}, // one word × 1.3, rounded up
		{"one two three four five six seven eight nine ten", 16}, // 48 bytes / 3
		{"a b c d e f g h i j", 13},                              // 10 words × 1.3
		{"https://example.com/a/very/long/path?with=query", 16},
		{"日本語のテキスト", 11}, // 8 characters, each a word, × 1.3
	}
	for _, tt := range tests {
		if got := EstimateTokens(tt.text); got != tt.want {
			t.Errorf("EstimateTokens(%q) = %d; want %d", tt.text, got, tt.want)
		}
	}
}

func FuzzTruncate(f *testing.F) {
	for _, s := range []string{"", "hello world", strings.Repeat("ab ", 100), "日本語のテキスト", "a\xffb c"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, text string, max int) {
		max = max % 200
		if max < 0 {
			max = -max
		}
		got := Truncate(text, max)
		if !strings.HasPrefix(text, got) {
			t.Fatalf("not a prefix")
		}
		if EstimateTokens(text) <= max {
			if got != text {
				t.Fatalf("cut a text that fits")
			}
			return
		}
		if EstimateTokens(got) > max {
			t.Fatalf("estimate %d over %d", EstimateTokens(got), max)
		}
		if utf8.ValidString(text) && !utf8.ValidString(got) {
			t.Fatalf("cut inside a rune")
		}
		// Maximal: one more rune would not fit (or the cut backed off to a rune start).
		if rest := text[len(got):]; rest != "" {
			_, n := utf8.DecodeRuneInString(rest)
			if EstimateTokens(text[:len(got)+n]) <= max {
				t.Fatalf("could keep %q more", rest[:n])
			}
		}
	})
}

// BenchmarkEmbed compares Embed (batching, JSON, checks, normalising)
// with a raw POST of the same batch to the same local server, with and
// without decoding the answer (JSON floats dominate the client's cost).
func BenchmarkEmbed(b *testing.B) {
	for _, api := range apis {
		s := newServer(&testing.T{}, api, 768)
		defer s.Close()
		texts := make([]string, 32)
		for i := range texts {
			texts[i] = strings.Repeat("word ", 60) + string(rune('a'+i))
		}
		e, _ := New(Options{API: api, URL: s.URL, Model: s.model, BatchSize: 32})
		b.Run(string(api)+"/embed", func(b *testing.B) {
			for b.Loop() {
				if _, err := e.Embed(context.Background(), texts); err != nil {
					b.Fatal(err)
				}
			}
		})
		body := e.request(texts)
		client := &http.Client{}
		b.Run(string(api)+"/raw-post", func(b *testing.B) {
			for b.Loop() {
				resp, err := client.Post(e.Endpoint(), "application/json", bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				var buf bytes.Buffer
				buf.ReadFrom(resp.Body)
				resp.Body.Close()
			}
		})
		b.Run(string(api)+"/raw-post-decode", func(b *testing.B) {
			for b.Loop() {
				resp, err := client.Post(e.Endpoint(), "application/json", bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				var buf bytes.Buffer
				buf.ReadFrom(resp.Body)
				resp.Body.Close()
				if _, err := e.decode(buf.Bytes(), len(texts)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
