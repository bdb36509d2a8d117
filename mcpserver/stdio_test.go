package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"github.com/google/jsonschema-go/jsonschema"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mdsearch/mdsearch/internal/testenv"
)

// A line that is no JSON-RPC message gets a JSON-RPC error and the session
// goes on: a real client then connects over the same pipes and searches.
func TestStdioSurvivesBadLines(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv := New(&fake{}, Options{Version: "test"})
	done := make(chan error, 1)
	go func() { done <- srv.Run(context.Background(), &lineTransport{in: inR, out: outW}) }()

	out := bufio.NewReader(outR)
	bad := []struct {
		line string
		code int
		id   any
	}{
		{"this is not json", -32700, nil},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600, nil},
		{`{"jsonrpc":"1.0","id":7,"method":"ping"}`, -32600, 7.0},
		{`{"jsonrpc":"2.0","id":{"x":1}}`, -32600, nil},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, -32600, nil},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, nil},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, -32600, 3.0}, // before initialize: a code, not 0
		{`{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}`, -32600, nil},
		{strings.Repeat("x", maxLine+10), -32600, nil},
	}
	for _, b := range bad {
		go func() { _, _ = io.WriteString(inW, b.line+"\n\n") }()
		line, err := out.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		var resp struct {
			ID    any `json:"id"`
			Error struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &resp); err != nil || !strings.Contains(line, `"id":`) {
			t.Fatalf("%.40q: answer %q is no JSON-RPC error (%v)", b.line, line, err)
		}
		if resp.Error.Code != b.code || resp.ID != b.id || resp.Error.Message == "" {
			t.Errorf("%.40q: got code %d id %v %q, want code %d id %v", b.line, resp.Error.Code, resp.ID, resp.Error.Message, b.code, b.id)
		}
	}

	ct := &mcp.IOTransport{Reader: struct {
		io.Reader
		io.Closer
	}{out, outR}, Writer: inW}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, text := call(t, cs, "semantic_search", map[string]any{"query": "starter"}); !strings.Contains(text, "Sourdough.md") {
		t.Errorf("search after bad lines: %s", text)
	}
	cs.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not end when its input closed")
	}
}

