package rest

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/vault"
)

// fake answers like the engine for adapter-only checks; the engine-backed
// tests are in internal/e2e.
type fake struct {
	mdsearch.Searcher
	mu      sync.Mutex
	last    mdsearch.SearchRequest
	read    mdsearch.ReadRequest
	reads   []mdsearch.ReadRequest // every read, in order
	release chan struct{}          // Index blocks until closed
	indexed []mdsearch.IndexRequest
	colls   []mdsearch.CollectionStatus // Status's, when set
	fail    map[string]error            // Index's error, by collection
	broken  error                       // Status's error, when set
}

func (f *fake) Search(_ context.Context, req mdsearch.SearchRequest) (*mdsearch.SearchResponse, error) {
	f.mu.Lock()
	f.last = req
	f.mu.Unlock()
	r := mdsearch.Result{
		Path: "kitchen/Sourdough.md", Section: "Starter", SectionPath: []string{"Sourdough", "Starter"},
		Text: "Feed it.", ChunkIndex: 1, TotalChunks: 4, PageWordCount: 812, Score: 0.5,
	}
	if req.MaxTokens > 0 { // a cut result of merged passages covering a stub
		r.Title, r.ChunkEnd, r.Truncated, r.ReadHint = "Sourdough", 2, true, "cut to fit the token budget"
		r.Sections = [][]string{{"Sourdough", "Starter"}, {"Sourdough", "Starter", "Rye"}}
	}
	return &mdsearch.SearchResponse{Query: req.Query, Mode: mdsearch.ModeKeyword, Total: 1, Results: []mdsearch.Result{r}}, nil
}

func (f *fake) Read(_ context.Context, req mdsearch.ReadRequest) (*mdsearch.ReadResponse, error) {
	f.mu.Lock()
	f.read = req
	f.reads = append(f.reads, req)
	f.mu.Unlock()
	if req.Section == "missing" {
		return nil, mdsearch.Errorf(mdsearch.KindNotFound, "read", req.Path, "the outline lists them", "no section %q; sections: Starter", req.Section)
	}
	if req.Path == "e.md" { // goldmark's emphasis pairing is quadratic on it
		return &mdsearch.ReadResponse{Path: req.Path, StartLine: 1, Content: "# E\n\n" + strings.Repeat("*a_", 133000) + "\n"}, nil
	}
	if req.Path == "aside.md" && !req.Comments {
		return &mdsearch.ReadResponse{Path: req.Path, StartLine: 1, EndLine: 3, Content: "# Aside\n\n\n", CommentsLeftOut: 2}, nil
	}
	if req.Path == "links.md" {
		return &mdsearch.ReadResponse{Collection: "v", Path: req.Path, StartLine: 1,
			Content: "# Links {#top}\n\n[[Sourdough#Starter|feed]] [[Nowhere]] [[Sourdough#^tip]] #bread/rye ![[crumb shot.png|300]] <script>x()</script>\n"}, nil
	}
	return &mdsearch.ReadResponse{Path: req.Path, Section: req.Section, Content: "## Starter\nFeed it.\n"}, nil
}

func (f *fake) Status(context.Context) (*mdsearch.Status, error) {
	if f.broken != nil {
		return nil, f.broken
	}
	if f.colls != nil {
		return &mdsearch.Status{Collections: f.colls, Files: 3}, nil
	}
	return &mdsearch.Status{Collections: []mdsearch.CollectionStatus{{Name: "v", Root: "/v"}}, Files: 3}, nil
}

func (f *fake) Index(ctx context.Context, req mdsearch.IndexRequest, progress func(mdsearch.IndexProgress)) (*mdsearch.IndexStats, error) {
	progress(mdsearch.IndexProgress{Collection: req.Name, FilesTotal: 3, FilesDone: 1})
	if err := f.fail[req.Name]; err != nil {
		return nil, err
	}
	select {
	case <-f.release:
	case <-ctx.Done():
		// As the engine's embedding says it: the cause in words alone.
		return nil, fmt.Errorf("embed 12 windows: %v", ctx.Err())
	}
	f.mu.Lock()
	f.indexed = append(f.indexed, req)
	f.mu.Unlock()
	return &mdsearch.IndexStats{Collection: req.Name, Files: 3}, nil
}

