package rest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// BenchmarkSearch compares the whole handler (parse, validate, search,
// translate, encode) with the raw baseline of calling the engine and
// encoding its answer, to show the adapter's own cost, and the handler
// again for a client that takes gzip.
func BenchmarkSearch(b *testing.B) {
	f := &passages{}
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
	for _, enc := range []string{"", "gzip"} {
		b.Run("handler"+map[string]string{"gzip": " gzip"}[enc], func(b *testing.B) {
			var size int
			for b.Loop() {
				req := httptest.NewRequest("GET", "/api/v1/semantic-search?q=starter&n=5&max_chunks_per_page=2", nil)
				req.Host = "127.0.0.1:8080"
				if enc != "" {
					req.Header.Set("Accept-Encoding", enc)
				}
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, req)
				if rec.Code != 200 || rec.Header().Get("Content-Encoding") != enc {
					b.Fatal(rec.Code, rec.Header())
				}
				size = rec.Body.Len()
			}
			b.ReportMetric(float64(size), "bytes/answer")
		})
	}
}

// passages answers a search as a vault would: req.N results of a
// 300-word passage each (about 2 KB), where fake answers one short line.
type passages struct{ fake }

func (p *passages) Search(ctx context.Context, req mdsearch.SearchRequest) (*mdsearch.SearchResponse, error) {
	resp, err := p.fake.Search(ctx, req)
	if err != nil {
		return nil, err
	}
	r := resp.Results[0]
	resp.Results = nil
	for i := range req.N {
		r.ChunkIndex, r.Text = i, prose(300, i)
		resp.Results = append(resp.Results, r)
	}
	resp.Total = len(resp.Results)
	return resp, nil
}

// prose is n words of text that compresses as prose does, not as one
// sentence repeated: words drawn from a small vocabulary by a seeded
// generator.
func prose(n, seed int) string {
	words := strings.Fields("the starter is fed twice a day with equal weights of flour and water " +
		"rye wheat levain dough rises overnight in a cool kitchen before shaping baking loaves crust " +
		"crumb hydration temperature fold stretch bench rest proof oven steam score blade hours minutes")
	var b strings.Builder
	x := uint32(seed*7919 + 1)
	for i := range n {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[x%uint32(len(words))])
	}
	return b.String()
}

// BenchmarkGzipLevel compresses a 50-result answer (about 100 KB of JSON)
// at the level the server uses, gzip's best speed, beside gzip's default
// level: the baseline the choice was made against.
func BenchmarkGzipLevel(b *testing.B) {
	f := &passages{}
	resp, err := f.Search(context.Background(), mdsearch.SearchRequest{Query: "starter", N: 50, MaxPerPage: 5})
	if err != nil {
		b.Fatal(err)
	}
	answer, err := json.Marshal(resp)
	if err != nil {
		b.Fatal(err)
	}
	for _, lv := range []struct {
		name  string
		level int
	}{{"best speed", gzip.BestSpeed}, {"default", gzip.DefaultCompression}} {
		b.Run(lv.name, func(b *testing.B) {
			var out bytes.Buffer
			w, _ := gzip.NewWriterLevel(&out, lv.level)
			b.SetBytes(int64(len(answer)))
			for b.Loop() {
				out.Reset()
				w.Reset(&out)
				w.Write(answer)
				w.Close()
			}
			b.ReportMetric(float64(out.Len()), "gzipped-bytes")
		})
	}
}
