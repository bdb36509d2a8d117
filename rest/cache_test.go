package rest

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch/vault"
)

// do sends a request over real HTTP with the headers given in pairs.
func do(t *testing.T, method, url string, hdr ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultTransport.RoundTrip(req) // no transparent gzip
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(body)
}

// The page's files carry an ETag of their content, so a browser's
// revalidation on each load costs a 304, not the file.
func TestPageETag(t *testing.T) {
	ts := httptest.NewServer(New(&fake{}, Options{}))
	defer ts.Close()
	seen := map[string]string{}
	for _, p := range []string{"/", "/app.js", "/style.css"} {
		resp, body := do(t, "GET", ts.URL+p)
		tag := resp.Header.Get("ETag")
		if resp.StatusCode != 200 || tag == "" || body == "" || resp.Header.Get("Cache-Control") != "no-cache" {
			t.Fatalf("%s: %d ETag %q Cache-Control %q", p, resp.StatusCode, tag, resp.Header.Get("Cache-Control"))
		}
		for q, other := range seen {
			if other == tag {
				t.Errorf("%s and %s share ETag %s", p, q, tag)
			}
		}
		seen[p] = tag
		if resp, body := do(t, "GET", ts.URL+p, "If-None-Match", tag); resp.StatusCode != 304 || body != "" {
			t.Errorf("%s revalidated: %d %.40q", p, resp.StatusCode, body)
		}
		if resp, _ := do(t, "GET", ts.URL+p, "If-None-Match", `W/"other"`); resp.StatusCode != 200 {
			t.Errorf("%s with another ETag: %d", p, resp.StatusCode)
		}
	}
}

// An attachment's ETag changes with the file, so one replaced by a file
// of the same size and an older modification time is not taken for the
// one a browser holds.
func TestAttachmentETag(t *testing.T) {
	root := t.TempDir()
	img := filepath.Join(root, "a.png")
	if err := os.WriteFile(img, []byte("\x89PNG old"), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(root, vault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(New(&fake{}, Options{OpenAttachment: func(_ context.Context, _, p string) (*os.File, error) { return v.OpenAttachment(p) }}))
	defer ts.Close()
	url := ts.URL + "/api/v1/attachments/a.png?collection=v"
	resp, _ := do(t, "GET", url)
	tag, modified := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	if resp.StatusCode != 200 || tag == "" {
		t.Fatalf("%d ETag %q", resp.StatusCode, tag)
	}
	if resp, _ := do(t, "GET", url, "If-None-Match", tag, "If-Modified-Since", modified); resp.StatusCode != 304 {
		t.Errorf("unchanged: %d", resp.StatusCode)
	}
	// Replaced, by a rename, with a file of the same size dated earlier.
	if err := os.WriteFile(img+".new", []byte("\x89PNG new"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(img+".new", old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(img+".new", img); err != nil {
		t.Fatal(err)
	}
	if resp, body := do(t, "GET", url, "If-None-Match", tag, "If-Modified-Since", modified); resp.StatusCode != 200 || body != "\x89PNG new" || resp.Header.Get("ETag") == tag {
		t.Errorf("replaced: %d %q ETag %s", resp.StatusCode, body, resp.Header.Get("ETag"))
	}
}
