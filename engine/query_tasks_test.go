package engine

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// Obsidian's task operators are read with their values: a word, a quoted
// phrase or a group; negated, or joining words with OR, they filter
// nothing, as before.
func TestTaskOperatorsRead(t *testing.T) {
	for _, tt := range []struct{ query, rest, tasks, names string }{
		{"task-todo:call", "call", "task-todo:[call]", ""},
		{"plumber task:(call back) soon", "plumber (call back) soon", "task:[call back]", ""},
		{`task-done:"Sent the Invoice" march`, `"Sent the Invoice" march`, "task-done:[sent the invoice]", ""},
		{"TASK-TODO:Rémy", "Rémy", "task-todo:[remy]", ""},
		{"task-todo:(call OR email)", "(call OR email)", "", "task-todo:"},              // either: no one task holds both
		{"-task-todo:call", "", "-task-todo:[call]", ""},                                // negated: no result holds such a task (TestNegatedTasks)
		{"plumber -task-done:(call back) x", "plumber x", "-task-done:[call back]", ""}, // one space where it stood
		{"-task:call plumber", "plumber", "-task:[call]", ""},
		{"Remember the -task:call syntax.", "Remember the -call syntax.", "", "task:"}, // a statement: words
		{"(-task:call)", "()", "-task:[call]", ""},
		{"-task-todo:(call", "-(call", "", "task-todo:"}, // left open: its words, as before
		{"line:(task-todo:call)", "(call)", "task-todo:[call]", "line:"},
		{"task:x task-done:y", "x y", "task:[x] task-done:[y]", ""},
		{"sub-task:x", "sub-task:x", "", ""},
		{"task-todo:(call -boiler)", "(call -boiler)", "task-todo:[call]", ""},            // -boiler is the query's exclusion
		{"task-todo:(call plumber tag:home", "(call plumber tag:home", "", "task-todo:"},  // left open
		{"task-todo:path:daily", "path:daily", "", "task-todo:"},                          // another operator
		{`task-todo:"call OR email"`, `"call OR email"`, "task-todo:[call or email]", ""}, // a quoted OR is text
		{"(task-todo:call) x", "(call) x", "task-todo:[call]", ""},
	} {
		rest, names, tasks := dropWordOperators(tt.query)
		var got []string
		for _, tk := range tasks {
			neg := ""
			if tk.negated {
				neg = "-"
			}
			got = append(got, fmt.Sprintf("%s%s:%v", neg, tk.kind, tk.words))
		}
		if rest != tt.rest || strings.Join(got, " ") != tt.tasks || strings.Join(names, " ") != tt.names {
			t.Errorf("%q: %q %v %q, want %q %q %q", tt.query, rest, got, names, tt.rest, tt.tasks, tt.names)
		}
	}
	if _, _, tasks := dropWordOperators("(task-todo:call) x"); len(tasks) != 1 || tasks[0].written != "task-todo:call" {
		t.Errorf("(task-todo:call): %+v", tasks)
	}
}

