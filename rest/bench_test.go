package rest

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// BenchmarkSearch compares the whole handler (parse, validate, search,
// translate, encode) with the raw baseline of calling the engine and
// encoding its answer, to show the adapter's own cost.
func BenchmarkSearch(b *testing.B) {
	f := &fake{}
	srv := New(f, Options{})
	b.Run("raw", func(b *testing.B) {
		for b.Loop() {
			resp, err := f.Search(context.Background(), mdsearch.SearchRequest{Query: "starter", N: 5, MaxPerPage: 2})
			if err != nil {
				b.Fatal(err)
			}
			if err := json.NewEncoder(io.Discard).Encode(resp); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("handler", func(b *testing.B) {
		for b.Loop() {
			req := httptest.NewRequest("GET", "/api/v1/semantic-search?q=starter&n=5&max_chunks_per_page=2", nil)
			req.Host = "127.0.0.1:8080"
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			if rec.Code != 200 {
				b.Fatal(rec.Code)
			}
		}
	})
}
