package rest

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/vault"
)

// Text answers over 1 KB are gzipped for a client that takes gzip, and
// decompress to the same bytes; small ones, images, ranges, 304s and
// HEADs are sent as they are.
func TestGzip(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "big.png"), bytes.Repeat([]byte("\x89PNG"), 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(root, vault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := &fake{}
	for i := range 60 {
		f.colls = append(f.colls, mdsearch.CollectionStatus{Name: fmt.Sprint("collection-", i), Root: "/v"})
	}
	ts := httptest.NewServer(New(f, Options{OpenAttachment: func(_ context.Context, _, p string) (*os.File, error) { return v.OpenAttachment(p) }}))
	defer ts.Close()
	_, plainJS := do(t, "GET", ts.URL+"/app.js")
	tag := ""
	for _, tt := range []struct {
		name, method, target string
		hdr                  []string
		code                 int
		gzipped              bool
	}{
		{"page", "GET", "/", []string{"Accept-Encoding", "gzip"}, 200, true},
		{"script", "GET", "/app.js", []string{"Accept-Encoding", "gzip, deflate, br"}, 200, true},
		{"style", "GET", "/style.css", []string{"Accept-Encoding", "gzip"}, 200, true},
		{"JSON", "GET", "/api/v1/status", []string{"Accept-Encoding", "gzip"}, 200, true},
		{"not taken", "GET", "/app.js", nil, 200, false},
		{"refused", "GET", "/app.js", []string{"Accept-Encoding", "gzip;q=0"}, 200, false},
		{"small JSON", "GET", "/api/v1/nope", []string{"Accept-Encoding", "gzip"}, 404, false},
		{"small file", "GET", "/favicon.svg", []string{"Accept-Encoding", "gzip"}, 200, false},
		{"image", "GET", "/api/v1/attachments/big.png?collection=v", []string{"Accept-Encoding", "gzip"}, 200, false},
		{"range", "GET", "/app.js", []string{"Accept-Encoding", "gzip", "Range", "bytes=0-4999"}, 206, false},
		{"HEAD", "HEAD", "/app.js", []string{"Accept-Encoding", "gzip"}, 200, false},
		{"revalidated", "GET", "/app.js", []string{"Accept-Encoding", "gzip", "If-None-Match", "TAG"}, 304, false},
	} {
		for i := range tt.hdr {
			if tt.hdr[i] == "TAG" {
				tt.hdr[i] = tag
			}
		}
		resp, body := do(t, tt.method, ts.URL+tt.target, tt.hdr...)
		enc := resp.Header.Get("Content-Encoding")
		if resp.StatusCode != tt.code || (enc == "gzip") != tt.gzipped {
			t.Errorf("%s: %d Content-Encoding %q", tt.name, resp.StatusCode, enc)
			continue
		}
		if tt.gzipped {
			zr, err := gzip.NewReader(strings.NewReader(body))
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			b, err := io.ReadAll(zr)
			if err != nil || len(b) < 1024 || resp.Header.Get("Content-Length") != "" && resp.Header.Get("Content-Length") != fmt.Sprint(len(body)) {
				t.Errorf("%s: %d bytes, %v, Content-Length %s of %d", tt.name, len(b), err, resp.Header.Get("Content-Length"), len(body))
			}
			if tt.target == "/app.js" && string(b) != plainJS {
				t.Errorf("%s: decompressed differs", tt.name)
			}
			if tt.target == "/app.js" {
				tag = resp.Header.Get("ETag")
			}
		}
		if tt.name == "range" && len(body) != 5000 {
			t.Errorf("range: %d bytes", len(body))
		}
		varies := tt.method == "GET" && tt.code == 200 && tt.name != "image" && tt.name != "small file"
		if varies && !strings.Contains(resp.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s: Vary %q", tt.name, resp.Header.Get("Vary"))
		}
	}
}

// An answer that flushes is sent as far as it was written, compressed
// when the client takes gzip, and decompresses whole at the end.
func TestGzipFlush(t *testing.T) {
	step := make(chan struct{})
	h := gzipped(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(strings.Repeat("a", 2000)))
		w.(http.Flusher).Flush()
		<-step
		w.Write([]byte("end"))
	}))
	ts := httptest.NewServer(h)
	defer ts.Close()
	req, _ := http.NewRequest("GET", ts.URL, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	zr, err := gzip.NewReader(resp.Body) // reads the header: it came before the end
	if err != nil {
		t.Fatal(err)
	}
	first := make([]byte, 2000)
	if _, err := io.ReadFull(zr, first); err != nil {
		t.Fatalf("the flushed part: %v", err)
	}
	close(step)
	rest, err := io.ReadAll(zr)
	if err != nil || string(rest) != "end" {
		t.Errorf("rest %q, %v", rest, err)
	}
}
