package rest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A cut result's read_url is the GET that reads the lines its read_hint
// names, and reads them: the note, its collection and the lines, decoded
// once.
func TestReadURL(t *testing.T) {
	for _, tt := range []struct {
		name  string
		r     mdsearch.Result
		want  string
		path  string // what the engine is asked to read
		lines string
	}{
		{"cut", mdsearch.Result{Collection: "v", Path: "kitchen/Sourdough.md", Truncated: true, RestFrom: 10, RestTo: 20},
			"/api/v1/notes/v:kitchen/Sourdough.md?lines=10-20", "v:kitchen/Sourdough.md", "10-20"},
		{"a name to escape", mdsearch.Result{Collection: "v", Path: "a b/#1 100%?.md", Truncated: true, RestFrom: 10, RestTo: 20},
			"/api/v1/notes/v:a%20b/%231%20100%25%3F.md?lines=10-20", "v:a b/#1 100%?.md", "10-20"},
		{"no collection", mdsearch.Result{Path: "x.md", Truncated: true, RestFrom: 7, RestTo: 7},
			"/api/v1/notes/x.md?lines=7-7", "x.md", "7-7"},
		{"not cut", mdsearch.Result{Collection: "v", Path: "x.md"}, "", "", ""},
		{"no lines named", mdsearch.Result{Collection: "v", Path: "x.md", Truncated: true}, "", "", ""},
	} {
		got := readURL(tt.r)
		if got != tt.want {
			t.Errorf("%s: read_url %q, want %q", tt.name, got, tt.want)
		}
		if got == "" {
			continue
		}
		f := &fake{}
		if resp, body := get(t, New(f, Options{}), "GET", got); resp.StatusCode != 200 || f.read.Path != tt.path || f.read.Lines != tt.lines {
			t.Errorf("%s: GET %s: %d %s; engine got %+v", tt.name, got, resp.StatusCode, body, f.read)
		}
	}
}

// A result is mdsearch.Result, every field under the name and of the type
// the CLI's --json and MCP give it, with the semantic-search API's name
// and snippet beside; the per-note cap is max_per_page, or the API's
// max_chunks_per_page.
func TestSearchResultShape(t *testing.T) {
	f := &fake{}
	srv := New(f, Options{})
	for _, q := range []string{"q=starter&max_per_page=4", "q=starter&max_chunks_per_page=4"} {
		resp, body := get(t, srv, "GET", "/api/v1/semantic-search?"+q)
		if resp.StatusCode != 200 || f.last.MaxPerPage != 4 {
			t.Fatalf("?%s: %d %s; engine got max per page %d", q, resp.StatusCode, body, f.last.MaxPerPage)
		}
		var got struct {
			mdsearch.SearchResponse
			Results []map[string]json.RawMessage `json:"results"`
		}
		if err := json.Unmarshal([]byte(body), &got); err != nil || len(got.Results) != 1 {
			t.Fatalf("?%s: %s (%v)", q, body, err)
		}
		want, _ := json.Marshal(mdsearch.Result{Path: "kitchen/Sourdough.md", Section: "Starter", SectionPath: []string{"Sourdough", "Starter"},
			Text: "Feed it.", ChunkIndex: 1, TotalChunks: 4, PageWordCount: 812, Score: 0.5})
		var shared map[string]json.RawMessage
		_ = json.Unmarshal(want, &shared)
		r := got.Results[0]
		for k, v := range shared {
			var b bytes.Buffer
			if json.Compact(&b, r[k]) != nil || b.String() != string(v) {
				t.Errorf("?%s: %s is %s, want %s", q, k, r[k], v)
			}
		}
		if string(r["name"]) != `"kitchen/Sourdough"` || string(r["snippet"]) != `"[Sourdough \u003e Starter] Feed it."` ||
			len(r) != len(shared)+2 || got.Query != "starter" || got.Total != 1 || !strings.Contains(body, `"collection_count": 0`) {
			t.Errorf("?%s: %s", q, body)
		}
	}
}

// min_score reaches the engine over HTTP as a number; one out of range or
// not a number is a 400 saying what to send.
func TestMinScoreParam(t *testing.T) {
	f := &fake{}
	ts := httptest.NewServer(New(f, Options{}))
	defer ts.Close()
	for _, tt := range []struct {
		query string
		code  int
		want  string  // in the body
		min   float64 // what the engine got
	}{
		{"q=starter&min_score=0.3", 200, "", 0.3},
		{"q=starter", 200, "", 0},
		{"q=starter&min_score=1.5", 400, "min_score is 1.5: use 0-1", 0},
		{"q=starter&min_score=30", 400, "a score of 30% is 0.3", 0},
		{"q=starter&min_score=NaN", 400, "min_score is NaN", 0},
		{"q=starter&min_score=high", 400, `min_score is \"high\": use a number`, 0},
	} {
		f.last = mdsearch.SearchRequest{}
		resp, err := ts.Client().Get(ts.URL + "/api/v1/semantic-search?" + tt.query)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.code || !strings.Contains(string(body), tt.want) || f.last.MinScore != tt.min {
			t.Errorf("?%s: %d %s; engine got min_score %v", tt.query, resp.StatusCode, body, f.last.MinScore)
		}
	}
}