// A task's line: a list item with a box, open or done, in a quote or not.
func TestTaskHeldIn(t *testing.T) {
	text := "Calls to make:\n\n- [ ] Call the plumber about the leak\n* [x] Called Rémy back\n> 1. [-] call the bank, dropped\n" +
		"- [ ]call nobody (no space)\nWe should call someone.\n  + [ ] email the landlord\r\n- [ ]\tbuy milk\n" +
		"- [ ] tell the plumber\nabout the water\n\n  and the invoice\n> - [x] close the\n> account\n" +
		"- [x] write to\n  - [ ] my nephew\n- [ ] book the train\n# Paris\n"
	for _, tt := range []struct {
		kind, words string
		held        bool
	}{
		{"task", "call plumber", true},
		{"task-todo", "call plumber", true},
		{"task-done", "call plumber", false},
		{"task-done", "remy", true}, // accents aside
		{"task-done", "bank", true}, // any mark but a space is done
		{"task-todo", "bank", false},
		{"task-todo", "someone", false}, // not a task
		{"task-todo", "nobody", false},  // no space after the box
		{"task-todo", "email landlord", true},
		{"task", "plumb", true},             // the start of a word
		{"task", "plumbers", false},         // a longer form than the task's
		{"task", "plumber landlord", false}, // one task must hold both
		{"task-todo", "milk", true},         // a tab after the box
		{"task-todo", "call leak", true},    // its words on the line that continues it
		{"task-todo", "plumber water", true},
		{"task-todo", "invoice", false}, // the line after a blank one is not its text
		{"task-done", "account", true},  // in a quote, under the same markers
		{"task-done", "nephew", false},  // a sub-item is a task of its own
		{"task", "paris", false},        // nor a heading, nor a task's sub-item
	} {
		tk := task{kind: tt.kind, words: strings.Fields(tt.words)}
		if got := tk.heldIn(text); got != tt.held {
			t.Errorf("%s:%s = %v, want %v", tt.kind, tt.words, got, tt.held)
		}
	}
}

// Every result of a search with a task operator holds such a task, in
// every mode, however deep the keyword list holds it; with a quoted
// phrase too, a result holds both; where no passage holds one, none comes
// and the notice says why.
func TestTaskOperators(t *testing.T) {
	vault := t.TempDir()
	// More passages than a search's first round of candidates mention
	// calls and the plumber, in prose, and rank above the tasks.
	for i := range 3 * firstRound / 2 {
		write(t, vault, fmt.Sprintf("calls/%02d.md", i), fmt.Sprintf("# Calls %d\n\nCall, call and call again: the plumber call log.\n", i))
	}
	write(t, vault, "daily/2024-07-01.md", "# Monday\n\n## Tasks\n\n- [ ] call the plumber about the leak in the long kitchen pipe under the old sink\n- [x] email the landlord\n\n## Notes\n\nA quiet day.\n")
	write(t, vault, "daily/2024-07-02.md", "# Tuesday\n\n- [x] call the plumber back\n- [ ] pay the plumber\n")
	write(t, vault, "daily/2024-07-03.md", "# Wednesday\n\n- [ ]\tcall the boiler engineer\n- [x] studied generalization\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	for _, tt := range []struct {
		query string
		mode  mdsearch.Mode
		want  string
	}{
		{"task-todo:(call plumber)", mdsearch.ModeKeyword, "daily/2024-07-01.md > Monday"},
		{"task-todo:(call plumber)", mdsearch.ModeHybrid, "daily/2024-07-01.md > Monday"},
		{"task-todo:(call plumber)", mdsearch.ModeSemantic, "daily/2024-07-01.md > Monday"},
		{"task-done:call plumber", mdsearch.ModeKeyword, "daily/2024-07-02.md > Tuesday"},
		{"task:plumber", mdsearch.ModeKeyword, "daily/2024-07-02.md > Tuesday|daily/2024-07-01.md > Monday"},
		{`task:plumber "pay the plumber"`, mdsearch.ModeKeyword, "daily/2024-07-02.md > Tuesday"},
		{"task-todo:landlord", mdsearch.ModeKeyword, ""},
		{"task-todo:(call -boiler) plumber", mdsearch.ModeKeyword, "daily/2024-07-01.md > Monday"},
		{"task-todo:boiler", mdsearch.ModeKeyword, "daily/2024-07-03.md > Wednesday"}, // a tab after the box
		{"task-todo:plumbr", mdsearch.ModeHybrid, ""},                                 // no respelling drops the task
	} {
		resp := search(t, e, mdsearch.SearchRequest{Query: tt.query, Mode: tt.mode, N: 10})
		got := make([]string, 0, len(resp.Results))
		for _, r := range resp.Results {
			got = append(got, r.Path+" > "+r.Section)
		}
		// Ranked and scored among the passages holding such a task, as
		// under a filter, not beside the prose (keyword mode's scores are
		// the shipped model's with the test embedder).
		if tt.mode == mdsearch.ModeKeyword && len(resp.Results) > 0 && resp.Results[0].Score < Unlikely {
			t.Errorf("%s: best scores %.3f", tt.query, resp.Results[0].Score)
		}
		if strings.Join(got, "|") != tt.want {
			t.Errorf("%s %s: %q, want %q (%s)", tt.mode, tt.query, got, tt.want, resp.Notice)
		}
		// Where none holds such a task, the notice says so, and only that.
		if want := `no passage holds a task that "` + tt.query + `" asks for`; tt.want == "" && (resp.Notice != want || resp.Suggestion != "") {
			t.Errorf("%s: notice %q, suggestion %q", tt.query, resp.Notice, resp.Suggestion)
		}
		if strings.Contains(resp.Notice, "filter nothing") || strings.Contains(resp.Notice, "filters nothing") {
			t.Errorf("%s: notice %q", tt.query, resp.Notice)
		}
	}
}

