package mcpserver

import (
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mdsearch/mdsearch"
)

func TestPlainArgError(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`validating "arguments": validating root: validating /properties/n: type: 5 has type "string", want "integer"`,
			`invalid argument n: got 5 (a string), want an integer`},
		{`validating "arguments": validating root: validating /properties/tags: type: a has type "string", want one of "null, array"`,
			`invalid argument tags: got a (a string), want an array`},
		{`validating "arguments": validating root: required: missing properties: ["query"]`,
			`invalid arguments: required: missing properties: ["query"]`},
		{`json: cannot unmarshal number 9223372036854776000,"mode":"hybr... overflows into Go struct field mcpserver.SearchArgs.max_tokens of type int`,
			`invalid argument max_tokens: the number is out of range`},
		{`json: cannot unmarshal "1e+30" into Go struct field mcpserver.SearchArgs.n of type int`,
			`invalid argument n: the number is out of range`},
		{`validating "arguments": unmarshaling arguments: json: cannot unmarshal "1e400" into Go struct field map[string]interface {}.n of type float64`,
			`invalid argument n: the number is out of range`}, // past float64, before the schema is checked
		{`validating "arguments": unmarshaling arguments: json: cannot unmarshal "\"query=x\"" into Go value of type map[string]interface {}`,
			`invalid arguments: pass an object of named arguments, e.g. {"query": "…"}`},
		{`validating "arguments": validating root: validating /properties/mode: enum: fuzzy does not equal any of: [hybrid semantic keyword]`,
			`mode is "fuzzy": use hybrid, semantic or keyword`},
		{`validating "arguments": validating root: validating /properties/where: validating /properties/where/additionalProperties: type: map[b:1] has type "object", want one of "string, number, boolean"`,
			`invalid argument where: each value must be a string, a number or a boolean, not an object`},
		{`validating "arguments": validating root: validating /properties/min_score: maximum: 3/2 is greater than 1.000000`,
			`min_score is 1.5: use 0-1 (a score of 1.5% is 0.015)`},
		{`validating "arguments": validating root: validating /properties/min_score: minimum: -1/10 is less than 0.000000`,
			`min_score is -0.1: use 0-1 (0: keep every result)`},
		{`validating "arguments": validating root: validating /properties/n: maximum: 100000000000000000000/1 is greater than 50.000000`,
			`n is 100000000000000000000: use 1-50 (default 5)`},
		{`validating "arguments": validating root: validating /properties/lines: maximum: 7/1 is greater than 5.000000`,
			`invalid argument lines: 7 is out of range`}, // a field Check does not know, and no schema
		{`no such note in vue: x.md`, `no such note in vue: x.md`},
		{`validating "arguments": validating root: validating /properties/tag: type: ` + strings.Repeat("a", 200) + ` has type "array", want "string"`,
			`invalid argument tag: got ` + strings.Repeat("a", 100) + "…" + strings.Repeat("a", 40) + ` (an array), want a string`}, // a long value, shortened
	} {
		if got := plainArgError(tt.in, nil); got != tt.want {
			t.Errorf("plainArgError(%q)\n = %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// An argument the tool does not take is named, with the one meant where
// other search tools call it so, else with the arguments the tool takes.
func TestUnknownArgs(t *testing.T) {
	schema := searchTool("").InputSchema.(*jsonschema.Schema)
	const prefix = `validating "arguments": validating root: `
	for _, tt := range []struct{ in, want string }{
		{`unexpected additional properties ["limit"]`, `unknown argument "limit" ("limit": use n)`},
		{`unexpected additional properties ["limit" "Folder"]`, `unknown arguments "limit", "Folder" ("limit": use n; "Folder": use path_prefix)`},
		{`unexpected additional properties ["limit" "colour"]`, `unknown arguments "limit", "colour" ("limit": use n): this tool takes as_typed, collection, exclude, explain, max_per_page, max_tokens, min_score, mode, n, no_rerank, offset, path_prefix, query, sort, tag, tags, where`},
		{`unexpected additional properties ["my arg" "top_k"]`, `unknown arguments "my arg", "top_k" ("top_k": use n): this tool takes as_typed, collection, exclude, explain, max_per_page, max_tokens, min_score, mode, n, no_rerank, offset, path_prefix, query, sort, tag, tags, where`},
	} {
		if got := plainArgError(prefix+tt.in, schema); got != tt.want {
			t.Errorf("plainArgError(%q)\n = %q\nwant %q", tt.in, got, tt.want)
		}
	}
	if got := plainArgError(prefix+`unexpected additional properties ["limit"]`, nil); got != `unknown argument "limit"` {
		t.Errorf("without a schema: %q", got)
	}
}

func TestCodeFor(t *testing.T) {
	for msg, want := range map[string]int64{
		`method "tools/list" is invalid during session initialization`: -32600,
		`duplicate "initialize" received`:                              -32600,
		`handling 'initialize': missing required "params"`:             -32602,
		`internal error handling tools/call: boom`:                     -32603,
		`marshaling output: unsupported type`:                          -32603,
	} {
		if got := codeFor(msg); got != want {
			t.Errorf("codeFor(%q) = %d, want %d", msg, got, want)
		}
	}
}

// toolError adds what to try next, but not the advice to copy the path
// from a search when the note was named right and deleted since.
func TestToolErrorNext(t *testing.T) {
	deleted := mdsearch.Errorf(mdsearch.KindNotFound, "read", "a.md",
		"it was deleted since it was indexed; search still finds it until `mdsearch index` (or a running watch) drops it", "no such file")
	missing := mdsearch.Errorf(mdsearch.KindNotFound, "read", "b.md", "did you mean c.md?", "no such note")
	for _, tt := range []struct {
		err  error
		want bool
	}{{deleted, false}, {missing, true}} {
		got := strings.Contains(toolError(tt.err, "read", "").Error(), "exactly as semantic_search returns it")
		if got != tt.want {
			t.Errorf("%v: advice to copy the path %v, want %v", tt.err, got, tt.want)
		}
	}
}
