package mcpserver

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mdsearch/mdsearch"
)

// fake answers like the engine for a tiny fixed vault; it checks adapter
// behaviour only. The engine-backed tests are in internal/e2e.
type fake struct {
	mdsearch.Searcher // unimplemented methods panic
	last              mdsearch.SearchRequest
	lastRead          mdsearch.ReadRequest
}

func (f *fake) Search(_ context.Context, req mdsearch.SearchRequest) (*mdsearch.SearchResponse, error) {
	f.last = req
	if req.Query == "boom" {
		panic("engine exploded")
	}
	d := 0.2
	return &mdsearch.SearchResponse{Query: req.Query, Mode: mdsearch.ModeHybrid, Total: 1, Notice: req.Notice, Results: []mdsearch.Result{{
		Path: "kitchen/Sourdough.md", Section: "Starter", SectionPath: []string{"Sourdough", "Starter"},
		Text:       "Feed the starter daily.",
		ChunkIndex: 1, TotalChunks: 4, StartLine: 3, EndLine: 9, PageWordCount: 812, Score: 0.845, Distance: &d,
	}}}, nil
}

func (f *fake) Read(_ context.Context, req mdsearch.ReadRequest) (*mdsearch.ReadResponse, error) {
	f.lastRead = req
	if strings.Contains(req.Path, "..") {
		return nil, mdsearch.Errorf(mdsearch.KindForbidden, "read", req.Path, "", `".." is refused`)
	}
	if req.Section != "" && req.Section != "Starter" {
		return nil, mdsearch.Errorf(mdsearch.KindNotFound, "read", req.Path, "", "no section %q; sections: Sourdough, Sourdough/Starter", req.Section)
	}
	if req.Path == "aside.md" && !req.Comments {
		return &mdsearch.ReadResponse{Path: req.Path, StartLine: 1, EndLine: 3, Content: "# Aside\n\n\n", CommentsLeftOut: 2}, nil
	}
	return &mdsearch.ReadResponse{Path: req.Path, Section: req.Section, Content: "## Starter\nFeed the starter daily.\n"}, nil
}

func (f *fake) Outline(_ context.Context, path string) (*mdsearch.Outline, error) {
	return &mdsearch.Outline{Path: path, WordCount: 812, Sections: []mdsearch.OutlineEntry{
		{Level: 1, Heading: "Sourdough", SectionPath: []string{"Sourdough"}, Section: "Sourdough", WordCount: 812, Tokens: 1056},
		{Level: 2, Heading: "Starter", SectionPath: []string{"Sourdough", "Starter"}, Section: "Sourdough/Starter", WordCount: 100, Tokens: 130},
	}}, nil
}

func connect(t *testing.T, s mdsearch.Searcher) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	srv := New(s, Options{Version: "test"})
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Close() })
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): protocol error %v", name, args, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return res, b.String()
}

func TestToolsListed(t *testing.T) {
	cs := connect(t, &fake{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"semantic_search": {"query", "n", "max_per_page", "mode", "collection", "tag", "path_prefix", "exclude", "no_rerank", "explain", "max_tokens", "min_score"},
		"read_note":       {"path", "section"},
		"note_outline":    {"path"},
	}
	if len(res.Tools) != len(want) {
		t.Errorf("%d tools, want %d", len(res.Tools), len(want))
	}
	for _, tool := range res.Tools {
		params, ok := want[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %q", tool.Name)
			continue
		}
		if !strings.Contains(tool.Description, "token") {
			t.Errorf("%s: description does not say what it costs: %q", tool.Name, tool.Description)
		}
		schema, _ := json.Marshal(tool.InputSchema)
		for _, p := range params {
			if !strings.Contains(string(schema), `"`+p+`"`) {
				t.Errorf("%s: schema lacks %q: %s", tool.Name, p, schema)
			}
		}
		if tool.Name == "semantic_search" && !strings.Contains(string(schema), `"maximum":1,"minimum":0,"type":"number"}`) {
			t.Errorf("%s: min_score's schema lacks its range: %s", tool.Name, schema)
		}
		if strings.Contains(string(schema), `"null"`) { // some clients refuse type lists
			t.Errorf("%s: schema admits null: %s", tool.Name, schema)
		}
		// Every tool only reads; none claims an effect a second call adds.
		if a := tool.Annotations; a == nil || !a.ReadOnlyHint || !a.IdempotentHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: annotations %+v", tool.Name, a)
		}
	}
}

