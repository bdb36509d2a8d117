package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mdsearch/mdsearch"
)

// noticeOf is the notice of a tool's structured answer.
func noticeOf(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	var out struct {
		Notice string `json:"notice"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("structured content %s: %v", raw, err)
	}
	return out.Notice
}

// A text argument sent blank is read as left out, as agents mean it, and
// the answer says so: REST refuses one, so MCP must not widen silently.
func TestBlankArgumentsNoticed(t *testing.T) {
	f := &fake{}
	cs := connect(t, f)
	tests := []struct {
		tool   string
		args   map[string]any
		notice string // "" for none
	}{
		{"semantic_search", map[string]any{"query": "x", "collection": ""}, `collection "" was read as absent`},
		{"semantic_search", map[string]any{"query": "x", "mode": ""}, `mode "" was read as absent`},
		{"semantic_search", map[string]any{"query": "x", "tag": "", "path_prefix": " "}, `path_prefix " " and tag "" were read as absent`},
		{"semantic_search", map[string]any{"query": "x", "collection": "notes"}, ""},
		{"read_note", map[string]any{"path": "kitchen/Sourdough.md", "section": ""},
			`section "" was read as absent, so the whole note was read, not one section`},
		{"read_note", map[string]any{"path": "kitchen/Sourdough.md", "section": "Starter", "lines": ""}, `lines "" was read as absent`},
		{"read_note", map[string]any{"path": "kitchen/Sourdough.md"}, ""},
	}
	for _, tt := range tests {
		res, text := call(t, cs, tt.tool, tt.args)
		if res.IsError {
			t.Errorf("%s(%v): %s", tt.tool, tt.args, text)
			continue
		}
		if got := noticeOf(t, res); got != tt.notice {
			t.Errorf("%s(%v): notice %q, want %q", tt.tool, tt.args, got, tt.notice)
		}
		if tt.notice != "" && !strings.Contains(text, "Note: "+tt.notice) {
			t.Errorf("%s(%v): text lacks the notice:\n%s", tt.tool, tt.args, text)
		}
	}
	// A blank filter searched as none: every collection, the default mode.
	call(t, cs, "semantic_search", map[string]any{"query": "x", "collection": "", "mode": "", "tag": ""})
	if f.last.Collection != "" || f.last.Mode != mdsearch.ModeHybrid || f.last.Tag != "" {
		t.Errorf("engine got %+v", f.last)
	}
}

// A where field sent as null drops that filter, as agents mean it, and
// the answer names the field.
func TestNullWhereNoticed(t *testing.T) {
	f := &fake{}
	cs := connect(t, f)
	tests := []struct {
		args   map[string]any
		where  map[string]string
		notice string
	}{
		{map[string]any{"query": "x", "where": map[string]any{"owner": nil}}, nil,
			`where "owner" was null: searched without that filter`},
		{map[string]any{"query": "x", "where": map[string]any{"owner": nil, "draft": nil, "team": "a"}}, map[string]string{"team": "a"},
			`where "draft" and "owner" were null: searched without those filters`},
		{map[string]any{"query": "x", "collection": "", "where": map[string]any{"owner": nil}}, nil,
			`collection "" was read as absent; where "owner" was null: searched without that filter`},
		{map[string]any{"query": "x", "where": map[string]any{"team": "a"}}, map[string]string{"team": "a"}, ""},
		{map[string]any{"query": "x", "where": nil}, nil, ""}, // where itself left out
	}
	for _, tt := range tests {
		res, text := call(t, cs, "semantic_search", tt.args)
		if res.IsError {
			t.Errorf("%v: %s", tt.args, text)
			continue
		}
		if got := noticeOf(t, res); got != tt.notice {
			t.Errorf("%v: notice %q, want %q", tt.args, got, tt.notice)
		}
		if len(f.last.Where) != len(tt.where) || f.last.Where["team"] != tt.where["team"] {
			t.Errorf("%v: engine got where %v, want %v", tt.args, f.last.Where, tt.where)
		}
	}
}
