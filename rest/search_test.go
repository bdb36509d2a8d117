package rest

import (
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