// IndexAll indexes each collection by name, as the engine does, going on
// past one that fails.
func (f *fake) IndexAll(ctx context.Context, full bool, progress func(mdsearch.IndexProgress)) ([]*mdsearch.IndexStats, error) {
	st, err := f.Status(ctx)
	if err != nil {
		return nil, err
	}
	var all []*mdsearch.IndexStats
	var errs []error
	for _, c := range st.Collections {
		stats, err := f.Index(ctx, mdsearch.IndexRequest{Name: c.Name, Full: full}, progress)
		if stats != nil {
			all = append(all, stats)
		}
		errs = append(errs, err)
	}
	return all, errors.Join(errs...)
}

func get(t *testing.T, h http.Handler, method, target string, hdr ...string) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	req.Host = "127.0.0.1:8080"
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Result(), string(body)
}

func TestSearchParams(t *testing.T) {
	f := &fake{}
	srv := New(f, Options{})
	tests := []struct {
		query string
		code  int
		want  string
	}{
		{"q=starter", 200, `"snippet": "[Sourdough \u003e Starter] Feed it."`},
		{"q=starter&max_tokens=200", 200, `"snippet": "[Sourdough \u003e Starter] Feed it.",`},
		{"q=starter&max_tokens=200", 200, `"sections": [
        [
          "Sourdough",
          "Starter"
        ],
        [
          "Sourdough",
          "Starter",
          "Rye"
        ]
      ],
      "chunk_end": 2,
      "truncated": true,
      "read_hint": "cut to fit the token budget"`},
		{"q=starter&n=%203%20", 200, `"name": "kitchen/Sourdough"`},
		{"q=x&max_tokens=-1", 400, "max_tokens is -1: use 1-1048576, or 0 for no limit"},
		{"q=x&max_tokens=lots", 400, "max_tokens is \"lots\""},
		{"tag=%23bread", 200, `"kitchen/Sourdough.md"`}, // without q: a list, which the engine makes
		{"path_prefix=kitchen/&q=", 200, `"kitchen/Sourdough.md"`},
		{"q=starter&n=50&max_chunks_per_page=5&mode=semantic&collection=v&tag=%23bread&path_prefix=kitchen/&max_tokens=300&exclude=a.md&exclude=b/c.md&no_rerank=true&explain=1", 200, `"name": "kitchen/Sourdough"`},
		{"q=x&no_rerank=maybe", 400, "no_rerank is \"maybe\": use true or false"},
		{"q=x&explain=maybe", 400, "explain is \"maybe\": use true or false"},
		{"", 400, "missing q"},
		{"q=%20%20", 400, "query is empty: say what to look for"},
		{"q=", 400, "query is empty"},
		{"q=%00", 400, "query is empty"},
		{"q=%01%02%09%7F", 400, "query is empty"},
		{"q=x&n=0", 400, "n is 0: use 1-50 (default 5)"},
		{"q=x&n=51", 400, "n is 51: use 1-50 (default 5)"},
		{"q=x&n=five", 400, "n is \"five\": use a whole number"},
		{"q=%E2%80%8B", 400, "query is empty"},
		{"q=%EF%BB%BF%20", 400, "query is empty"},
		{"q=x&n=99999999999999999999", 400, "n is 99999999999999999999: use 1-50 (default 5)"},
		{"q=x&n=-99999999999999999999", 400, "n is -99999999999999999999: use 1-50 (default 5)"},
		{"q=x&max_per_page=99999999999999999999", 400, "max_per_page is 99999999999999999999: use 1-5, or 0 for the default (2)"},
		{"q=x&max_chunks_per_page=99999999999999999999", 400, "max_per_page is 99999999999999999999: use 1-5, or 0 for the default (2)"},
		{"q=x&max_tokens=99999999999999999999", 400, "max_tokens is 99999999999999999999: use 1-1048576, or 0 for no limit"},
		{"q=x&n=", 400, "n is \"\""},
		{"q=x&max_per_page=6", 400, "max_per_page is 6: use 1-5, or 0 for the default (2)"},
		{"q=x&max_per_page=2&max_chunks_per_page=2", 400, "max_per_page and max_chunks_per_page name one field: give one of them"},
		{"q=x&max_chunks_per_page=6", 400, "max_per_page is 6"},
		{"q=x&mode=fuzzy", 400, "mode is \"fuzzy\": use hybrid, semantic or keyword"},
		{"q=x&mode=", 400, "mode is empty: give one, or leave mode out"},
		{"q=x&collection=", 400, "collection is empty"},
		{"q=x&path_prefix=%20", 400, "path_prefix is empty"},
		{"q=x&limit=3", 400, "unknown parameter \"limit\""},
		{"q=x&q=y", 400, "given 2 times"},
		{"q=x&n=%zz", 400, "malformed"},
		{"q=" + strings.Repeat("a", mdsearch.MaxQueryBytes+1), 400, "query is 4001 bytes: use at most 4000"},
		{"q=x&collection=" + strings.Repeat("a", mdsearch.MaxFieldBytes+1), 400, "parameter \"collection\" is longer than 4096 bytes"},
		{"q=%ff", 400, "UTF-8"},
	}
	for _, tt := range tests {
		resp, body := get(t, srv, "GET", "/api/v1/semantic-search?"+tt.query)
		if resp.StatusCode != 200 {
			var e errorBody
			if err := json.Unmarshal([]byte(body), &e); err != nil || e.Kind != "invalid" {
				t.Errorf("?%.40s: error body %s (%v)", tt.query, body, err)
			}
			body = e.Error
		}
		if resp.StatusCode != tt.code || !strings.Contains(body, tt.want) {
			t.Errorf("?%.40s: %d %s; want %d with %q", tt.query, resp.StatusCode, body, tt.code, tt.want)
		}
		if ct := resp.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
			t.Errorf("?%.40s: Content-Type %q", tt.query, ct)
		}
	}
	if f.last.N != 50 || f.last.MaxPerPage != 5 || f.last.Mode != mdsearch.ModeSemantic || f.last.Tag != "bread" ||
		f.last.Collection != "v" || f.last.PathPrefix != "kitchen/" || f.last.MaxTokens != 300 ||
		strings.Join(f.last.Exclude, ",") != "a.md,b/c.md" || !f.last.NoRerank || !f.last.Explain {
		t.Errorf("engine got %+v", f.last)
	}
	// Results that were not merged or cut carry none of the passage fields.
	if _, body := get(t, srv, "GET", "/api/v1/semantic-search?q=starter"); strings.Contains(body, `"sections"`) ||
		strings.Contains(body, `"chunk_end"`) || strings.Contains(body, `"truncated"`) || strings.Contains(body, `"read_hint"`) {
		t.Errorf("plain result: %s", body)
	}
}

