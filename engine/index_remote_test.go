package engine

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/embed/remote"
)

// oneServer is an Ollama server that works on one request at a time, as
// Ollama does by default, embedding with a bow; it records how many
// requests it held at once (in service or waiting) and how long it sat
// idle between requests.
type oneServer struct {
	work    sync.Mutex
	service time.Duration
	dim     int
	at      atomic.Int64
	most    atomic.Int64
	served  atomic.Int64
	idle    time.Duration // under work
	last    time.Time     // when the last request was done, under work
}

func (s *oneServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	at := s.at.Add(1)
	defer s.at.Add(-1)
	for m := s.most.Load(); at > m && !s.most.CompareAndSwap(m, at); m = s.most.Load() {
	}
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.work.Lock()
	if !s.last.IsZero() {
		s.idle += time.Since(s.last)
	}
	time.Sleep(s.service)
	vecs, _ := (&bow{id: "server", dim: s.dim}).Embed(r.Context(), req.Input)
	s.last = time.Now()
	s.work.Unlock()
	s.served.Add(1)
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"model": req.Model, "embeddings": vecs})
}

// oneCall hides an embedder's Concurrency: the engine then makes one
// Embed call at a time.
type oneCall struct{ embed.Embedder }

// TestRemoteServerKeptBusy indexes through the Ollama client against a
// server that works on one request at a time. With Parallel 1 the engine
// keeps a second call in flight, so the server holds two requests at once
// (never more) and has the next one as soon as it answers; the index
// answers exactly as one built a call at a time.
func TestRemoteServerKeptBusy(t *testing.T) {
	vault := copyDir(t, sampleVault)
	build := func(t *testing.T, pipelined bool) (*oneServer, []string, time.Duration, time.Duration) {
		s := &oneServer{service: 3 * time.Millisecond, dim: 64}
		hs := httptest.NewServer(s)
		defer hs.Close()
		rem, err := remote.New(remote.Options{API: remote.Ollama, URL: hs.URL, Model: "m", Dim: 64, BatchSize: 2})
		if err != nil {
			t.Fatal(err)
		}
		defer rem.Close()
		var emb embed.Embedder = rem
		if !pipelined {
			emb = oneCall{rem}
		}
		e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), emb)
		e.opts.EmbedBatch = 8
		start := time.Now()
		index(t, e, vault, "s")
		took := time.Since(start)
		s.work.Lock()
		idle := s.idle
		s.work.Unlock()
		return s, semanticAnswers(t, e), took, idle
	}
	seq, want, seqTook, seqIdle := build(t, false)
	s, got, took, idle := build(t, true)
	t.Logf("%d requests; one call at a time: %v, server idle %v; pipelined: %v, server idle %v",
		s.served.Load(), seqTook.Round(time.Millisecond), seqIdle.Round(time.Microsecond),
		took.Round(time.Millisecond), idle.Round(time.Microsecond))
	if s.served.Load() < 10 {
		t.Fatalf("only %d requests: the vault is too small to show anything", s.served.Load())
	}
	if most := seq.most.Load(); most != 1 {
		t.Errorf("one call at a time: the server held %d requests at once, want 1", most)
	}
	if most := s.most.Load(); most != 2 {
		t.Errorf("pipelined: the server held %d requests at once, want 2 (Parallel 1, and one ahead)", most)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("query %d answers differ from the index built a call at a time:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
}

// BenchmarkRemoteIndex indexes part of the Rust RFCs through the Ollama
// client against a server that works on one request at a time, taking
// REMOTE_SERVICE per request of 32 texts (default 20ms) and answering
// 768-dimensional vectors: the engine with one call ahead against one call
// at a time, alternately in the same run. Run with -benchtime=1x.
func BenchmarkRemoteIndex(b *testing.B) {
	service := 20 * time.Millisecond
	if d, err := time.ParseDuration(os.Getenv("REMOTE_SERVICE")); err == nil {
		service = d
	}
	dir := someRFCs(b, 30)
	took, idle := map[bool]time.Duration{}, map[bool]time.Duration{}
	requests := 0
	for b.Loop() {
		for _, pipelined := range []bool{false, true} {
			s := &oneServer{service: service, dim: 768}
			hs := httptest.NewServer(s)
			rem, err := remote.New(remote.Options{API: remote.Ollama, URL: hs.URL, Model: "m", Dim: 768})
			if err != nil {
				b.Fatal(err)
			}
			var emb embed.Embedder = rem
			if !pipelined {
				emb = oneCall{rem}
			}
			e := openEngine(b, filepath.Join(b.TempDir(), "index.db"), emb)
			start := time.Now()
			index(b, e, dir, "rfcs")
			took[pipelined] += time.Since(start)
			s.work.Lock()
			idle[pipelined] += s.idle
			s.work.Unlock()
			requests = int(s.served.Load())
			rem.Close()
			hs.Close()
		}
	}
	b.ReportMetric(took[false].Seconds()/float64(b.N), "one-call-s")
	b.ReportMetric(took[true].Seconds()/float64(b.N), "pipelined-s")
	b.ReportMetric(took[false].Seconds()/took[true].Seconds(), "speedup")
	b.ReportMetric(float64(requests), "requests")
	b.ReportMetric(idle[false].Seconds()/float64(b.N), "one-call-idle-s")
	b.ReportMetric(idle[true].Seconds()/float64(b.N), "pipelined-idle-s")
}
