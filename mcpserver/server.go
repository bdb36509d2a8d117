package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mdsearch/mdsearch"
)

// Options configure the server.
type Options struct {
	Version string       // reported in the MCP handshake; "dev" if empty
	Logger  *slog.Logger // where internal errors are logged; nil discards them
	// TextOnly leaves out each answer's structured content (its JSON) and
	// the tools' output schemas. Some clients, Claude Code among them,
	// show the model only the structured content when there is one: the
	// JSON costs more tokens than the text and is not what max_tokens
	// budgets.
	TextOnly bool
	// Collections are the index's collections when the server starts,
	// named in the instructions an agent reads first; nil names none.
	Collections []mdsearch.CollectionStatus
	// Scores is what hybrid search's scores are (engine.Engine.Scores):
	// the search tool's description reads them for what they are. ""
	// is "probability".
	Scores string
}

// Instructions tell a connected agent how the tools fit together.
const Instructions = `mdsearch searches the user's markdown notes by section.
Workflow: semantic_search first; each result is a full passage with its note path,
section path and the note's word count, usually enough to answer from. If you need
more of a hit, read_note(path, section) returns just that section; avoid reading a
whole note unless you need all of it (about 1.3 tokens per word). note_outline lists
a note's sections and their sizes without loading its text.`

// instructions are Instructions and, when known, the collections the
// index held when the server started, so an agent can name one.
func instructions(colls []mdsearch.CollectionStatus) string {
	if len(colls) == 0 {
		return Instructions
	}
	names := make([]string, len(colls))
	for i, c := range colls {
		names[i] = c.Name + " (" + c.Root + ")"
	}
	return Instructions + "\nThe index holds these collections (indexed folders); pass one as semantic_search's collection to search it alone: " +
		strings.Join(names, ", ") + "."
}

// New builds an MCP server whose tools call s.
func New(s mdsearch.Searcher, opts Options) *mcp.Server {
	if opts.Version == "" {
		opts.Version = "dev"
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "mdsearch", Title: "mdsearch", Version: opts.Version},
		&mcp.ServerOptions{Instructions: instructions(opts.Collections), Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}}) // the tools never change
	t := &tools{s: s}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	search, read, outline := searchTool(opts.Scores), readTool(), outlineTool()
	schemas := toolSchemas(search, read, outline)
	srv.AddReceivingMiddleware(lenientArgs(schemas), plainErrors(schemas))
	addTool(srv, search, guard(log, t.search), opts.TextOnly)
	addTool(srv, read, guard(log, t.read), opts.TextOnly)
	addTool(srv, outline, guard(log, t.outline), opts.TextOnly)
	return srv
}

// addTool adds a tool whose answers carry their JSON as structured content,
// or, textOnly, the text alone: with Out = any and no value the SDK sends
// neither structured content nor an output schema.
func addTool[In, Out any](srv *mcp.Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out], textOnly bool) {
	if !textOnly {
		mcp.AddTool(srv, t, h)
		return
	}
	mcp.AddTool(srv, t, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		res, _, err := h(ctx, req, in)
		return res, nil, err
	})
}

// ServeStdio serves srv on stdin/stdout until the client leaves or ctx ends.
func ServeStdio(ctx context.Context, srv *mcp.Server) error {
	err := srv.Run(ctx, stdio())
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// guard turns a panic in a tool into a tool error, so one bad call cannot
// end the session or the server: go-sdk v1.8.0 recovers none, and a panic
// in a handler's goroutine ends the process.
func guard[In, Out any](log *slog.Logger, h mcp.ToolHandlerFor[In, Out]) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (res *mcp.CallToolResult, out Out, err error) {
		defer func() {
			if p := recover(); p != nil {
				log.Error("panic in MCP tool", "tool", req.Params.Name, "panic", p, "stack", string(debug.Stack()))
				var zero Out
				res, out = nil, zero
				err = fmt.Errorf("internal error in %s: %v (a bug in mdsearch; the server keeps running)", req.Params.Name, p)
			}
		}()
		return h(ctx, req, in)
	}
}

// schemaFor infers the input schema of In and lets tune add what Go types
// cannot say: defaults, ranges and enums.
func schemaFor[In any](tune func(props map[string]*jsonschema.Schema)) *jsonschema.Schema {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: schema for %T: %v", *new(In), err))
	}
	for _, p := range s.Properties {
		// A slice or map is inferred as ["null", "array"] (jsonschema-go
		// v0.4.3 still does, TestToolsListed): null arguments are dropped
		// before validation (lenientArgs), and some clients'
		// function-calling schemas refuse a list of types.
		if len(p.Types) == 2 && p.Types[0] == "null" {
			p.Type, p.Types = p.Types[1], nil
		}
	}
	if tune != nil {
		tune(s.Properties)
	}
	return s
}

func rawJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func ptr[T any](v T) *T { return &v }