func TestNotes(t *testing.T) {
	f := &fake{}
	srv := New(f, Options{})
	tests := []struct {
		target, accept string
		code           int
		ctype, want    string
		path           string // what the engine must be asked for
	}{
		{"/api/v1/notes/kitchen/Sourdough.md?section=Starter", "", 200, "application/json", `"content"`, "kitchen/Sourdough.md"},
		{"/api/v1/notes/kitchen/Sourdough.md", "text/markdown", 200, "text/markdown", "## Starter\n", "kitchen/Sourdough.md"},
		{"/api/v1/notes/kitchen/Sourdough.md", "application/json, text/markdown;q=0.5", 200, "application/json", `"content"`, "kitchen/Sourdough.md"},
		{"/api/v1/notes/v:Knife%20Care.md", "", 200, "application/json", `"path": "v:Knife Care.md"`, "v:Knife Care.md"},
		{"/api/v1/notes/a%2Fb.md", "", 200, "application/json", `"a/b.md"`, "a/b.md"},
		{"/api/v1/notes/../../etc/passwd", "", 200, "application/json", "", "../../etc/passwd"},
		{"/api/v1/notes/%2e%2e%2f%2e%2e%2fetc%2fpasswd", "", 200, "application/json", "", "../../etc/passwd"},
		{"/api/v1/notes/%252e%252e%252fetc", "", 200, "application/json", "", "%2e%2e%2fetc"},
		{"/api/v1/notes/x.md?section=missing", "", 404, "application/json", "sections: Starter", "x.md"},
		{"/api/v1/notes/", "", 400, "application/json", "missing note path", ""},
		{"/api/v1/notes/x.md?sect=1", "", 400, "application/json", "unknown parameter", ""},
		// Given empty, a text parameter is refused, not read as absent
		// (the whole note for an empty section).
		{"/api/v1/notes/x.md?section=", "", 400, "application/json", "section is empty: give one, or leave section out", ""},
		{"/api/v1/notes/x.md?lines=%20", "", 400, "application/json", "lines is empty", ""},
		{"/api/v1/notes/x.md?render=", "", 400, "application/json", "render is empty", ""},
	}
	for _, tt := range tests {
		f.read = mdsearch.ReadRequest{}
		resp, body := get(t, srv, "GET", tt.target, "Accept", tt.accept)
		if resp.StatusCode != tt.code || !strings.HasPrefix(resp.Header.Get("Content-Type"), tt.ctype) || !strings.Contains(body, tt.want) {
			t.Errorf("%s: %d %s %s", tt.target, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
		if f.read.Path != tt.path {
			t.Errorf("%s: engine asked for %q, want %q (passed through unchanged, decoded once)", tt.target, f.read.Path, tt.path)
		}
	}
	if resp, _ := get(t, srv, "POST", "/api/v1/notes/x.md"); resp.StatusCode != 405 {
		t.Errorf("POST note: %d", resp.StatusCode)
	}
	// An engine error's hint comes alone too, as --json gives it; the
	// message still ends with it, as before.
	_, body := get(t, srv, "GET", "/api/v1/notes/x.md?section=missing")
	var e errorBody
	if json.Unmarshal([]byte(body), &e) != nil || e.Kind != "not_found" || e.Hint != "the outline lists them" ||
		e.Error != `read x.md: no section "missing"; sections: Starter (the outline lists them)` {
		t.Errorf("error with a hint: %s", body)
	}
	if _, body := get(t, srv, "GET", "/api/v1/notes/x.md?section="); strings.Contains(body, `"hint"`) {
		t.Errorf("a request error has no hint: %s", body)
	}
}

// render=html adds the note as safe HTML, its wikilinks pointing at the
// page's address of the notes they name.
func TestRenderedNote(t *testing.T) {
	lister := func(_ context.Context, coll string) (*vault.LinkIndex, error) {
		if coll != "v" {
			t.Errorf("listed collection %q", coll)
		}
		return vault.NewLinkIndex([]string{"links.md", "kitchen/Sourdough.md"}).WithAttachments([]string{"kitchen/img/crumb shot.png"}), nil
	}
	srv := New(&fake{}, Options{NoteLinks: lister})
	resp, body := get(t, srv, "GET", "/api/v1/notes/links.md?render=html")
	var got RenderedNote
	if err := json.Unmarshal([]byte(body), &got); resp.StatusCode != 200 || err != nil {
		t.Fatalf("%d %v %s", resp.StatusCode, err, body)
	}
	for _, want := range []string{`<h1 id="top" data-line="1">Links</h1>`,
		`<a class="wikilink" href="#/note?collection=v&amp;heading=Starter&amp;path=kitchen%2FSourdough.md">feed</a>`,
		`<span class="wikilink unresolved" title="no note by this name">Nowhere</span>`,
		`<a class="wikilink" href="#/note?block=tip&amp;collection=v&amp;path=kitchen%2FSourdough.md">Sourdough &gt; ^tip</a>`,
		`<a class="tag" href="#/search?tag=bread%2Frye">#bread/rye</a>`,
		`<img class="attachment" src="/api/v1/attachments/kitchen/img/crumb%20shot.png?collection=v" alt="crumb shot.png" width="300" loading="lazy">`} {
		if !strings.Contains(got.HTML, want) {
			t.Errorf("missing %s in %s", want, got.HTML)
		}
	}
	if strings.Contains(got.HTML, "<script") || got.Path != "links.md" || len(got.Headings) != 1 || got.Headings[0].ID != "top" {
		t.Errorf("rendered %+v", got)
	}
	if resp, body := get(t, srv, "GET", "/api/v1/notes/links.md?render=pdf"); resp.StatusCode != 400 || !strings.Contains(body, "only rendering is html") {
		t.Errorf("render=pdf: %d %s", resp.StatusCode, body)
	}
}

// A note made to make goldmark work for minutes renders in a client's
// patience, over real HTTP.
func TestRenderedHostileNote(t *testing.T) {
	ts := httptest.NewServer(New(&fake{}, Options{}))
	defer ts.Close()
	client := &http.Client{Timeout: 5 * time.Second}
	start := time.Now()
	resp, err := client.Get(ts.URL + "/api/v1/notes/e.md?render=html&full=true")
	if err != nil {
		t.Fatalf("after %v: %v", time.Since(start), err)
	}
	defer resp.Body.Close()
	var got RenderedNote
	if err := json.NewDecoder(resp.Body).Decode(&got); resp.StatusCode != 200 || err != nil || !strings.Contains(got.HTML, "<h1") {
		t.Fatalf("%d %v %.200s", resp.StatusCode, err, got.HTML)
	}
}

func TestReindex(t *testing.T) {
	f := &fake{release: make(chan struct{})}
	done := make(chan struct{})
	srv := New(f, Options{OnReindexed: func() { close(done) }})
	defer srv.Close()

	if resp, body := get(t, srv, "POST", "/api/v1/reindex?full=1"); resp.StatusCode != 202 || !strings.Contains(body, `"full": true`) {
		t.Fatalf("first reindex: %d %s", resp.StatusCode, body)
	}
	if resp, body := get(t, srv, "POST", "/api/v1/reindex"); resp.StatusCode != 409 || !strings.Contains(body, "already running") {
		t.Errorf("second reindex: %d %s", resp.StatusCode, body)
	}
	var st StatusResponse
	deadline := time.Now().Add(2 * time.Second)
	for (st.Status == nil || st.Indexing == nil) && time.Now().Before(deadline) {
		_, body := get(t, srv, "GET", "/api/v1/status")
		st = StatusResponse{}
		if err := json.Unmarshal([]byte(body), &st); err != nil {
			t.Fatal(err)
		}
	}
	if st.Indexing == nil || st.Indexing.FilesDone != 1 || st.Reindex == nil || !st.Reindex.Running {
		t.Errorf("status while running: %+v %+v", st.Indexing, st.Reindex)
	}
	close(f.release)
	<-done
	_, body := get(t, srv, "GET", "/api/v1/status")
	if !strings.Contains(body, `"running": false`) || !strings.Contains(body, `"files": 3`) {
		t.Errorf("status after: %s", body)
	}
	if len(f.indexed) != 1 || !f.indexed[0].Full || f.indexed[0].Dir != "" || f.indexed[0].Name != "v" { // by name, from its folder
		t.Errorf("indexed %+v", f.indexed)
	}
	for _, target := range []string{"/api/v1/reindex?full=yes", "/api/v1/reindex?x=1"} {
		if resp, _ := get(t, srv, "POST", target); resp.StatusCode != 400 {
			t.Errorf("%s: %d", target, resp.StatusCode)
		}
	}
}

// A collection whose folder is gone fails the reindex, saying so, after
// the others were reindexed.
func TestReindexPastAFailure(t *testing.T) {
	f := &fake{release: make(chan struct{}), colls: []mdsearch.CollectionStatus{{Name: "aaa", Root: "/gone"}, {Name: "v", Root: "/v"}},
		fail: map[string]error{"aaa": mdsearch.Errorf(mdsearch.KindNotFound, "open vault", "/gone", "drop it (`mdsearch drop aaa`)", "no such folder")}}
	close(f.release)
	done := make(chan struct{})
	srv := New(f, Options{OnReindexed: func() { close(done) }})
	defer srv.Close()
	if resp, body := get(t, srv, "POST", "/api/v1/reindex"); resp.StatusCode != 202 {
		t.Fatalf("reindex: %d %s", resp.StatusCode, body)
	}
	<-done
	_, body := get(t, srv, "GET", "/api/v1/status")
	if len(f.indexed) != 1 || f.indexed[0].Name != "v" || !strings.Contains(body, "no such folder") || !strings.Contains(body, "mdsearch drop aaa") {
		t.Errorf("indexed %+v; status %s", f.indexed, body)
	}
}

// Another site's page cannot post to the API: the refusal is JSON like
// every other error, and nothing is indexed.
func TestCrossOrigin(t *testing.T) {
	f := &fake{}
	srv := New(f, Options{})
	defer srv.Close()
	resp, body := get(t, srv, "POST", "/api/v1/reindex", "Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site")
	if resp.StatusCode != 403 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") ||
		!strings.Contains(body, `"kind": "forbidden"`) || !strings.Contains(body, "cross-origin") {
		t.Errorf("cross-site POST: %d %q %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if len(f.indexed) != 0 {
		t.Errorf("a cross-site POST indexed %+v", f.indexed)
	}
}

// Each endpoint answers another method with 405 and names its own.
func TestMethodNotAllowed(t *testing.T) {
	srv := New(&fake{}, Options{})
	defer srv.Close()
	tests := []struct{ method, target, allow string }{
		{"GET", "/api/v1/reindex", "POST"},
		{"PUT", "/api/v1/reindex?full=1", "POST"},
		{"POST", "/api/v1/semantic-search?q=x", "GET, HEAD"},
		{"DELETE", "/api/v1/status", "GET, HEAD"},
		{"POST", "/api/v1/notes/x.md", "GET, HEAD"},
		{"PUT", "/api/v1/outline/x.md", "GET, HEAD"},
	}
	for _, tt := range tests {
		resp, body := get(t, srv, tt.method, tt.target)
		if resp.StatusCode != 405 || resp.Header.Get("Allow") != tt.allow || !strings.Contains(body, `"kind": "invalid"`) {
			t.Errorf("%s %s: %d Allow %q %s, want 405 Allow %q", tt.method, tt.target, resp.StatusCode, resp.Header.Get("Allow"), body, tt.allow)
		}
	}
	if resp, _ := get(t, srv, "HEAD", "/api/v1/status"); resp.StatusCode != 200 {
		t.Errorf("HEAD status: %d", resp.StatusCode)
	}
}

func TestGuard(t *testing.T) {
	f := &fake{}
	open := New(f, Options{})
	locked := New(f, Options{Token: "s3cret"})
	served := New(f, Options{Token: "s3cret", Instance: "b7e1"})
	const here, away = "127.0.0.1:40000", "10.0.0.9:40000"
	tests := []struct {
		name   string
		h      http.Handler
		host   string
		hdr    []string
		code   int
		remote string // default: away
	}{
		// A search from this machine's command line proves itself with the
		// instance from the rendezvous file, not the token.
		{"instance from this machine", served, "127.0.0.1:8080", []string{InstanceHeader, "b7e1"}, 200, here},
		{"instance from another machine", served, "127.0.0.1:8080", []string{InstanceHeader, "b7e1"}, 401, away},
		{"instance for a rebinding host", served, "evil.example:8080", []string{InstanceHeader, "b7e1"}, 401, here},
		{"wrong instance", served, "127.0.0.1:8080", []string{InstanceHeader, "b7e2"}, 401, here},
		{"instance where none is set", locked, "127.0.0.1:8080", []string{InstanceHeader, ""}, 401, here},
		{"token to a served instance", served, "127.0.0.1:8080", []string{"Authorization", "Bearer s3cret"}, 200, here},
		{"loopback host", open, "127.0.0.1:8080", nil, 200, ""},
		{"localhost", open, "localhost:8080", nil, 200, ""},
		{"rebinding host", open, "evil.example:8080", nil, 403, ""},
		{"no token", locked, "10.0.0.2:8080", nil, 401, ""},
		{"wrong token", locked, "10.0.0.2:8080", []string{"Authorization", "Bearer s3cre"}, 401, ""},
		{"token", locked, "10.0.0.2:8080", []string{"Authorization", "Bearer s3cret"}, 200, ""},
		{"token, scheme in lower case", locked, "10.0.0.2:8080", []string{"Authorization", "bearer s3cret"}, 200, ""},
		{"token as another scheme", locked, "10.0.0.2:8080", []string{"Authorization", "Basic s3cret"}, 401, ""},
		{"cross-site POST", open, "127.0.0.1:8080", []string{"Sec-Fetch-Site", "cross-site"}, 403, ""},
		// The page is answered where the API is: a rebinding host gets
		// neither; with a token the page loads, to ask for it.
		{"page, loopback host", open, "127.0.0.1:8080", nil, 200, ""},
		{"page, rebinding host", open, "evil.example:8080", nil, 403, ""},
		{"page asset, rebinding host", open, "evil.example:8080", nil, 403, ""},
		{"page with a token, any host", locked, "10.0.0.2:8080", nil, 200, ""},
	}
	for _, tt := range tests {
		method, target := "GET", "/api/v1/status"
		switch {
		case strings.Contains(tt.name, "POST"):
			method, target = "POST", "/api/v1/reindex?x=1"
		case strings.HasPrefix(tt.name, "page asset"):
			target = "/app.js"
		case strings.HasPrefix(tt.name, "page"):
			target = "/"
		}
		req := httptest.NewRequest(method, target, nil)
		req.Host = tt.host
		req.RemoteAddr = cmp.Or(tt.remote, away)
		for i := 0; i+1 < len(tt.hdr); i += 2 {
			req.Header.Set(tt.hdr[i], tt.hdr[i+1])
		}
		rec := httptest.NewRecorder()
		tt.h.ServeHTTP(rec, req)
		if rec.Code != tt.code {
			t.Errorf("%s: %d, want %d (%s)", tt.name, rec.Code, tt.code, rec.Body)
		}
	}
	// The page itself holds no notes and loads without a token.
	if resp, body := get(t, locked, "GET", "/"); resp.StatusCode != 200 || !strings.Contains(body, "<title>mdsearch</title>") {
		t.Errorf("page with token set: %d", resp.StatusCode)
	}
}

func TestCheckBind(t *testing.T) {
	tests := []struct {
		addr, token string
		ok          bool
		says        string
	}{
		{"127.0.0.1:8080", "", true, ""},
		{"localhost:0", "", true, ""},
		{"[::1]:8080", "", true, ""},
		{"0.0.0.0:8080", "", false, "is reachable from other machines"},
		{":8080", "", false, "is reachable from other machines"},
		{"192.168.1.5:8080", "", false, ""},
		{"0.0.0.0:8080", "t0ken", false, ""}, // guessable
		{"0.0.0.0:8080", "0123456789abcdef", true, ""},
		{"127.0.0.1:8080", "t0ken", true, ""}, // loopback: any token is extra
		{"127.0.0.1:8080", "two words", false, ""},
		{"8080", "", false, ""},
		{"vm:8080", "", false, "names a host other than localhost"}, // a name, whatever it resolves to today
	}
	for _, tt := range tests {
		if err := CheckBind(tt.addr, tt.token); (err == nil) != tt.ok || err != nil && !strings.Contains(err.Error(), tt.says) {
			t.Errorf("CheckBind(%q, %q) = %v", tt.addr, tt.token, err)
		}
	}
}

func TestPage(t *testing.T) {
	srv := New(&fake{}, Options{})
	for path, want := range map[string]string{"/": "text/html", "/app.js": "javascript", "/passage.js": "javascript", "/note.js": "javascript", "/why.js": "javascript", "/help.js": "javascript", "/style.css": "text/css", "/favicon.svg": "image/svg+xml"} {
		resp, _ := get(t, srv, "GET", path)
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), want) {
			t.Errorf("%s: %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("%s: CSP %q", path, csp)
		}
	}
	for _, path := range []string{"/nope.js", "/../etc/passwd", "/api/v2/x"} {
		if resp, _ := get(t, srv, "GET", path); resp.StatusCode != 404 && resp.StatusCode != 400 {
			t.Errorf("%s: %d", path, resp.StatusCode)
		}
	}
}

func TestWantsMarkdown(t *testing.T) {
	tests := map[string]bool{
		"":                                      false,
		"*/*":                                   false,
		"text/markdown":                         true,
		"text/plain":                            true,
		"application/json":                      false,
		"text/markdown;q=0.2, application/json": false,
		"application/json;q=0.1, text/markdown": true,
		"text/markdown;q=0":                     false,
	}
	for accept, want := range tests {
		if got := wantsMarkdown(accept); got != want {
			t.Errorf("wantsMarkdown(%q) = %v", accept, got)
		}
	}
}

func TestASCIIHeader(t *testing.T) {
	if got := asciiHeader("lines 1–56 of 120 — ok ü 100%\n"); got != "lines 1-56 of 120 - ok %C3%BC 100%25%0A" {
		t.Errorf("asciiHeader = %q", got)
	}
}

// A query far over the limit, in a URL longer than Go's default header
// room would allow for, is refused as the API refuses any bad value: JSON
// naming the limit, not a plain-text 431.
func TestLongQueryURL(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := NewHTTPServer(ln.Addr().String(), New(&fake{}, Options{}))
	go hs.Serve(ln)
	defer hs.Close()
	resp, err := http.Get("http://" + ln.Addr().String() + "/api/v1/semantic-search?q=" + strings.Repeat("restore+", 12000))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusBadRequest || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") ||
		!strings.Contains(string(body), "at most 4000") {
		t.Errorf("%d %s: %.200s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

// A reindex the server's Close stops is logged as stopped, not failed:
// the index keeps what was done.
func TestReindexStoppedByClose(t *testing.T) {
	f := &fake{release: make(chan struct{})}
	var logged bytes.Buffer
	done := make(chan struct{})
	srv := New(f, Options{Logger: slog.New(slog.NewTextHandler(&logged, nil)), OnReindexed: func() { close(done) }})
	if resp, body := get(t, srv, "POST", "/api/v1/reindex"); resp.StatusCode != 202 {
		t.Fatalf("reindex: %d %s", resp.StatusCode, body)
	}
	srv.Close()
	<-done
	if out := logged.String(); strings.Contains(out, "level=ERROR") || !strings.Contains(out, "reindex stopped with the server") {
		t.Errorf("log: %s", out)
	}
}
