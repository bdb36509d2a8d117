package rest

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A note's comments are left out unless comments=true, rendered too (the
// page asks for them: its renderer hides them by Obsidian's rules).
func TestNotesComments(t *testing.T) {
	f := &fake{}
	srv := New(f, Options{})
	for _, tt := range []struct {
		target string
		code   int
		want   []bool // each read's Comments
	}{
		{"/api/v1/notes/x.md", 200, []bool{false}},
		{"/api/v1/notes/x.md?comments=true", 200, []bool{true}},
		{"/api/v1/notes/x.md?comments=1", 200, []bool{true}},
		{"/api/v1/notes/x.md?comments=false", 200, []bool{false}},
		{"/api/v1/notes/x.md?render=html", 200, []bool{false}},
		{"/api/v1/notes/x.md?render=html&comments=true", 200, []bool{true}},
		{"/api/v1/notes/x.md?comments=maybe", 400, nil},
	} {
		f.reads = nil
		resp, body := get(t, srv, "GET", tt.target)
		var got []bool
		for _, r := range f.reads {
			got = append(got, r.Comments)
		}
		if resp.StatusCode != tt.code || !slices.Equal(got, tt.want) {
			t.Errorf("%s: %d, comments %v, want %d, %v: %s", tt.target, resp.StatusCode, got, tt.code, tt.want, body)
		}
	}
}

// The notice counts the comments a read left out, saying how this API
// keeps them.
func TestNotesCommentsNotice(t *testing.T) {
	srv := New(&fake{}, Options{})
	resp, body := get(t, srv, "GET", "/api/v1/notes/aside.md")
	var r mdsearch.ReadResponse
	if err := json.Unmarshal([]byte(body), &r); err != nil || resp.StatusCode != 200 || r.CommentsLeftOut != 2 ||
		r.Notice != "2 comments (%%…%% or <!--…-->) left out, blanked in place: comments=true keeps them" {
		t.Errorf("%d %+v %v", resp.StatusCode, r, err)
	}
}