// BenchmarkTasks times warm keyword and hybrid searches of a vault of
// 3,000 daily notes, each with tasks and prose, with a task operator
// (task-todo:(call plumber)) beside the same words alone, query by query
// in turn on one engine: what reading the passages with boxes and their
// task lines adds. The vault is made here.
func BenchmarkTasks(b *testing.B) {
	vault := b.TempDir()
	verbs := []string{"call", "email", "pay", "visit", "fix", "order"}
	whom := []string{"plumber", "landlord", "bank", "dentist", "garage", "school"}
	for i := range 3000 {
		v, w := verbs[i%6], whom[(i/6)%6]
		box := " "
		if i%3 == 0 {
			box = "x"
		}
		write(b, vault, fmt.Sprintf("daily/%04d.md", i), fmt.Sprintf("# Day %d\n\n## Tasks\n\n- [%s] %s the %s\n- [ ] water the plants\n\n## Notes\n\nThe %s said to %s again next week.\n",
			i, box, v, w, whom[(i/36)%6], verbs[(i/5)%6]))
	}
	e := openEngine(b, filepath.Join(b.TempDir(), "index.db"), newBow("bow"))
	index(b, e, vault, "v")
	queries := []string{"call plumber", "pay bank", "email school", "fix garage"}
	for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeHybrid} {
		ask := func(tasked bool) func(string) error {
			return func(q string) error {
				if tasked {
					q = "task-todo:(" + q + ")"
				}
				_, err := e.Search(bg, mdsearch.SearchRequest{Query: q, Mode: mode})
				return err
			}
		}
		b.Run(string(mode), func(b *testing.B) { benchPair(b, queries, "words", ask(false), "task", ask(true)) })
		// Negated: the same words, less the passages with such an open
		// task, whose words are not searched ("plumber -task-todo:call").
		negated := func(q string) error {
			verb, who, _ := strings.Cut(q, " ")
			_, err := e.Search(bg, mdsearch.SearchRequest{Query: who + " -task-todo:" + verb, Mode: mode})
			return err
		}
		alone := func(q string) error {
			_, who, _ := strings.Cut(q, " ")
			_, err := e.Search(bg, mdsearch.SearchRequest{Query: who, Mode: mode})
			return err
		}
		b.Run(string(mode)+"_negated", func(b *testing.B) { benchPair(b, queries, "words", alone, "negated", negated) })
	}
	// Every open task, a list: beside a list of the same folder's notes,
	// the first page and a late one (the passages are read, and checked,
	// to the page).
	for _, offset := range []int{0, 2000} {
		list := func(req mdsearch.SearchRequest) func(string) error {
			return func(string) error {
				req.Offset = offset
				_, err := e.Search(bg, req)
				return err
			}
		}
		b.Run(fmt.Sprintf("list_offset_%d", offset), func(b *testing.B) {
			benchPair(b, []string{""}, "notes", list(mdsearch.SearchRequest{PathPrefix: "daily/"}), "tasks", list(mdsearch.SearchRequest{Query: "task-todo:"}))
		})
	}
}

