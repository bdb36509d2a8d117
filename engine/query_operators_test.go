package engine

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// ungroup takes Obsidian's grouping off operators alone: a ")" only where
// a "(" was taken, a negated group of ORs as each operator negated, and
// words, quoted phrases and other negated groups as written.
func TestUngroup(t *testing.T) {
	for _, tt := range []struct {
		query, want string
		grouped     bool
	}{
		{"tag:meeting (path:2026-11-30 OR path:2026-12)", "tag:meeting path:2026-11-30 path:2026-12", true},
		{"(tag:x) budget", "tag:x budget", true},
		{"file:report(1) budget", "file:report(1) budget", false},
		{"(file:report(1)) budget", "file:report(1) budget", true},
		{"-(tag:meeting OR tag:home) budget", "-tag:meeting -tag:home budget", true},
		{"-(tag:meeting tag:home) budget", "-(tag:meeting tag:home) budget", true},
		{`(tag:daily OR path:"Daily notes")`, `tag:daily path:"Daily notes"`, true},
		{"cats OR dogs (see below)", "cats OR dogs (see below)", false},
		{"tag:x -(see below)", "tag:x -(see below)", false},
		{`"see (tag:x) here" tag:y`, `"see (tag:x) here" tag:y`, false},
	} {
		got, grouped := ungroup(strings.Fields(tt.query))
		if strings.Join(got, " ") != tt.want || grouped != tt.grouped {
			t.Errorf("ungroup(%q) = %q, %v; want %q, %v", tt.query, strings.Join(got, " "), grouped, tt.want, tt.grouped)
		}
	}
	rest, ops := takeOperators(`-(tag:meeting OR tag:home) (tag:daily OR path:"Daily notes") budget`, nil)
	if rest != "budget" || strings.Join(ops.notTags, ",") != "meeting,home" || strings.Join(ops.tags, ",") != "daily" ||
		strings.Join(ops.paths, ",") != "Daily notes" {
		t.Errorf("rest %q, ops %+v", rest, ops)
	}
}

// A query naming a tag as a note writes it (#meeting) is searched as
// words, and the notice says how to keep the tag's notes; a tag no note
// has, or a number, is said nothing of.
func TestHashtagNotice(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "a.md", "# A\n\nWe met about the budget. #meeting #project/atlas\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for q, want := range map[string]string{
		"#meeting budget":              "#meeting is searched as words; tag:meeting keeps only the notes tagged so",
		"budget #project/atlas #nope":  "#project/atlas is searched as words; tag:project/atlas keeps",
		"#meeting #project/atlas":      "#meeting, #project/atlas are searched as words; tag:meeting or tag:project/atlas keeps",
		"tag:meeting #meeting budget":  "",
		"path:elsewhere #meeting work": "",
		"budget #nope":                 "",
		"issue #42 budget":             "",
	} {
		resp := search(t, e, mdsearch.SearchRequest{Query: q})
		if got := strings.Contains(resp.Notice, "searched as words"); got != (want != "") || !strings.Contains(resp.Notice, want) {
			t.Errorf("%q: notice %q, want %q", q, resp.Notice, want)
		}
	}
}

// A quote mark that opens a phrase nothing closes is named: its words
// were searched one by one. An operator's open quote runs to the end of
// the query, as in Obsidian, so is not one.
func TestOpenQuoteNotice(t *testing.T) {
	for _, tt := range []struct{ query, want string }{
		{`"private by default`, `the quote mark before "private" opens a phrase nothing closes`},
		{`fields "private by default`, `the quote mark before "private"`},
		{"\u201cprivate by default", `the quote mark before "private"`},
		{`"a phrase" and "another`, `the quote mark before "another"`},
		{`"a phrase" and "another"`, ""},
		{`ends with a quote "`, ""},
		{`a 12" pizza`, ""}, // an inch mark
		{`don"t panic`, ""}, // a typo inside a word
		{`(“private by`, `the quote mark before "private"`},
		{`no quotes`, ""},
	} {
		if got := openQuoteNotice(tt.query); !strings.HasPrefix(got, tt.want) || (tt.want == "") != (got == "") {
			t.Errorf("%q: %q, want %q", tt.query, got, tt.want)
		}
	}
	vault := t.TempDir()
	write(t, vault, "Daily notes/a.md", "# A\n\nPrivate by default, the fields are.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	if resp := search(t, e, mdsearch.SearchRequest{Query: `fields path:"Daily notes`, Mode: mdsearch.ModeKeyword}); strings.Contains(resp.Notice, "quote mark") || len(resp.Results) != 1 {
		t.Errorf("an operator's open quote: %d results, notice %q", len(resp.Results), resp.Notice)
	}
	if resp := search(t, e, mdsearch.SearchRequest{Query: `"private by default`, Mode: mdsearch.ModeKeyword}); !strings.Contains(resp.Notice, `the quote mark before "private"`) {
		t.Errorf("an open phrase: notice %q", resp.Notice)
	}
}

