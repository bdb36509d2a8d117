package mcpserver

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// longFake answers reads of long.md with an outline and a notice, as the
// engine does for a long note read without full.
type longFake struct {
	fake
	read mdsearch.ReadRequest
}

func (f *longFake) Read(_ context.Context, req mdsearch.ReadRequest) (*mdsearch.ReadResponse, error) {
	f.read = req
	if req.Full {
		return &mdsearch.ReadResponse{Path: req.Path, Content: "# Long\n...\n", Notice: "the index is behind this note"}, nil
	}
	return &mdsearch.ReadResponse{Path: req.Path, WordCount: 4000, Notice: "this note is 4000 words (over 1500): here is its outline",
		Outline: []mdsearch.OutlineEntry{{Level: 1, Heading: "Long", SectionPath: []string{"Long"}, WordCount: 4000}}}, nil
}

func TestFiltersAndLongReads(t *testing.T) {
	f := &longFake{}
	cs := connect(t, f)
	res, text := call(t, cs, "semantic_search", map[string]any{"query": "x", "tags": []string{"#a", "b"},
		"where": map[string]string{"owner": "alice"}, "exclude": []string{"read/before.md"}, "no_rerank": true, "explain": true})
	if res.IsError || !reflect.DeepEqual(f.last.Tags, []string{"a", "b"}) || f.last.Where["owner"] != "alice" ||
		!reflect.DeepEqual(f.last.Exclude, []string{"read/before.md"}) || !f.last.NoRerank || !f.last.Explain {
		t.Errorf("engine got %+v (%s)", f.last, text)
	}
	// where takes the scalars an agent sends as JSON, read as --where would.
	res, text = call(t, cs, "semantic_search", map[string]any{"query": "x", "where": map[string]any{"draft": false, "priority": 3, "owner": "bob"}})
	if res.IsError || !reflect.DeepEqual(f.last.Where, map[string]string{"draft": "false", "priority": "3", "owner": "bob"}) {
		t.Errorf("where scalars: engine got %+v (%s)", f.last.Where, text)
	}
	// A comparison passes as written; two on one field, in two cases, make a range.
	res, text = call(t, cs, "semantic_search", map[string]any{"query": "x", "where": map[string]any{"rating": ">3", "due": ">=2024-01-01", "DUE": "<2024-02-01"}})
	if due := f.last.Where["due"] + f.last.Where["DUE"]; res.IsError || f.last.Where["rating"] != ">3" ||
		due != ">=2024-01-01 <2024-02-01" && due != "<2024-02-01 >=2024-01-01" {
		t.Errorf("where comparisons: engine got %+v (%s)", f.last.Where, text)
	}
	if res, text := call(t, cs, "semantic_search", map[string]any{"query": "x", "where": map[string]any{"tags": []string{"a"}}}); !res.IsError {
		t.Errorf("where with a list value: %s", text)
	}
	// One field named twice, in two cases, must agree, as on the CLI.
	if res, text := call(t, cs, "semantic_search", map[string]any{"query": "x", "where": map[string]any{"owner": "alice", "OWNER": "bob"}}); !res.IsError ||
		!strings.Contains(text, "given twice") {
		t.Errorf("where with a field twice: %s", text)
	}
	// A tag filter that lost its value is refused, not read as no filter
	// (tag sent blank is left out, and said so: TestBlankArgumentsNoticed).
	for _, args := range []map[string]any{{"query": "x", "tag": "#"}, {"query": "x", "tags": []string{"a", ""}}} {
		if res, text := call(t, cs, "semantic_search", args); !res.IsError || !strings.Contains(text, "is empty") {
			t.Errorf("semantic_search %v: %s", args, text)
		}
	}
	for _, tt := range []struct {
		args map[string]any
		full bool
		want []string
	}{
		{map[string]any{"path": "long.md"}, false, []string{"Note: this note is 4000 words", `- # Long · 4000 words`}},
		{map[string]any{"path": "long.md", "full": true}, true, []string{"Note: the index is behind this note\n\n# Long\n"}},
	} {
		res, text := call(t, cs, "read_note", tt.args)
		if res.IsError || f.read.Full != tt.full {
			t.Errorf("read_note %v: full=%v, %s", tt.args, f.read.Full, text)
		}
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("read_note %v: text lacks %q:\n%s", tt.args, w, text)
			}
		}
	}
}
