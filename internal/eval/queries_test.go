package eval

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

func TestParseQueries(t *testing.T) {
	in := `{"query": "What adaptations?", "relevant": [{"path": "V.md", "section_path": ["V", "Legacy", "Adaptations"]}]}

{"query": " API versioning ", "expected_path_contains": "api-design", "difficulty": "easy"}
{"query": "two labels", "relevant": [{"path": "a.md", "section_path": []}, {"path": "b/c.md", "section_path": ["C"]}], "difficulty": "hard"}
`
	qs, err := ParseQueries(strings.NewReader(in), "q.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := []Query{
		{Text: "What adaptations?", Relevant: []Label{{Path: "V.md", SectionPath: []string{"V", "Legacy", "Adaptations"}}}, Line: 1},
		{Text: "API versioning", PathContains: "api-design", Difficulty: "easy", Line: 3},
		{Text: "two labels", Relevant: []Label{{Path: "a.md", SectionPath: []string{}}, {Path: "b/c.md", SectionPath: []string{"C"}}},
			Difficulty: "hard", Line: 4},
	}
	if len(qs.Queries) != len(want) {
		t.Fatalf("got %d queries, want %d", len(qs.Queries), len(want))
	}
	for i, w := range want {
		g := qs.Queries[i]
		if g.Text != w.Text || g.PathContains != w.PathContains || g.Difficulty != w.Difficulty || g.Line != w.Line ||
			len(g.Relevant) != len(w.Relevant) {
			t.Errorf("query %d: got %+v, want %+v", i, g, w)
			continue
		}
		for j := range w.Relevant {
			if g.Relevant[j].Path != w.Relevant[j].Path || !slices.Equal(g.Relevant[j].SectionPath, w.Relevant[j].SectionPath) {
				t.Errorf("query %d label %d: got %+v, want %+v", i, j, g.Relevant[j], w.Relevant[j])
			}
		}
	}
	if !qs.Queries[0].Labelled() || qs.Queries[1].Labelled() {
		t.Error("Labelled: want true for relevant labels, false for expected_path_contains")
	}
}

// Lines that ask the same text of the same notes are one query with their
// labels joined, at the first line; another exclude keeps a line its own;
// AsListed gives each line back.
func TestParseQueriesMergesRepeats(t *testing.T) {
	in := `{"query": "see $attrs and $slots", "relevant": [{"path": "api.md", "section_path": ["$attrs"]}], "exclude": "guide.md"}
{"query": "other", "relevant": [{"path": "b.md", "section_path": []}]}
{"query": "see $attrs and $slots", "relevant": [{"path": "api.md", "section_path": ["$slots"]}], "exclude": "guide.md"}
{"query": "see $attrs and $slots", "relevant": [{"path": "api.md", "section_path": ["$emit"]}], "exclude": "faq.md"}
{"query": "API", "expected_path_contains": "api"}
{"query": "API", "expected_path_contains": "api"}
`
	qs, err := ParseQueries(strings.NewReader(in), "q.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		line   int
		labels string
	}
	var gs []got
	for _, q := range qs.Queries {
		var ls []string
		for _, l := range q.Relevant {
			ls = append(ls, strings.Join(l.SectionPath, "/"))
		}
		gs = append(gs, got{q.Line, strings.Join(ls, " ")})
	}
	want := []got{{1, "$attrs $slots"}, {2, ""}, {4, "$emit"}, {5, ""}}
	if !slices.Equal(gs, want) || qs.Merged() != 2 {
		t.Fatalf("merged %d: %v, want 2: %v", qs.Merged(), gs, want)
	}
	qs.AsListed()
	if len(qs.Queries) != 6 || qs.Merged() != 0 || len(qs.Queries[0].Relevant) != 1 || len(qs.Queries[2].Relevant) != 1 {
		t.Fatalf("as listed: %d queries, merged %d, first labels %v", len(qs.Queries), qs.Merged(), qs.Queries[0].Relevant)
	}
}

// A query file saved with a byte order mark reads as one without.
func TestParseQueriesBOM(t *testing.T) {
	qs, err := ParseQueries(strings.NewReader("\ufeff"+`{"query": "a", "expected_path_contains": "x"}`+"\n"), "q.jsonl")
	if err != nil || len(qs.Queries) != 1 || qs.Queries[0].Text != "a" {
		t.Fatalf("got %+v, %v", qs, err)
	}
}