// A task operator given nothing (task-todo:, task-done:"") asks for any
// task of its kind: alone, it lists the passages holding one by path and
// place, each to its last such task; with words, they are searched among
// those passages.
func TestTaskList(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "daily/2024-07-01.md", "# Monday\n\n## Tasks\n\n- [ ] call the plumber\n- [x] email the landlord\n\n## Log\n\nThe plumber came late.\n\nA quiet day.\n")
	write(t, vault, "daily/2024-07-02.md", "# Tuesday\n\n- [x] paid the plumber\n\nNothing else.\n")
	write(t, vault, "projects/garden.md", "# Garden\n\nThe plumber's pipe runs under the beds.\n\n## Next\n\n> - [ ] dig the bed\n")
	write(t, vault, "notes.md", "# Notes\n\nA [x] in brackets and - [1] a citation are no tasks. The plumber.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	for _, tt := range []struct {
		req    mdsearch.SearchRequest
		want   string // results, path > section, by |
		notice string
	}{
		{mdsearch.SearchRequest{Query: "task-todo:"}, "daily/2024-07-01.md > Monday|projects/garden.md > Garden", `2 passages match "task-todo:", listed by path, each to its last such task`},
		{mdsearch.SearchRequest{Query: `task-done:""`}, "daily/2024-07-01.md > Monday|daily/2024-07-02.md > Tuesday", `2 passages match`},
		{mdsearch.SearchRequest{Query: "task:()"}, "daily/2024-07-01.md > Monday|daily/2024-07-02.md > Tuesday|projects/garden.md > Garden", `3 passages match`},
		{mdsearch.SearchRequest{Query: "task:", N: 1, Offset: 1}, "daily/2024-07-02.md > Tuesday", "passage 2 by path, each to its last such task, unranked; offset 2 gives the next"},
		{mdsearch.SearchRequest{Query: "task-todo:", PathPrefix: "projects/"}, "projects/garden.md > Garden", `1 passage matches "task-todo:", path prefix "projects/"`},
		{mdsearch.SearchRequest{Query: "task-todo: task-done:"}, "daily/2024-07-01.md > Monday", "1 passage matches"},
		{mdsearch.SearchRequest{Query: "task-done:", PathPrefix: "projects/"}, "", `no passage matches "task-done:", path prefix "projects/"`},
		{mdsearch.SearchRequest{Query: "task-todo: plumber", Mode: mdsearch.ModeKeyword}, "daily/2024-07-01.md > Monday|projects/garden.md > Garden", ""},
		{mdsearch.SearchRequest{Query: "task-done: plumber", Mode: mdsearch.ModeHybrid}, "daily/2024-07-01.md > Monday|daily/2024-07-02.md > Tuesday", ""},
	} {
		resp, err := e.Search(bg, tt.req)
		if err != nil {
			t.Fatalf("%+v: %v", tt.req, err)
		}
		got := make([]string, 0, len(resp.Results))
		for _, r := range resp.Results {
			got = append(got, r.Path+" > "+r.Section)
		}
		if tt.req.Mode != "" { // ranked: which, not in what order
			slices.Sort(got)
		}
		if strings.Join(got, "|") != tt.want || !strings.Contains(resp.Notice, tt.notice) {
			t.Errorf("%q: %q, notice %q; want %q, %q", tt.req.Query, got, resp.Notice, tt.want, tt.notice)
		}
		if resp.Listing != (tt.req.Mode == "") {
			t.Errorf("%q: listing %v", tt.req.Query, resp.Listing)
		}
	}
	// Each is shown to its last such task (a done one after it is not),
	// the rest to read.
	resp := search(t, e, mdsearch.SearchRequest{Query: "task-todo:"})
	if r := resp.Results[0]; !strings.HasSuffix(r.Text, "- [ ] call the plumber") || r.EndLine != 5 || r.RestFrom != 6 || r.RestTo != 12 ||
		!strings.Contains(r.ReadHint, "to its last such task") || len(r.Sections) != 2 {
		t.Errorf("first: %q, lines %d-%d, rest %d-%d, hint %q, sections %q", r.Text, r.StartLine, r.EndLine, r.RestFrom, r.RestTo, r.ReadHint, r.Sections)
	}
	if r := resp.Results[1]; r.Truncated || !strings.HasSuffix(r.Text, "> - [ ] dig the bed") {
		t.Errorf("second: truncated %v, %q", r.Truncated, r.Text)
	}
}

