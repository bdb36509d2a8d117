package remote

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// reply is a scripted answer a test server gives before behaving normally.
type reply struct {
	status  int
	header  map[string]string
	body    string
	handler http.HandlerFunc // if set, handles the request instead
}

// server implements Ollama's POST /api/embed or the OpenAI POST
// /v1/embeddings as documented, with scripted failures first.
type server struct {
	api     API
	dim     int
	model   string // the only model it serves
	apiKey  string // required bearer token, if set
	reverse bool   // OpenAI: list data in reverse order, as the index field allows

	mu       sync.Mutex
	script   []reply
	requests int
	inputs   [][]string
	bodies   []int // request sizes
	*httptest.Server
}

func newServer(t *testing.T, api API, dim int) *server {
	s := &server{api: api, dim: dim, model: "test-model"}
	s.Server = httptest.NewServer(s)
	t.Cleanup(s.Close)
	return s
}

func (s *server) then(r ...reply) *server {
	s.mu.Lock()
	s.script = append(s.script, r...)
	s.mu.Unlock()
	return s
}

func (s *server) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests++
	var next *reply
	if len(s.script) > 0 {
		next = &s.script[0]
		s.script = s.script[1:]
	}
	s.mu.Unlock()
	if next != nil {
		if next.handler != nil {
			next.handler(w, r)
			return
		}
		for k, v := range next.header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(next.status)
		fmt.Fprint(w, next.body)
		return
	}
	s.serve(w, r)
}

// serve answers as the real API does, errors included.
func (s *server) serve(w http.ResponseWriter, r *http.Request) {
	path := "/api/embed"
	if s.api == OpenAI {
		path = "/v1/embeddings"
	}
	if r.URL.Path != path {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	if s.apiKey != "" && r.Header.Get("Authorization") != "Bearer "+s.apiKey {
		s.error(w, http.StatusUnauthorized, "Incorrect API key provided")
		return
	}
	var req embedRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		s.error(w, http.StatusBadRequest, "invalid JSON: "+err.Error())
		return
	}
	if req.Model != s.model {
		s.error(w, http.StatusNotFound, fmt.Sprintf("model %q not found, try pulling it first", req.Model))
		return
	}
	for _, in := range req.Input {
		if in == "" && s.api == OpenAI {
			s.error(w, http.StatusBadRequest, "'$.input' is invalid: empty string")
			return
		}
	}
	s.mu.Lock()
	s.inputs = append(s.inputs, req.Input)
	s.bodies = append(s.bodies, int(r.ContentLength))
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if s.api == Ollama {
		var out ollamaResponse
		for _, in := range req.Input {
			out.Embeddings = append(out.Embeddings, vectorOf(in, s.dim))
		}
		json.NewEncoder(w).Encode(out)
		return
	}
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	out := struct {
		Object string `json:"object"`
		Data   []item `json:"data"`
		Model  string `json:"model"`
	}{Object: "list", Model: req.Model}
	for i, in := range req.Input {
		out.Data = append(out.Data, item{"embedding", i, vectorOf(in, s.dim)})
	}
	if s.reverse {
		for i, j := 0, len(out.Data)-1; i < j; i, j = i+1, j-1 {
			out.Data[i], out.Data[j] = out.Data[j], out.Data[i]
		}
	}
	json.NewEncoder(w).Encode(out)
}

func (s *server) error(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	if s.api == Ollama {
		json.NewEncoder(w).Encode(map[string]string{"error": msg})
		return
	}
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error"}})
}

// vectorOf is a deterministic, unnormalised vector for text.
func vectorOf(text string, dim int) []float32 {
	h := fnv.New64a()
	h.Write([]byte(text))
	seed := h.Sum64()
	v := make([]float32, dim)
	for i := range v {
		seed = seed*6364136223846793005 + 1442695040888963407
		v[i] = float32(int64(seed>>40)%1000) / 100 // up to ±10: far from unit length
	}
	return v
}