func TestParseQueriesErrors(t *testing.T) {
	good := `{"query": "ok", "expected_path_contains": "x"}` + "\n"
	cases := []struct {
		name, line, want string
	}{
		{"not json", `{"query": "x",`, "not a JSON query object"},
		{"array", `["x"]`, `not a JSON query object but a JSON array: the format is one object a line, {"query"`},
		{"string", `"restore drill"`, "not a JSON query object but a JSON string"},
		{"line over the limit", `{"query": "` + strings.Repeat("x", maxLineBytes) + `"}`, "the line is over 4 MB"},
		{"no query", `{"expected_path_contains": "x"}`, `"query" is missing`},
		{"blank query", `{"query": "  ", "expected_path_contains": "x"}`, `"query" is missing`},
		{"no labels", `{"query": "x"}`, `needs "relevant" labels or "expected_path_contains"`},
		{"empty relevant", `{"query": "x", "relevant": []}`, `needs "relevant"`},
		{"both", `{"query": "x", "relevant": [{"path": "a.md"}], "expected_path_contains": "a"}`, "has both"},
		{"no path", `{"query": "x", "relevant": [{"section_path": ["A"]}]}`, `relevant[0] has no "path"`},
		{"empty heading", `{"query": "x", "relevant": [{"path": "a.md", "section_path": ["A", " "]}]}`, "empty heading"},
		{"wrong type", `{"query": "x", "relevant": "a.md"}`, `field "relevant" holds a JSON string`},
		{"not utf-8", "{\"query\": \"caf\xe9 menu\", \"expected_path_contains\": \"x\"}", "query holds U+FFFD"},
		{"too long", `{"query": "` + strings.Repeat("word ", 900) + `", "expected_path_contains": "x"}`, "query is 4499 bytes: use at most 4000"},
		{"wrong label type", `{"query": "x", "relevant": [{"path": "a.md", "section_path": "A"}]}`, `field "relevant.section_path" holds a JSON string`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseQueries(strings.NewReader(good+"\n"+c.line+"\n"), "dev/q.jsonl")
			if err == nil {
				t.Fatal("want an error")
			}
			if !strings.Contains(err.Error(), "dev/q.jsonl:3") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q should name dev/q.jsonl:3 and say %q", err, c.want)
			}
			if mdsearch.KindOf(err) != mdsearch.KindInvalid {
				t.Errorf("kind %v, want KindInvalid", mdsearch.KindOf(err))
			}
		})
	}
}

func TestLoadQueriesErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadQueries(filepath.Join(dir, "missing.jsonl")); err == nil || !strings.Contains(err.Error(), "missing.jsonl") {
		t.Errorf("missing file: %v", err)
	}
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, []byte("\n\n"), 0o644)
	if _, err := LoadQueries(empty); err == nil || !strings.Contains(err.Error(), "no queries") {
		t.Errorf("empty file: %v", err)
	}
	long := filepath.Join(dir, "long.jsonl")
	os.WriteFile(long, []byte(`{"query": "`+strings.Repeat("x", 5<<20)+`"}`), 0o644)
	if _, err := LoadQueries(long); err == nil || !strings.Contains(err.Error(), "long.jsonl") {
		t.Errorf("over-long line: %v", err)
	}
}

