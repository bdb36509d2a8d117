package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Errors an agent reads name its mistake in its own terms, not the SDK's
// or Go's.
func TestCallErrorTexts(t *testing.T) {
	cs := connect(t, &fake{})
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Arguments: map[string]any{"query": "x"}}); err == nil || !strings.Contains(err.Error(), "params.name is missing") {
		t.Errorf("no tool name: %v", err)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "nope", Arguments: map[string]any{"query": "x"}}); err == nil ||
		!strings.Contains(err.Error(), `unknown tool "nope": call note_outline, read_note or semantic_search`) {
		t.Errorf("an unknown tool: %v", err)
	}
	for _, tt := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"query": "x", "where": map[string]any{"a": map[string]any{"b": 1}}}, "where: each value must be a string, a number or a boolean, not an object"},
		{map[string]any{"query": "x", "mode": "fuzzy"}, `mode is "fuzzy": use hybrid, semantic or keyword`},
	} {
		if res, text := call(t, cs, "semantic_search", tt.args); !res.IsError || text != "invalid argument "+tt.want && text != tt.want {
			t.Errorf("%v: %q, want %q", tt.args, text, tt.want)
		}
	}
	f := &fake{}
	cs = connect(t, f)
	if res, text := call(t, cs, "semantic_search", map[string]any{"query": "x", "mode": " Keyword"}); res.IsError || f.last.Mode != "keyword" {
		t.Errorf("mode \" Keyword\": %q, engine got mode %q", text, f.last.Mode)
	}
}
