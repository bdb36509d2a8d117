package rest

import (
	"encoding/json"
	"strings"
	"testing"
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
