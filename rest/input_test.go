package rest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// wantError checks that an answer is the API's JSON error with this status
// and kind, its message holding want.
func wantError(t *testing.T, what string, code int, ctype, body string, wantCode int, kind, want string) {
	t.Helper()
	var e errorBody
	if err := json.Unmarshal([]byte(body), &e); err != nil || code != wantCode || e.Kind != kind ||
		!strings.HasPrefix(ctype, "application/json") || !strings.Contains(e.Error, want) {
		t.Errorf("%s: %d %s %s; want %d %s with %q", what, code, ctype, body, wantCode, kind, want)
	}
}

// A path the API's mux would clean is not redirected (with an HTML body)
// but answered as an unknown endpoint, naming the clean path.
func TestUncleanPath(t *testing.T) {
	srv := New(&fake{}, Options{})
	for _, tt := range []struct{ method, target, want string }{
		{"GET", "/api/v1//status", "use /api/v1/status"},
		{"GET", "/api/v1/./status", "use /api/v1/status"},
		{"GET", "/api/v1/x/../status", "use /api/v1/status"},
		{"POST", "/api//v1/reindex", "use /api/v1/reindex"},
		{"GET", "/api/v1//semantic-search?q=x", "use /api/v1/semantic-search"},
		{"GET", "/api/v1/status//", "use /api/v1/status/"},
	} {
		resp, body := get(t, srv, tt.method, tt.target)
		wantError(t, tt.target, resp.StatusCode, resp.Header.Get("Content-Type"), body, 404, "not_found", tt.want)
	}
	// Note paths are the engine's to judge, as sent.
	f := &fake{}
	if resp, body := get(t, New(f, Options{}), "GET", "/api/v1/notes/kitchen//Sourdough.md"); resp.StatusCode != 200 || f.read.Path != "kitchen//Sourdough.md" {
		t.Errorf("note path with //: %d %s; engine got %q", resp.StatusCode, body, f.read.Path)
	}
}

// No endpoint takes a body: a small one is ignored, one over maxBody is
// refused before the endpoint runs, whether its length is declared or not.
func TestRequestBody(t *testing.T) {
	f := &fake{release: make(chan struct{})}
	close(f.release)
	done := make(chan struct{}, 1)
	srv := New(f, Options{OnReindexed: func() {
		select { // never blocks a reindex this test did not mean to start
		case done <- struct{}{}:
		default:
		}
	}})
	defer srv.Close()
	ts := httptest.NewServer(srv)
	defer ts.Close()
	big := strings.Repeat("a", 200<<10)
	for _, tt := range []struct {
		name, method, path string
		body               io.Reader
		code               int
	}{
		{"empty JSON object", "POST", "/api/v1/reindex", strings.NewReader("{}"), 202},
		{"200 KB", "POST", "/api/v1/reindex", strings.NewReader(big), 413},
		{"200 KB, chunked", "POST", "/api/v1/reindex", struct{ io.Reader }{strings.NewReader(big)}, 413},
		{"200 KB with a GET", "GET", "/api/v1/status", strings.NewReader(big), 413},
	} {
		req, err := http.NewRequest(tt.method, ts.URL+tt.path, tt.body)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if tt.code != 413 {
			if resp.StatusCode != tt.code {
				t.Fatalf("%s: %d %s", tt.name, resp.StatusCode, body)
			}
			<-done
			continue
		}
		wantError(t, tt.name, resp.StatusCode, resp.Header.Get("Content-Type"), string(body), 413, "invalid", "no endpoint takes a body")
	}
	if len(f.indexed) != 1 {
		t.Errorf("indexed %d times, want once (the small body)", len(f.indexed))
	}
}

