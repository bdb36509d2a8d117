package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/render"
)

// BenchmarkSearchTool compares a semantic_search call through an MCP
// session (in memory) with the raw baseline of calling the engine and
// rendering its answer.
func BenchmarkSearchTool(b *testing.B) {
	f := &fake{}
	b.Run("raw", func(b *testing.B) {
		for b.Loop() {
			resp, err := f.Search(context.Background(), mdsearch.SearchRequest{Query: "starter"})
			if err != nil {
				b.Fatal(err)
			}
			var sb strings.Builder
			_ = render.Results(&sb, resp, render.Options{SectionPaths: true})
		}
	})
	b.Run("mcp", func(b *testing.B) {
		ctx := context.Background()
		ct, st := mcp.NewInMemoryTransports()
		ss, err := New(f, Options{}).Connect(ctx, st, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer ss.Close()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		args := map[string]any{"query": "starter"}
		for b.Loop() {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "semantic_search", Arguments: args})
			if err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
	})
}
