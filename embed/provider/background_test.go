package provider

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch/embed"
)

// switchServer is an Ollama server that answers as answer says, which a
// test changes; it counts requests.
type switchServer struct {
	*httptest.Server
	requests atomic.Int64
	mu       sync.Mutex
	answer   http.HandlerFunc
}

func newSwitchServer(t *testing.T, answer http.HandlerFunc) *switchServer {
	s := &switchServer{answer: answer}
	works, _ := embedServer(t)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		s.mu.Lock()
		answer := s.answer
		s.mu.Unlock()
		if answer == nil {
			works.Config.Handler.ServeHTTP(w, r)
			return
		}
		answer(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *switchServer) set(answer http.HandlerFunc) {
	s.mu.Lock()
	s.answer = answer
	s.mu.Unlock()
}

// hangs answers no request, noticing the client hang up (which reading
// the body lets it do).
func hangs(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}

func noModel(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusNotFound)
	w.Write([]byte(`{"error":"model \"m\" not found, try pulling it first"}`))
}

// OpenBackground returns at once whatever the server does, and learns
// the dimension after: Ready says why semantic search waits meanwhile,
// Confirm waits for the answer, a failed probe is reported once and asked
// again, and Close ends a probe still waiting.
func TestOpenBackground(t *testing.T) {
	tests := []struct {
		name   string
		answer http.HandlerFunc
		ready  string // in Ready's error at once
	}{
		{"works", nil, ""},
		{"hangs", hangs, "the server has not answered yet"},
		{"no such model", noModel, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSwitchServer(t, tt.answer)
			var reports []error
			var mu sync.Mutex
			start := time.Now()
			e, err := OpenBackground(Config{Provider: Ollama, URL: s.URL, Model: "m"}, func(err error) {
				mu.Lock()
				reports = append(reports, err)
				mu.Unlock()
			})
			if err != nil || time.Since(start) > time.Second {
				t.Fatalf("OpenBackground: %v after %v", err, time.Since(start))
			}
			if tt.ready != "" {
				if err := embed.Ready(e); err == nil || !strings.Contains(err.Error(), tt.ready) {
					t.Errorf("Ready = %v; want %q", err, tt.ready)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
				defer cancel()
				if err := embed.Confirm(ctx, e); err != context.DeadlineExceeded {
					t.Errorf("Confirm of a hung server = %v; want ctx's end", err)
				}
				start := time.Now()
				if Close(e); time.Since(start) > time.Second {
					t.Errorf("Close took %v with a probe waiting", time.Since(start))
				}
				return
			}
			defer Close(e)
			err = embed.Confirm(context.Background(), e)
			if tt.answer == nil {
				if err != nil || e.Dim() != 3 || e.ModelID() != "ollama:m@3" || embed.Ready(e) != nil {
					t.Errorf("Confirm = %v, Dim %d, ModelID %q, Ready %v", err, e.Dim(), e.ModelID(), embed.Ready(e))
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "not found") || embed.Ready(e) == nil {
				t.Fatalf("Confirm = %v, Ready %v; want the server's error", err, embed.Ready(e))
			}
			s.set(nil) // the model is pulled: the next search's Ready asks again
			for deadline := time.Now().Add(2 * time.Second); embed.Ready(e) != nil; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("Ready = %v after the server works", embed.Ready(e))
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if len(reports) != 1 || !strings.Contains(reports[0].Error(), "not found") {
				t.Errorf("reports %v; want the failure once", reports)
			}
		})
	}
}

// A dimension that is configured, or the index's, needs no probe: the
// embedder is the server's own, asked nothing at open.
func TestOpenBackgroundKnownDimension(t *testing.T) {
	s := newSwitchServer(t, hangs)
	for _, cfg := range []Config{
		{Provider: Ollama, URL: s.URL, Model: "m", Dim: 3},
		{Provider: Ollama, URL: s.URL, Model: "m", IndexModel: "ollama:m@3"},
	} {
		e, err := OpenBackground(cfg, nil)
		if err != nil || e.Dim() != 3 || embed.Ready(e) != nil {
			t.Errorf("%+v: %v, Dim %d", cfg, err, e.Dim())
		}
		Close(e)
	}
	if n := s.requests.Load(); n != 0 {
		t.Errorf("%d requests; want none", n)
	}
}