// Obsidian's operators that filter nothing here lose their names, and
// their words are searched; the notice names them once each.
func TestWordOperators(t *testing.T) {
	for _, tt := range []struct{ query, want, names string }{
		{"line:(pin tab)", "(pin tab)", "line:"},
		{"Section:(scoped tasks) content:drop LINE:x", "(scoped tasks) drop x", "section: content: line:"},
		{"-block:^abc task-todo:ship", "-^abc ship", "block:"}, // a task operator filters (TestTaskOperators)
		{"match-case:Rust ignore-case:go", "Rust go", "match-case: ignore-case:"},
		{"the content: of the note", "the content: of the note", ""}, // a word with a colon, not an operator
		{"tag:x path:y section", "tag:x path:y section", ""},
		{"mysection:x", "mysection:x", ""},
		{`path:"my section:x" "the section:intro part"`, `path:"my section:x" "the section:intro part"`, ""}, // quoted: as written
		{"multi-line:text sub-task:x", "multi-line:text sub-task:x", ""},                                     // inside a word
		{"-line:x", "-x", "line:"},
		{"line:(section:x y)", "(x y)", "line: section:"}, // nested
		{"section: x", "section: x", ""},                  // given nothing: words
		{"task-todo: plumber", " plumber", ""},            // given nothing: any open task (TestTaskList)
		{`task-done:"" task-todo:() x`, "  x", ""},
		{"task: tag:x", " tag:x", ""},          // task: given nothing, among operators alone
		{"plumber task:", "plumber task:", ""}, // prose: task: given nothing, among words
		{"My task: write it", "My task: write it", ""},
		{"Task-todo: plumber", "Task-todo: plumber", ""}, // an operator is written in lower case
		{"-task-todo: plumber", "plumber", ""},           // negated, given nothing: no open task (TestNegatedTasks)
		{"(task-todo:)", "()", ""},
		{"task::x", "task::x", ""},
	} {
		got, names, _ := dropWordOperators(tt.query)
		if got != tt.want || strings.Join(names, " ") != tt.names {
			t.Errorf("%q: %q %q, want %q %q", tt.query, got, names, tt.want, tt.names)
		}
	}
	vault := t.TempDir()
	write(t, vault, "a.md", "# Tabs\n\nPin a tab to keep it open.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	resp := search(t, e, mdsearch.SearchRequest{Query: "line:(pin tab) section:tabs", Mode: mdsearch.ModeKeyword})
	if len(resp.Results) != 1 || !strings.Contains(resp.Notice, "Obsidian's line: and section: operators filter nothing here") {
		t.Errorf("%d results, notice %q", len(resp.Results), resp.Notice)
	}
}

// FuzzDropWordOperators: whatever is typed, taking the word operators'
// names out never panics, never lengthens the query, and leaves a query
// without a colon as it is.
func FuzzDropWordOperators(f *testing.F) {
	for _, s := range []string{"line:x", "-content:plugin", "a (-section:x)", "line:(section:x) -task:y.", "-block:^abc", "task-todo:(call (back)", `task:"a b`, "task-done:(", "task-todo: x", `task:""`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		out, _, tasks := dropWordOperators(q)
		if len(out) > len(q) || !strings.Contains(q, ":") && out != q {
			t.Fatalf("%q: %q", q, out)
		}
		for _, tk := range tasks { // a task operator read holds words or nothing at all, and its kind is one of three
			nothing := slices.Contains([]string{"", `""`, "()"}, strings.TrimPrefix(tk.written, tk.kind+":"))
			if len(tk.words) == 0 != nothing || !slices.Contains([]string{"task", "task-todo", "task-done"}, tk.kind) || !strings.HasPrefix(tk.written, tk.kind+":") {
				t.Fatalf("%q: task %+v", q, tk)
			}
		}
	})
}
