package rest

import (
	"reflect"
	"strings"
	"testing"
)

func TestSearchFilterParams(t *testing.T) {
	f := &fake{}
	srv := New(f, Options{})
	for _, tt := range []struct {
		query string
		code  int
		tag   string
		tags  []string
		where map[string]string
		err   string
	}{
		{"q=x&tag=a&tag=%23b&tag=c", 200, "a", []string{"b", "c"}, nil, ""},
		{"q=x&where=owner%3Dalice&where=status=draft", 200, "", nil, map[string]string{"owner": "alice", "status": "draft"}, ""},
		{"q=x&where=owner", 400, "", nil, nil, "use field=value"},
		{"q=x&where=owner=a&where=owner=b", 400, "", nil, nil, "given twice"},
		{"q=x&where=rating%3E3&where=due%3E%3D2024-01-01&where=due<2024-02-01", 200, "", nil, map[string]string{"rating": ">3", "due": ">=2024-01-01 <2024-02-01"}, ""},
		{"q=x&where=due<July", 400, "", nil, nil, "compares a number or a date"},
		{"q=x&n=1&n=2", 400, "", nil, nil, "given 2 times"},
		{"q=x&tag=a&tag=", 400, "", nil, nil, "is empty"},
		{"q=x&tag=%23", 400, "", nil, nil, "is empty"},
	} {
		f.last.Tag, f.last.Tags, f.last.Where = "", nil, nil
		resp, body := get(t, srv, "GET", "/api/v1/semantic-search?"+tt.query)
		if resp.StatusCode != tt.code || !strings.Contains(body, tt.err) {
			t.Errorf("?%s: %d %s", tt.query, resp.StatusCode, body)
			continue
		}
		if tt.code == 200 && (f.last.Tag != tt.tag || !reflect.DeepEqual(f.last.Tags, tt.tags) || !reflect.DeepEqual(f.last.Where, tt.where)) {
			t.Errorf("?%s: engine got %+v", tt.query, f.last)
		}
	}
}

func TestNoteFull(t *testing.T) {
	f := &fake{}
	srv := New(f, Options{})
	for _, tt := range []struct {
		target string
		code   int
		full   bool
	}{
		{"/api/v1/notes/x.md?full=true", 200, true},
		{"/api/v1/notes/x.md?full=1", 200, true},
		{"/api/v1/notes/x.md", 200, false},
		{"/api/v1/notes/x.md?full=maybe", 400, false},
	} {
		f.read.Full = false
		resp, body := get(t, srv, "GET", tt.target)
		if resp.StatusCode != tt.code || f.read.Full != tt.full {
			t.Errorf("%s: %d %s; engine got full=%v", tt.target, resp.StatusCode, body, f.read.Full)
		}
	}
}

// TestInstanceHeader: a request meant for another server (the command
// line's search asking the serve process its rendezvous named) is
// refused; one that names this server, or none, is answered.
func TestInstanceHeader(t *testing.T) {
	srv := New(&fake{}, Options{Instance: "abc"})
	for _, tt := range []struct {
		hdr  []string
		code int
	}{
		{nil, 200},
		{[]string{InstanceHeader, "abc"}, 200},
		{[]string{InstanceHeader, "other"}, 409},
	} {
		if resp, body := get(t, srv, "GET", "/api/v1/semantic-search?q=x", tt.hdr...); resp.StatusCode != tt.code {
			t.Errorf("%v: %d %s", tt.hdr, resp.StatusCode, body)
		}
	}
}