// writeVault creates notes (path → content) in a new folder.
func writeVault(t *testing.T, notes map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, text := range notes {
		abs := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const noteV = `# V
Intro line.
## Legacy
Legacy text.
### Adaptations
Anime text.
## A/B testing
Split tests.
`

func TestResolve(t *testing.T) {
	dir := writeVault(t, map[string]string{"V.md": noteV, "docs/api-design.md": "# API\ntext\n"})
	in := `{"query": "q1", "relevant": [{"path": "V.md", "section_path": ["V", "Legacy", "Adaptations"]}]}
{"query": "q2", "relevant": [{"path": "V.md", "section_path": ["v", "legacy"]}]}
{"query": "q3", "relevant": [{"path": "V.md", "section_path": ["V", "A/B testing"]}]}
{"query": "q4", "relevant": [{"path": "V.md"}]}
{"query": "q5", "expected_path_contains": "api-design"}
`
	qs, err := ParseQueries(strings.NewReader(in), "q.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := qs.Resolve(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	want := []span{
		{true, []string{"V", "Legacy", "Adaptations"}, 5, 6},
		{true, []string{"V", "Legacy"}, 3, 6},
		{true, []string{"V", "A/B testing"}, 7, 8},
		{true, nil, 1, 9},
	}
	for i, w := range want {
		g := qs.Queries[i].Relevant[0].span
		if g.resolved != w.resolved || !slices.Equal(g.path, w.path) || g.start != w.start || g.end != w.end {
			t.Errorf("q%d: span %+v, want %+v", i+1, g, w)
		}
	}
}

func TestResolveErrors(t *testing.T) {
	dir := writeVault(t, map[string]string{"V.md": noteV})
	cases := []struct {
		name, line, want string
	}{
		{"no such note", `{"query": "x", "relevant": [{"path": "W.md", "section_path": ["W"]}]}`, `"W.md" is not a note`},
		{"escape", `{"query": "x", "relevant": [{"path": "../V.md"}]}`, "is not a note"},
		{"no such section", `{"query": "x", "relevant": [{"path": "V.md", "section_path": ["V", "Plot"]}]}`, "no such section"},
		{"no path matches", `{"query": "x", "expected_path_contains": "zzz"}`, `containing "zzz"`},
		{"no such excluded note", `{"query": "x", "relevant": [{"path": "V.md"}], "exclude": "nope.md"}`, `"exclude": "nope.md" is not a note of the vault`},
		{"labelled note excluded", `{"query": "x", "relevant": [{"path": "V.md", "section_path": ["V", "Legacy"]}], "exclude": "V.md"}`,
			`"exclude": "V.md" is the note relevant[0] labels`},
		{"path label's only note excluded", `{"query": "x", "expected_path_contains": "V", "exclude": "V.md"}`,
			`"exclude": "V.md" is the only note whose path contains "V" (expected_path_contains)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			qs, err := ParseQueries(strings.NewReader("\n"+c.line), "q.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			err = qs.Resolve(context.Background(), dir)
			if err == nil || !strings.Contains(err.Error(), "q.jsonl:2") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v: want q.jsonl:2 and %q", err, c.want)
			}
		})
	}
}

// A label of a merged query is named by the line it is written on, and
// its place there.
func TestResolveErrorsMerged(t *testing.T) {
	dir := writeVault(t, map[string]string{"V.md": noteV, "X.md": "# X\n\nThe page a link was read from.\n"})
	for _, c := range []struct{ second, want string }{
		{`{"query": "x", "relevant": [{"path": "W.md"}], "exclude": "X.md"}`, `q.jsonl:3: "W.md" is not a note`},
		{`{"query": "x", "relevant": [{"path": "V.md", "section_path": ["V", "Plot"]}], "exclude": "X.md"}`, "q.jsonl:3: "},
		{`{"query": "x", "relevant": [{"path": "V.md"}, {"path": "X.md"}], "exclude": "X.md"}`, `q.jsonl:3: "exclude": "X.md" is the note relevant[1] labels`},
	} {
		in := `{"query": "x", "relevant": [{"path": "V.md"}], "exclude": "X.md"}` + "\n\n" + c.second
		qs, err := ParseQueries(strings.NewReader(in), "q.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		if err := qs.Resolve(context.Background(), dir); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

// A path label that other notes answer too may exclude one of them.
func TestResolveExcludeOneOfPathLabel(t *testing.T) {
	dir := writeVault(t, map[string]string{"V.md": noteV, "V2.md": noteV})
	qs, err := ParseQueries(strings.NewReader(`{"query": "x", "expected_path_contains": "V", "exclude": "V.md"}`), "q.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := qs.Resolve(context.Background(), dir); err != nil {
		t.Error(err)
	}
}

// TestParseQueriesUnknownFields: a field the format does not have is an
// error naming the line and the field, with the field meant where it is
// plain: a misspelt "section_path" would make a section label a note label.
func TestParseQueriesUnknownFields(t *testing.T) {
	cases := []struct {
		name, line string
		want       []string
	}{
		{"extra field", `{"query": "b", "id": 7, "expected_path_contains": "x"}`,
			[]string{`unknown field "id"`, "query, relevant, expected_path_contains, difficulty, exclude"}},
		{"search's name for the section", `{"query": "restore", "relevant": [{"path": "a.md"}, {"path": "b.md", "section": "Restore Drill"}]}`,
			[]string{`unknown field "relevant[1].section"`, `"section_path", a list: ["Restore Drill"] for a heading alone`}},
		{"misspelt relevant", `{"query": "x", "relevent": [{"path": "a.md"}]}`,
			[]string{`unknown field "relevent"`, `did you mean "relevant"?`}},
		{"misspelt section_path", `{"query": "x", "relevant": [{"path": "a.md", "section_pth": ["A"]}]}`,
			[]string{`unknown field "relevant[0].section_pth"`, `did you mean "section_path"?`}},
		{"label field on the query", `{"query": "x", "path": "a.md", "expected_path_contains": "a"}`,
			[]string{`unknown field "path"`, `"relevant"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := `{"query": "a", "expected_path_contains": "x"}` + "\n" + c.line + "\n"
			_, err := ParseQueries(strings.NewReader(in), "q.jsonl")
			if err == nil {
				t.Fatal("want an error")
			}
			for _, w := range append(c.want, "q.jsonl:2") {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q should say %q", err, w)
				}
			}
		})
	}
}