// A client that writes its requests and closes its input at once still
// gets every answer.
func TestStdioAnswersAfterInputEnds(t *testing.T) {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"semantic_search","arguments":{"query":"starter"}}}
`)
	var out testenv.SyncBuffer
	srv := New(&fake{}, Options{Version: "test"})
	done := make(chan error, 1)
	go func() { done <- srv.Run(context.Background(), &lineTransport{in: in, out: &out}) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not end after its input did")
	}
	if got := out.String(); !strings.Contains(got, `"id":1`) || !strings.Contains(got, `"id":2`) || !strings.Contains(got, "Sourdough.md") {
		t.Errorf("answers after the input ended:\n%s", got)
	}
}

// TextOnly answers carry no structured content and the tools no output
// schema, so clients that prefer the JSON show the model the text.
func TestTextOnly(t *testing.T) {
	ctx := context.Background()
	for _, textOnly := range []bool{false, true} {
		ct, st := mcp.NewInMemoryTransports()
		if _, err := New(&fake{}, Options{TextOnly: textOnly}).Connect(ctx, st, nil); err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		tools, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range tools.Tools {
			if (tool.OutputSchema == nil) != textOnly {
				t.Errorf("text only %v: %s output schema %v", textOnly, tool.Name, tool.OutputSchema)
			}
		}
		res, text := call(t, cs, "semantic_search", map[string]any{"query": "starter"})
		if (res.StructuredContent == nil) != textOnly || !strings.Contains(text, "Sourdough.md") {
			t.Errorf("text only %v: structured content %v, text %q", textOnly, res.StructuredContent, text)
		}
		cs.Close()
	}
}

// Optional arguments sent as null are taken as left out.
func TestNullArguments(t *testing.T) {
	f := &fake{}
	cs := connect(t, f)
	res, text := call(t, cs, "semantic_search", map[string]any{"query": "starter", "max_tokens": nil, "mode": nil, "n": nil, "where": nil, "collection": nil})
	if res.IsError || !strings.Contains(text, "Sourdough.md") || f.last.N != 5 {
		t.Errorf("search with null arguments: %s (n %d)", text, f.last.N)
	}
	if res, text := call(t, cs, "read_note", map[string]any{"path": "kitchen/Sourdough.md", "section": nil, "lines": nil, "full": nil, "comments": nil}); res.IsError || f.lastRead.Comments {
		t.Errorf("read with null arguments: %s (comments %v)", text, f.lastRead.Comments)
	}
	if res, text := call(t, cs, "read_note", map[string]any{"path": "kitchen/Sourdough.md", "comments": true}); res.IsError || !f.lastRead.Comments {
		t.Errorf("read asking for comments: %s, request %+v", text, f.lastRead)
	}
	if res, text := call(t, cs, "read_note", map[string]any{"path": "aside.md"}); res.IsError ||
		!strings.Contains(text, "2 comments (%%…%% or <!--…-->) left out, blanked in place: comments: true keeps them") {
		t.Errorf("read leaving comments out: %s", text)
	}
	if res, _ := call(t, cs, "semantic_search", map[string]any{"query": nil}); !res.IsError {
		t.Error("a null query was taken as a query")
	}
	// Arguments sent as null are none: a tool error, and the server lives
	// (the SDK alone panics writing the schema's defaults into them).
	raw, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "semantic_search", Arguments: json.RawMessage("null")})
	if err != nil || !raw.IsError {
		t.Errorf("arguments null: %v, %+v", err, raw)
	}
	if res, _ := call(t, cs, "semantic_search", map[string]any{"query": "starter"}); res.IsError {
		t.Error("the server did not answer after arguments null")
	}
}

func TestLenient(t *testing.T) {
	schemas := toolSchemas(searchTool(""), readTool())
	search, read := schemas["semantic_search"], schemas["read_note"]
	tests := []struct {
		in, want string
		schema   *jsonschema.Schema
	}{
		{`null`, `{}`, search},
		{`{"query":"x"}`, `{"query":"x"}`, search},
		{`{"query":"x","n":null}`, `{"query":"x"}`, search},
		{`{"where":{"owner":null,"n":3},"t":[1,null,"a"]}`, `{"t":[1,"a"],"where":{"n":3}}`, search},
		{`[1,null]`, `[1,null]`, search},
		// Scalars quoted where the schema wants a number or boolean.
		{`{"query":"3","n":"3","max_tokens":" 400 "}`, `{"max_tokens":400,"n":3,"query":"3"}`, search},
		{`{"path":"a.md","full":"true"}`, `{"full":true,"path":"a.md"}`, read},
		{`{"query":"x","tags":"recipe"}`, `{"query":"x","tags":["recipe"]}`, search},
		// A whole number where text is wanted: a line, or a query of digits.
		{`{"path":"a.md","lines":40}`, `{"lines":"40","path":"a.md"}`, read},
		{`{"query":1984}`, `{"query":"1984"}`, search},
		// Optional text sent blank is left out; a required one stays.
		{`{"query":" ","collection":"","mode":" ","tags":[""]}`, `{"query":" ","tags":[""]}`, search},
		{`{"path":"","section":"","lines":"40"}`, `{"lines":"40","path":""}`, read},
		// Not exactly one: left for the schema to refuse, with its message.
		{`{"query":"x","n":"2.5"}`, `{"query":"x","n":"2.5"}`, search},
		{`{"query":"x","n":"five"}`, `{"query":"x","n":"five"}`, search},
		{`{"query":"x","n":"+3"}`, `{"query":"x","n":"+3"}`, search},
		{`{"query":"x","tags":"a, b"}`, `{"query":"x","tags":"a, b"}`, search},
		{`{"query":"x","tags":"[\"a\"]"}`, `{"query":"x","tags":"[\"a\"]"}`, search},
		{`{"query":"x","n":"007"}`, `{"query":"x","n":"007"}`, search},
		{`{"path":"a.md","full":"yes"}`, `{"path":"a.md","full":"yes"}`, read},
		{`{"path":"a.md","lines":40.5}`, `{"path":"a.md","lines":40.5}`, read},
		{`{"query":"x","mode":1}`, `{"query":"x","mode":1}`, search}, // a fixed set's values are words
		{`{"query":"x","where":{"draft":"false"}}`, `{"query":"x","where":{"draft":"false"}}`, search},
		{`{"query":"x","n":"3"}`, `{"query":"x","n":"3"}`, nil}, // an unknown tool
		// The old name of max_per_page, not in the schema, is taken for it.
		{`{"query":"x","max_chunks_per_page":3}`, `{"max_per_page":3,"query":"x"}`, search},
		// A value of a fixed set, in any case, with spaces around it.
		{`{"query":"x","mode":" Keyword "}`, `{"mode":"keyword","query":"x"}`, search},
		{`{"query":"x","mode":"fuzzy"}`, `{"query":"x","mode":"fuzzy"}`, search},
	}
	for _, tt := range tests {
		if got, _, err := lenient(json.RawMessage(tt.in), tt.schema); string(got) != tt.want || err != nil {
			t.Errorf("lenient(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// A client that quotes numbers and booleans is understood, end to end.
func TestQuotedArguments(t *testing.T) {
	f := &fake{}
	cs := connect(t, f)
	res, text := call(t, cs, "semantic_search", map[string]any{"query": "starter", "n": "3", "tags": "baking"})
	if res.IsError || f.last.N != 3 || len(f.last.Tags) != 1 || f.last.Tags[0] != "baking" {
		t.Errorf("quoted n and one tag: %s (n %d, tags %q)", text, f.last.N, f.last.Tags)
	}
	if res, text := call(t, cs, "read_note", map[string]any{"path": "kitchen/Sourdough.md", "full": "true"}); res.IsError {
		t.Errorf("quoted full: %s", text)
	}
	for _, full := range []string{"1", "TRUE", " false"} { // as REST reads them
		if res, text := call(t, cs, "read_note", map[string]any{"path": "kitchen/Sourdough.md", "full": full}); res.IsError {
			t.Errorf("full %q: %s", full, text)
		}
	}
	if res, text := call(t, cs, "semantic_search", map[string]any{"query": "starter", "n": true}); !res.IsError || !strings.Contains(text, "got true (a boolean), want an integer") {
		t.Errorf("n true: %v %s", res.IsError, text)
	}
	if res, text := call(t, cs, "read_note", map[string]any{"path": "kitchen/Sourdough.md", "lines": 2}); res.IsError || f.lastRead.Lines != "2" {
		t.Errorf("lines as a number: %s (lines %q)", text, f.lastRead.Lines)
	}
	if res, text := call(t, cs, "semantic_search", map[string]any{"query": "starter", "n": "many"}); !res.IsError || !strings.Contains(text, `n is "many": use a whole number`) {
		t.Errorf(`n "many": %v %s`, res.IsError, text)
	}
}

// Two requests with one id get one answer (the SDK takes the second as a
// notification): the session still ends at once when the input does.
func TestStdioRepeatedIDs(t *testing.T) {
	call := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"semantic_search","arguments":{"query":"starter"}}}` + "\n"
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
` + call + call)
	var out testenv.SyncBuffer
	start := time.Now()
	err := New(&fake{}, Options{}).Run(context.Background(), &lineTransport{in: in, out: &out})
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the session took %v to end after its input (%v)", took, err)
	}
	if !strings.Contains(out.String(), `"id":5`) {
		t.Errorf("no answer to id 5:\n%s", out.String())
	}
}