// A task list shows each passage to the end of its last task's list item
// (sub-items, continuation lines); a task in fenced code is none; an
// exclusion leaves out passages, not notes; task operators in
// parentheses list too.
func TestTaskListItems(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "trip.md", "# Trip\n\n- [ ] Plan the trip\n    - book flights\n    - find a hotel\n  and ask about the ferry\n\nA paragraph after the list.\n\nAnother one.\n")
	write(t, vault, "fenced.md", "# Fenced\n\n```md\n- [ ] fenced only\n```\n\nafter\n")
	write(t, vault, "long.md", "# Long\n\n## One\n\n- [ ] alpha task\n\n"+strings.Repeat("Filler words of the long note. ", 120)+"\n\n## Two\n\n- [ ] beta task about the zebra\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	resp := search(t, e, mdsearch.SearchRequest{Query: "task-todo:"})
	var got []string
	for _, r := range resp.Results {
		got = append(got, r.Path+" > "+r.Section)
	}
	if strings.Join(got, "|") != "long.md > Long|long.md > Two|trip.md > Trip" {
		t.Fatalf("task-todo: %q (%s)", got, resp.Notice)
	}
	if r := resp.Results[2]; !strings.HasSuffix(r.Text, "  and ask about the ferry") || r.EndLine != 6 || r.RestFrom != 7 {
		t.Errorf("trip: %q, lines %d-%d, rest from %d", r.Text, r.StartLine, r.EndLine, r.RestFrom)
	}
	for _, tt := range []struct{ query, want string }{
		{"task-todo: -zebra", "long.md > Long|trip.md > Trip"}, // the passage, not the note
		{"(task-todo:)", "long.md > Long|long.md > Two|trip.md > Trip"},
		{`(task-done:"")`, ""},
	} {
		resp := search(t, e, mdsearch.SearchRequest{Query: tt.query})
		var got []string
		for _, r := range resp.Results {
			got = append(got, r.Path+" > "+r.Section)
		}
		if strings.Join(got, "|") != tt.want || !resp.Listing {
			t.Errorf("%s: %q, listing %v (%s)", tt.query, got, resp.Listing, resp.Notice)
		}
	}
	// A budget's notice counts the passages it leaves out.
	budget := search(t, e, mdsearch.SearchRequest{Query: "task-todo:", MaxTokens: 40})
	if !strings.Contains(budget.Notice, "more passages did not fit max_tokens 40") {
		t.Errorf("budget: %q", budget.Notice)
	}
}

// opensBlock reads a line as the pattern it replaced did: a list item
// (bullet, or up to nine digits and "." or ")"), a heading, a quote, a
// fence, a table row.
func TestOpensBlock(t *testing.T) {
	pattern := regexp.MustCompile(`^\s*(?:[-*+](?:\s|$)|\d{1,9}[.)](?:\s|$)|#|>|` + "```" + `|~~~|\|)`)
	for _, line := range []string{"", " ", "- x", "-x", "-", "  * a", "*bold*", "+ y", "+1", "1. one", "1.5 pounds",
		"123456789) x", "1234567890. x", "12)", "3.", "#tag", "## H", "> q", "```go", "``code``", "~~~", "~~no~~",
		"| a |", "plumber about", "\t- tab", "9\t", "1)\tx", "-\t", "x - y", "\v- v", "2024-01-01"} {
		if got, want := opensBlock(line), pattern.MatchString(line); got != want {
			t.Errorf("opensBlock(%q) = %v, want %v", line, got, want)
		}
	}
}