func TestSearch(t *testing.T) {
	f := &fake{}
	cs := connect(t, f)
	res, text := call(t, cs, "semantic_search", map[string]any{"query": "  starter ", "mode": "keyword", "tag": "#bread", "max_tokens": 300, "min_score": 0.25})
	if res.IsError {
		t.Fatalf("tool error: %s", text)
	}
	for _, want := range []string{
		"1. **kitchen/Sourdough.md** > Sourdough > Starter (84.5%)\nFeed the starter daily.\nchunk 2/4 · lines 3–9 · page 812 words",
		`section "Sourdough/Starter"`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if f.last.Query != "starter" || f.last.Mode != mdsearch.ModeKeyword || f.last.Tag != "bread" || f.last.N != 5 || f.last.MaxPerPage != 0 ||
		f.last.MaxTokens != 300 || f.last.MinScore != 0.25 {
		t.Errorf("engine got %+v", f.last)
	}
	var out mdsearch.SearchResponse
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &out); err != nil || len(out.Results) != 1 || out.Results[0].Text != "Feed the starter daily." {
		t.Errorf("structured content %s (%v)", raw, err)
	}
	// The per-note cap is max_per_page, or max_chunks_per_page, its old name.
	for _, name := range []string{"max_per_page", "max_chunks_per_page"} {
		if res, text := call(t, cs, "semantic_search", map[string]any{"query": "starter", name: 4}); res.IsError || f.last.MaxPerPage != 4 {
			t.Errorf("%s 4: engine got %d (%s)", name, f.last.MaxPerPage, text)
		}
	}
}

func TestBadCallsAreToolErrors(t *testing.T) {
	cs := connect(t, &fake{})
	tests := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"semantic_search", map[string]any{"query": " "}, "query is empty"},
		{"semantic_search", map[string]any{"query": "x", "n": 51}, "n is 51: use 1-50"},
		{"semantic_search", map[string]any{"query": "x", "n": 0}, "n is 0"},
		{"semantic_search", map[string]any{"query": "x", "n": 2.5}, "n"},
		{"semantic_search", map[string]any{"query": "x", "max_per_page": 9}, "max_per_page is 9: use 1-5, or 0 for the default (2)"},
		{"semantic_search", map[string]any{"query": "x", "max_chunks_per_page": -1}, "max_per_page is -1: use 1-5"},
		{"semantic_search", map[string]any{"query": "x", "max_per_page": 2, "max_chunks_per_page": 3}, "max_per_page and max_chunks_per_page name one field"},
		{"semantic_search", map[string]any{"query": "x", "mode": "fuzzy"}, "mode"},
		{"semantic_search", map[string]any{"query": "x", "max_tokens": -1}, "max_tokens is -1"},
		{"semantic_search", map[string]any{"query": "x", "min_score": 1.5}, "min_score is 1.5: use 0-1"},
		{"semantic_search", map[string]any{"query": "x", "bogus": 1}, "bogus"},
		{"semantic_search", map[string]any{"query": "boom"}, "internal error"},
		{"read_note", map[string]any{"path": "kitchen/Sourdough.md", "section": "Nope"}, "Sourdough/Starter"},
		// A block the note lacks: the path was right, and the advice says so.
		{"read_note", map[string]any{"path": "kitchen/Sourdough.md", "section": "^zz"}, "Retry read_note without section, or with a section path from note_outline."},
		{"read_note", map[string]any{"path": "../../etc/passwd"}, "refused"},
		{"read_note", map[string]any{}, "path"},
	}
	// A number out of range reads as the request's one check words it,
	// over REST and the command line too.
	for _, tt := range []struct {
		args map[string]any
		req  func(*mdsearch.SearchRequest)
	}{
		{map[string]any{"n": 51}, func(r *mdsearch.SearchRequest) { r.N = 51 }},
		{map[string]any{"n": 1e20}, nil}, // past int: OutOfRange with the number's text
		{map[string]any{"max_per_page": 9}, func(r *mdsearch.SearchRequest) { r.MaxPerPage = 9 }},
		{map[string]any{"max_tokens": -1}, func(r *mdsearch.SearchRequest) { r.MaxTokens = -1 }},
		{map[string]any{"max_tokens": 2000000}, func(r *mdsearch.SearchRequest) { r.MaxTokens = 2000000 }},
		{map[string]any{"min_score": 5}, func(r *mdsearch.SearchRequest) { r.MinScore = 5 }},
		{map[string]any{"min_score": -0.5}, func(r *mdsearch.SearchRequest) { r.MinScore = -0.5 }},
	} {
		want := mdsearch.OutOfRange("n", "100000000000000000000").Error()
		if tt.req != nil {
			r := mdsearch.SearchRequest{Query: "x"}.WithDefaults()
			tt.req(&r)
			want = r.Check().Error()
		}
		tt.args["query"] = "x"
		if res, text := call(t, cs, "semantic_search", tt.args); !res.IsError || text != want {
			t.Errorf("%v: %q (error %v), want %q", tt.args, text, res.IsError, want)
		}
	}
	for _, tt := range tests {
		res, text := call(t, cs, tt.tool, tt.args)
		t.Logf("%s(%v) → %s", tt.tool, tt.args, text)
		if !res.IsError {
			t.Errorf("%s(%v): not a tool error: %s", tt.tool, tt.args, text)
		}
		if !strings.Contains(text, tt.want) {
			t.Errorf("%s(%v): error %q does not mention %q", tt.tool, tt.args, text, tt.want)
		}
	}
	// The session survives all of that.
	if res, text := call(t, cs, "read_note", map[string]any{"path": "kitchen/Sourdough.md", "section": "Starter"}); res.IsError || !strings.HasPrefix(text, "## Starter") {
		t.Errorf("read after errors: %v %q", res.IsError, text)
	}
}