// A reindex of an index deleted meanwhile is refused with the engine's
// error and its hint, rather than accepted and failing in the background.
func TestReindexGoneIndex(t *testing.T) {
	gone := mdsearch.Errorf(mdsearch.KindUnavailable, "index", "/x/index.db",
		"build it again with `mdsearch index DIR --index /x/index.db`: this process switches to it",
		"the index file was deleted or replaced, and the path holds no index it can open now")
	f := &fake{broken: gone}
	srv := New(f, Options{})
	defer srv.Close()
	resp, body := get(t, srv, "POST", "/api/v1/reindex")
	wantError(t, "reindex", resp.StatusCode, resp.Header.Get("Content-Type"), body, 503, "unavailable", "build it again with `mdsearch index DIR")
	if st := srv.reindex.snapshot(); st != nil {
		t.Errorf("a reindex started: %+v", st)
	}
}

// Parameters of the notes, outline, status and reindex endpoints must be
// UTF-8, as the search's are; the note path is the engine's to judge, since
// a file's name may hold any bytes.
func TestParamsUTF8(t *testing.T) {
	f := &fake{}
	srv := New(f, Options{})
	for _, tt := range []struct{ method, target string }{
		{"GET", "/api/v1/notes/kitchen/Sourdough.md?section=%ff"},
		{"GET", "/api/v1/notes/kitchen/Sourdough.md?section=Caf%E9"},
		{"GET", "/api/v1/notes/kitchen/Sourdough.md?lines=%ff"},
		{"POST", "/api/v1/reindex?full=%ff"},
	} {
		resp, body := get(t, srv, tt.method, tt.target)
		wantError(t, tt.target, resp.StatusCode, resp.Header.Get("Content-Type"), body, 400, "invalid", "is not valid UTF-8: percent-encode")
	}
	if resp, body := get(t, srv, "GET", "/api/v1/notes/%ff.md?section=Caf%C3%A9"); resp.StatusCode != 200 ||
		f.read.Path != "\xff.md" || f.read.Section != "Café" {
		t.Errorf("a name of other bytes: %d %s; engine got %+v", resp.StatusCode, body, f.read)
	}
}

// A query that is not UTF-8, or holds U+FFFD, which stands in for such
// bytes, is refused by the request's check over HTTP, as MCP refuses it.
func TestQueryNotUTF8(t *testing.T) {
	srv := New(&fake{}, Options{})
	defer srv.Close()
	ts := httptest.NewServer(srv)
	defer ts.Close()
	for _, tt := range []struct {
		q    string
		code int
		want string
	}{
		{"caf%E9", 400, "query is not valid UTF-8"},
		{"caf%EF%BF%BD+au+lait", 400, "query holds U+FFFD (the replacement character), so its text was not valid UTF-8"},
		{"caf%C3%A9", 200, ""},
	} {
		resp, err := ts.Client().Get(ts.URL + "/api/v1/semantic-search?q=" + tt.q)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if tt.code == 200 {
			if resp.StatusCode != 200 {
				t.Errorf("q=%s: %d %s", tt.q, resp.StatusCode, body)
			}
			continue
		}
		wantError(t, "q="+tt.q, resp.StatusCode, resp.Header.Get("Content-Type"), string(body), tt.code, "invalid", tt.want)
	}
}

// Paths outside the API answer errors in the API's JSON shape too.
func TestPageErrors(t *testing.T) {
	srv := New(&fake{}, Options{})
	for _, tt := range []struct {
		method, target string
		code           int
		kind, want     string
	}{
		{"GET", "/nope", 404, "not_found", "no such page file: /nope"},
		{"GET", "/web/app.js", 404, "not_found", "no such page file"},
		{"HEAD", "/nope", 404, "not_found", ""},
		{"POST", "/", 405, "invalid", "POST is not allowed here; use GET"},
		{"DELETE", "/app.js", 405, "invalid", "use GET"},
	} {
		resp, body := get(t, srv, tt.method, tt.target)
		if tt.method == "HEAD" {
			if resp.StatusCode != tt.code || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
				t.Errorf("HEAD %s: %d %s", tt.target, resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			continue
		}
		wantError(t, tt.method+" "+tt.target, resp.StatusCode, resp.Header.Get("Content-Type"), body, tt.code, tt.kind, tt.want)
		if tt.code == 405 && resp.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("%s %s: Allow %q", tt.method, tt.target, resp.Header.Get("Allow"))
		}
	}
}