// A task's words are held whatever follows it (a line more only adds to
// the text of the task it continues), "task:" holds where an open or a
// done one does, and opensBlock reads a line as the pattern it replaced.
func FuzzTaskHeldIn(f *testing.F) {
	f.Add("- [ ] call the\n  plumber about the leak\n", "plumber", "more words")
	f.Add("> - [x] close the\n> account\n", "account", "> - [ ] next")
	f.Add("```\n- [ ] in code\n```\n- [x] out of it\nwrapped", "wrapped", "```")
	f.Add("1. [/] half done\n   still going", "going", "# heading")
	pattern := regexp.MustCompile(`^\s*(?:[-*+](?:\s|$)|\d{1,9}[.)](?:\s|$)|#|>|` + "```" + `|~~~|\|)`)
	f.Fuzz(func(t *testing.T, text, word, more string) {
		words := writtenWords(word)
		if len(words) == 0 {
			return
		}
		held := map[string]bool{}
		for _, kind := range []string{"task", "task-todo", "task-done"} {
			tk := task{kind: kind, words: words}
			held[kind] = tk.heldIn(text)
			if held[kind] && !tk.heldIn(text+"\n"+more) {
				t.Errorf("%s:%q held in %q, not once %q follows", kind, word, text, more)
			}
		}
		if held["task"] != (held["task-todo"] || held["task-done"]) {
			t.Errorf("%q in %q: task %v, todo %v, done %v", word, text, held["task"], held["task-todo"], held["task-done"])
		}
		for line := range strings.SplitSeq(text, "\n") {
			if got, want := opensBlock(line), pattern.MatchString(line); got != want {
				t.Errorf("opensBlock(%q) = %v, want %v", line, got, want)
			}
		}
	})
}

// A negated task operator leaves out the passages holding such a task
// and keeps those that say its words in prose; alone, or beside other
// operators, it lists the notes holding none; beside a task operator
// given nothing, the passages of that list without such a task.
func TestNegatedTasks(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "errands.md", "# Errands\n\n- [ ] call the plumber about the leak\n")
	write(t, vault, "plumbing.md", "# Plumbing\n\nWe should call the plumber about the boiler.\n")
	write(t, vault, "done.md", "# Done\n\n- [x] call the plumber\n  back about the leak\n")
	write(t, vault, "garden.md", "# Garden\n\n- [ ] water the tomatoes\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	for _, tt := range []struct {
		query string
		mode  mdsearch.Mode
		want  string // paths, sorted
		list  bool
	}{
		{"plumber -task-todo:call", mdsearch.ModeKeyword, "done.md|plumbing.md", false},
		{"plumber -task-todo:call", mdsearch.ModeHybrid, "done.md|garden.md|plumbing.md", false}, // every note but the one with such a task
		{"plumber -task:call", mdsearch.ModeKeyword, "plumbing.md", false},
		{"plumber -task-done:back", mdsearch.ModeKeyword, "errands.md|plumbing.md", false}, // its wrapped line
		{"plumber -task-todo:", mdsearch.ModeKeyword, "done.md|plumbing.md", false},        // any open task
		{"plumber -call", mdsearch.ModeKeyword, "", false},                                 // the word itself, as before
		{"-task-todo:", "", "done.md|plumbing.md", true},                                   // the notes with no open task
		{"-task:plumber", "", "garden.md|plumbing.md", true},
		{"task-todo: -task-todo:plumber", "", "garden.md", true}, // the open tasks' passages, less the plumber's
	} {
		resp := search(t, e, mdsearch.SearchRequest{Query: tt.query, Mode: tt.mode, N: 10})
		var got []string
		for _, r := range resp.Results {
			got = append(got, r.Path)
		}
		slices.Sort(got)
		if strings.Join(got, "|") != tt.want || resp.Listing != tt.list {
			t.Errorf("%s %q: %q (listing %v), want %q (%v); notice %q", tt.mode, tt.query, got, resp.Listing, tt.want, tt.list, resp.Notice)
		}
	}
}