func TestOutline(t *testing.T) {
	cs := connect(t, &fake{})
	res, text := call(t, cs, "note_outline", map[string]any{"path": "kitchen/Sourdough.md"})
	if res.IsError || !strings.Contains(text, `  - ## Starter — section "Sourdough/Starter" · 100 words (~130 tokens)`) {
		t.Errorf("outline: %v\n%s", res.IsError, text)
	}
}

// The instructions an agent reads first name the collections it can search
// alone.
func TestInstructionsNameCollections(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		colls []mdsearch.CollectionStatus
		want  string
	}{
		{nil, Instructions},
		{[]mdsearch.CollectionStatus{{Name: "vue", Root: "/docs/vue"}, {Name: "notes", Root: "/home/a/notes"}},
			Instructions + "\nThe index holds these collections (indexed folders); pass one as semantic_search's collection to search it alone: vue (/docs/vue), notes (/home/a/notes)."},
	} {
		ct, st := mcp.NewInMemoryTransports()
		ss, err := New(&fake{}, Options{Collections: tt.colls}).Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := cs.InitializeResult().Instructions; got != tt.want {
			t.Errorf("instructions\n%q\nwant\n%q", got, tt.want)
		}
		cs.Close()
		ss.Close()
	}
}

// semantic_search's output schema is the answer's type's: every field of
// mdsearch.SearchResponse and of its results, under its JSON name, as the
// CLI's --json and REST give them.
func TestSearchOutputSchema(t *testing.T) {
	res, err := connect(t, &fake{}).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties map[string]struct {
			Items struct {
				Properties map[string]any `json:"properties"`
			} `json:"items"`
		} `json:"properties"`
	}
	for _, tool := range res.Tools {
		if tool.Name == "semantic_search" {
			raw, _ := json.Marshal(tool.OutputSchema)
			if err := json.Unmarshal(raw, &schema); err != nil {
				t.Fatal(err)
			}
		}
	}
	for typ, props := range map[reflect.Type]map[string]bool{
		reflect.TypeFor[mdsearch.SearchResponse](): keys(schema.Properties),
		reflect.TypeFor[mdsearch.Result]():         keys(schema.Properties["results"].Items.Properties),
	} {
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if !props[name] {
				t.Errorf("the output schema lacks %s.%s (%s): has %v", typ.Name(), typ.Field(i).Name, name, props)
			}
			delete(props, name)
		}
		if len(props) > 0 {
			t.Errorf("the output schema has %v, which %s has not", props, typ.Name())
		}
	}
}

func keys[V any](m map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// JSON decoding reads bytes that are not UTF-8 as U+FFFD: a query holding
// it is refused by the request's check, as REST refuses the bytes; a path
// is passed on, since results show a file name that is not UTF-8 so.
func TestNotUTF8(t *testing.T) {
	f := &longFake{}
	cs := connect(t, f)
	for _, tt := range []struct {
		tool string
		args map[string]any
		want string // the error; "" for none
	}{
		{"semantic_search", map[string]any{"query": "caf\xe9 au lait"}, "query holds U+FFFD (the replacement character), so its text was not valid UTF-8"},
		{"semantic_search", map[string]any{"query": "caf\uFFFD"}, "query holds U+FFFD"},
		{"semantic_search", map[string]any{"query": "café"}, ""},
		{"read_note", map[string]any{"path": "bad\uFFFDname.md"}, ""},
	} {
		res, text := call(t, cs, tt.tool, tt.args)
		if res.IsError != (tt.want != "") || !strings.Contains(text, tt.want) {
			t.Errorf("%s(%q): %v %s; want error %q", tt.tool, tt.args, res.IsError, text, tt.want)
		}
	}
	if f.read.Path != "bad\uFFFDname.md" {
		t.Errorf("read got %q", f.read.Path)
	}
}
