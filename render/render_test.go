package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

func TestHeader(t *testing.T) {
	tests := []struct {
		name string
		r    mdsearch.Result
		want string
	}{
		{"full section path", mdsearch.Result{Path: "recipes/bread.md", Section: "Feeding", SectionPath: []string{"Bread", "Starter", "Feeding"}, Score: 0.419},
			"1. **recipes/bread.md** > Bread > Starter > Feeding (41.9%)"},
		{"section without a path", mdsearch.Result{Path: "recipes/bread.md", Section: "Starter Maintenance", Score: 0.845}, "1. **recipes/bread.md** > Starter Maintenance (84.5%)"},
		{"preamble", mdsearch.Result{Path: "Inbox.md", SectionPath: []string{}, Score: 1}, "1. **Inbox.md** (100.0%)"},
		{"preamble running on", mdsearch.Result{Path: "t.md", SectionPath: []string{}, Score: 1, Sections: [][]string{{}, {"Using Traits"}}},
			"1. **t.md** > (intro) + Using Traits (100.0%)"},
		{"merged stubs", mdsearch.Result{Path: "a.md", SectionPath: []string{"A", "Intro"}, Score: 0.5,
			Sections: [][]string{{"A", "Intro"}, {"A", "Setup"}, {"A", "Setup", "Linux"}}},
			"1. **a.md** > A > Intro + Setup + Linux (50.0%)"},
		{"empty heading", mdsearch.Result{Path: "r.md", SectionPath: []string{""}, Score: 0.5, Sections: [][]string{{""}, {"", "IAL"}, {"", "IAL", ""}}},
			"1. **r.md** > (untitled) + IAL + (untitled) (50.0%)"},
		{"merged, own path again", mdsearch.Result{Path: "a.md", SectionPath: []string{"A"}, ReadSection: "#a", Score: 0.5,
			Sections: [][]string{{"A"}, {"A", "x"}, {"A"}}, ReadSections: []string{"#a", "", "#a-1"}}, "1. **a.md** > A + x + A (50.0%)"},
		{"raw heading text", mdsearch.Result{Path: "x.md", Section: "<script>", SectionPath: []string{"<script>"}, Score: 0.0004}, "1. **x.md** > <script> (0.0%)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Header(1, tt.r); got != tt.want {
				t.Errorf("Header = %q, want %q", got, tt.want)
			}
			// Place is the header without rank, bold and score.
			place := strings.Replace(strings.TrimPrefix(tt.want, "1. **"), "**", "", 1)
			place = place[:strings.LastIndex(place, " (")]
			if got := Place(tt.r); got != place {
				t.Errorf("Place = %q, want %q", got, place)
			}
		})
	}
}

func TestPrefix(t *testing.T) {
	tests := []struct {
		name string
		r    mdsearch.Result
		want string
	}{
		{"title and path", mdsearch.Result{Title: "Sourdough", SectionPath: []string{"Starter", "Feeding"}}, "[Sourdough > Starter > Feeding] "},
		{"H1 repeating the title", mdsearch.Result{Title: "Sourdough", SectionPath: []string{"sourdough", "Baking"}}, "[Sourdough > Baking] "},
		{"title only", mdsearch.Result{Title: "Inbox"}, "[Inbox] "},
		{"no title", mdsearch.Result{SectionPath: []string{"A"}}, "[A] "},
		{"nothing", mdsearch.Result{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Prefix(tt.r); got != tt.want {
				t.Errorf("Prefix = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFooter(t *testing.T) {
	base := mdsearch.Result{Path: "a.md", ChunkIndex: 2, TotalChunks: 12, StartLine: 40, EndLine: 58, PageWordCount: 4188}
	with := func(f func(*mdsearch.Result)) mdsearch.Result { r := base; f(&r); return r }
	tests := []struct {
		name string
		r    mdsearch.Result
		want string
	}{
		{"one passage", base, "chunk 3/12 · lines 40–58 · page 4188 words"},
		{"merged neighbours", with(func(r *mdsearch.Result) { r.ChunkEnd = 4 }), "chunks 3–5/12 · lines 40–58 · page 4188 words"},
		{"its sections go on", with(func(r *mdsearch.Result) { r.SectionEnd = 75 }), "chunk 3/12 · lines 40–58 · section continues to line 75 · page 4188 words"},
		{"truncated", with(func(r *mdsearch.Result) {
			r.EndLine, r.Truncated, r.ReadHint = 45, true, `cut to fit the token budget, 13 more lines: read a.md, section "A/B"`
		}), `chunk 3/12 · lines 40–45 · page 4188 words · cut to fit the token budget, 13 more lines: read a.md, section "A/B"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Footer(tt.r); got != tt.want {
				t.Errorf("Footer = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestResults(t *testing.T) {
	resp := &mdsearch.SearchResponse{Query: "starter", Notice: "semantic search unavailable", Results: []mdsearch.Result{
		{Path: "a.md", Section: "B", SectionPath: []string{"A", "B"}, Text: "one\ntwo\nthree", ChunkIndex: 2, TotalChunks: 12,
			StartLine: 10, EndLine: 12, PageWordCount: 4188, Score: 0.5},
		{Path: "c.md", Text: "  solo  ", ChunkIndex: 0, TotalChunks: 1, StartLine: 1, EndLine: 1, PageWordCount: 3, Score: 0.25},
		{Path: "d.md", Section: "x", SectionPath: []string{"API", "x"}, Sections: [][]string{{"API", "x"}, {"API", "x.y"}},
			Text: "merged", ChunkIndex: 0, TotalChunks: 1, StartLine: 1, EndLine: 9, PageWordCount: 20, Score: 0.2},
	}}
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"agent", Options{SectionPaths: true}, "Note: semantic search unavailable\n\n" +
			"1. **a.md** > A > B (50.0%)\none\ntwo\nthree\nchunk 3/12 · lines 10–12 · page 4188 words · section \"A/B\"\n\n" +
			"2. **c.md** (25.0%)\nsolo\nchunk 1/1 · line 1 · page 3 words\n\n" +
			"3. **d.md** > API > x + x.y (20.0%)\nmerged\nchunk 1/1 · lines 1–9 · page 20 words · sections \"API/x\", \"API/x.y\"\n"},
		{"plain", Options{}, "Note: semantic search unavailable\n\n" +
			"1. **a.md** > A > B (50.0%)\none\ntwo\nthree\nchunk 3/12 · lines 10–12 · page 4188 words\n\n" +
			"2. **c.md** (25.0%)\nsolo\nchunk 1/1 · line 1 · page 3 words\n\n" +
			"3. **d.md** > API > x + x.y (20.0%)\nmerged\nchunk 1/1 · lines 1–9 · page 20 words\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := Results(&b, resp, tt.opts); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
}

func TestTerminal(t *testing.T) {
	long := strings.Repeat("y", 60)
	resp := &mdsearch.SearchResponse{Query: "q", Results: []mdsearch.Result{
		{Path: "a.md", Section: "B", SectionPath: []string{"A", "B"}, Text: "## B\n\nfirst line\nsecond line  \n" + long,
			ChunkIndex: 1, ChunkEnd: 2, TotalChunks: 4, StartLine: 5, EndLine: 9, PageWordCount: 300, Score: 0.6},
	}}
	tests := []struct {
		name         string
		width, lines int
		want         string
	}{
		{"whole passage", 40, 0, "1. **a.md** > A > B (60.0%)\n   ## B\n\n   first line\n   second line\n   " + long + "\n" +
			"   — chunks 2–3/4 · lines 5–9 · page 300 words\n"},
		{"brief", 40, 2, "1. **a.md** > A > B (60.0%)\n   ## B\n   first line…\n" +
			"   — chunks 2–3/4 · lines 5–9 · page 300 words\n"},
		{"brief, lines cut to the width", 40, 4, "1. **a.md** > A > B (60.0%)\n   ## B\n   first line\n   second line\n   " +
			strings.Repeat("y", 36) + "…\n   — chunks 2–3/4 · lines 5–9 · page 300 words\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := Terminal(&b, resp, tt.width, tt.lines); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got\n%q\nwant\n%q", b.String(), tt.want)
			}
		})
	}
	// A section read by its "#id" alone (a repeated heading) is named so;
	// the header's path would read another.
	dup := mdsearch.Result{Path: "d.md", SectionPath: []string{"Dup"}, ReadSection: "#dup", Sections: [][]string{{"Dup"}, {"Dup"}},
		ReadSections: []string{"#dup", "#dup-1"}, Text: "x", TotalChunks: 1, StartLine: 1, EndLine: 7, PageWordCount: 8, Score: 0.9}
	var b strings.Builder
	if err := Terminal(&b, &mdsearch.SearchResponse{Query: "q", Results: []mdsearch.Result{dup}}, 80, 0); err != nil {
		t.Fatal(err)
	}
	if want := "   — chunk 1/1 · lines 1–7 · page 8 words · sections \"#dup\", \"#dup-1\"\n"; !strings.HasSuffix(b.String(), want) {
		t.Errorf("repeated headings: %q, want it to end %q", b.String(), want)
	}
	joined := resp.Results[0]
	joined.Part, joined.Parts, joined.PartEnd = 2, 5, 3
	if got, want := Footer(joined), "chunks 2–3/4 · parts 2–3/5 · lines 5–9 · page 300 words"; got != want {
		t.Errorf("joined parts: footer %q, want %q", got, want)
	}
	for _, tc := range []struct{ query, want string }{
		{"zzz", "No results for \"zzz\".\n"},
		{strings.Repeat("pasted error log ", 100), "No results.\n"}, // a long query is not quoted back
	} {
		var b strings.Builder
		_ = Terminal(&b, &mdsearch.SearchResponse{Query: tc.query}, 80, 0)
		if got := b.String(); got != tc.want {
			t.Errorf("no results: %q, want %q", got, tc.want)
		}
	}
}

// Results name their collection when several were searched, or come
// from several; from one, none do.
func TestCollectionsNamed(t *testing.T) {
	r := mdsearch.Result{Path: "Zebra.md", Text: "z", ChunkIndex: 0, TotalChunks: 1, StartLine: 1, EndLine: 1, PageWordCount: 1, Score: 0.5}
	a, b := r, r
	a.Collection, b.Collection = "sv", "sv2"
	for _, tt := range []struct {
		name    string
		results []mdsearch.Result
		want    []string
	}{
		{"two collections", []mdsearch.Result{a, b}, []string{"page 1 word · collection sv\n", "page 1 word · collection sv2\n"}},
		{"one collection", []mdsearch.Result{a, a}, nil},
		{"one result of two collections searched", []mdsearch.Result{a}, []string{"page 1 word · collection sv\n"}},
	} {
		resp := &mdsearch.SearchResponse{Query: "zebra", Results: tt.results}
		if len(tt.results) == 1 {
			resp.CollectionCount = 2
		}
		var agent, term strings.Builder
		Results(&agent, resp, Options{})
		Terminal(&term, resp, 80, 0)
		for _, out := range []string{agent.String(), term.String()} {
			if got := strings.Count(out, "· collection "); got != len(tt.want) {
				t.Errorf("%s: %d collections named in\n%s", tt.name, got, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("%s: no %q in\n%s", tt.name, w, out)
				}
			}
		}
	}
}

func TestResultsEmpty(t *testing.T) {
	var b strings.Builder
	if err := Results(&b, &mdsearch.SearchResponse{Query: "zzz"}, Options{}); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "No results for \"zzz\".\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestOutline(t *testing.T) {
	// Sections are named by their headings, or, where another heading
	// reads the same, by what the outline's Section says.
	o := &mdsearch.Outline{Path: "k/Sourdough.md", Title: "Sourdough", WordCount: 100, Tokens: 140, Sections: []mdsearch.OutlineEntry{
		{Level: 0, SectionPath: []string{}, Section: "/", StartLine: 1, EndLine: 1, WordCount: 3, Tokens: 4},
		{Level: 1, Heading: "Sourdough", SectionPath: []string{"Sourdough"}, Section: "Sourdough", StartLine: 1, EndLine: 20, WordCount: 100, Tokens: 140},
		{Level: 2, Heading: "Starter", SectionPath: []string{"Sourdough", "Starter"}, Section: "Starter", StartLine: 3, EndLine: 9, WordCount: 40, Tokens: 52},
		{Level: 3, Heading: "Feeding", SectionPath: []string{"Sourdough", "Starter", "Feeding"}, Section: "Sourdough/Starter/Feeding", StartLine: 5, EndLine: 9, WordCount: 10, Tokens: 13},
		{Level: 2, Heading: "Notes", Anchor: "notes", SectionPath: []string{"Sourdough", "Notes"}, Section: "#notes", StartLine: 10, EndLine: 14, WordCount: 20, Tokens: 26},
		{Level: 2, Heading: "Notes", Anchor: "notes-1", SectionPath: []string{"Sourdough", "Notes"}, Section: "#notes-1", StartLine: 15, EndLine: 20, WordCount: 20, Tokens: 26},
	}}
	want := "k/Sourdough.md — Sourdough (100 words, ~140 tokens to read whole)\n" +
		"- (intro) — section \"/\" · 3 words (~4 tokens) · line 1\n" +
		"- # Sourdough · 100 words (~140 tokens) · lines 1–20\n" +
		"  - ## Starter · 40 words (~52 tokens) · lines 3–9\n" +
		"    - ### Feeding — section \"Sourdough/Starter/Feeding\" · 10 words (~13 tokens) · lines 5–9\n" +
		"  - ## Notes — section \"#notes\" · 20 words (~26 tokens) · lines 10–14\n" +
		"  - ## Notes — section \"#notes-1\" · 20 words (~26 tokens) · lines 15–20\n"
	var b strings.Builder
	if err := Outline(&b, o); err != nil {
		t.Fatal(err)
	}
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	// Skipped levels indent by depth: an H6 under an H1 one step in.
	b.Reset()
	_ = Outline(&b, &mdsearch.Outline{Path: "s.md", Sections: []mdsearch.OutlineEntry{
		{Level: 1, Heading: "Top", SectionPath: []string{"Top"}, Section: "Top"},
		{Level: 6, Heading: "Deep", SectionPath: []string{"Top", "Deep"}, Section: "Deep"},
	}})
	if !strings.Contains(b.String(), "\n  - ###### Deep ·") {
		t.Errorf("skipped levels:\n%s", b.String())
	}
	b.Reset()
	_ = Outline(&b, &mdsearch.Outline{Path: "flat.md", WordCount: 2})
	if !strings.Contains(b.String(), "(no headings)") || strings.Contains(b.String(), "Linked") {
		t.Errorf("flat note: %q", b.String())
	}
}

// The places that link to a note follow its outline, the first ten of
// them, by section and line, or in the note's properties, and the notes
// not read past them.
func TestOutlineLinkedFrom(t *testing.T) {
	o := &mdsearch.Outline{Path: "Plan.md", WordCount: 2, LinkedFrom: []mdsearch.Backlink{
		{Path: "a.md", Section: "Goals", Line: 4, Text: "See [[Plan]]."},
		{Path: "a.md", Section: "/", Line: 1, Text: "[[Plan]] first"},
		{Path: "b.md", Line: 2, Text: "up: \"[[Plan]]\""},
	}}
	for i := range 9 {
		o.LinkedFrom = append(o.LinkedFrom, mdsearch.Backlink{Path: fmt.Sprintf("c%d.md", i), Section: "/", Line: 2, Text: "[[Plan]]"})
	}
	var b strings.Builder
	_ = Outline(&b, o)
	want := "Linked from 12 places in 11 notes:\n" +
		"- a.md — section \"Goals\" · line 4: See [[Plan]].\n" +
		"- a.md — section \"/\" · line 1: [[Plan]] first\n" +
		"- b.md — properties · line 2: up: \"[[Plan]]\"\n"
	if got := b.String(); !strings.Contains(got, want) || !strings.HasSuffix(got, "- c6.md — section \"/\" · line 2: [[Plan]]\n- and 2 more places\n") {
		t.Errorf("got\n%s\nwant it to hold\n%s", got, want)
	}
	o.LinkedFromMore = 250
	b.Reset()
	_ = Outline(&b, o)
	if got := b.String(); !strings.Contains(got, "Linked from 12 places in 11 notes, and from 250 more notes:\n") {
		t.Errorf("notes not read:\n%s", got)
	}
}

func TestExcerpt(t *testing.T) {
	long := strings.Repeat("x", 50)
	for _, tc := range []struct {
		name, text string
		width, n   int
		want       []string
	}{
		{"keeps lines", "## Head\n\nbody one\nbody two", 40, 4, []string{"## Head", "body one", "body two"}},
		{"cuts long lines", long, 20, 3, []string{strings.Repeat("x", 19) + "…"}},
		{"marks dropped lines", "a\nb\nc\nd", 20, 2, []string{"a", "b…"}},
		{"blank", " \n\n ", 20, 3, nil},
		{"crlf", "a\r\nb\r\n", 20, 3, []string{"a", "b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Excerpt(tc.text, tc.width, tc.n)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("Excerpt(%q) = %q, want %q", tc.text, got, tc.want)
			}
			for _, l := range got {
				if n := len([]rune(l)); n > tc.width {
					t.Errorf("line of %d runes > %d: %q", n, tc.width, l)
				}
			}
		})
	}
}

// TestReadsAs: the footer names sections as read takes them: a path where
// it names one section, the "#id" where another reads the same, "/" for
// the text before the first heading of a note that has more.
func TestReadsAs(t *testing.T) {
	for _, tt := range []struct {
		name string
		r    mdsearch.Result
		want string
	}{
		{"path", mdsearch.Result{SectionPath: []string{"A", "B"}, TotalChunks: 3}, ` · section "A/B"`},
		{"shared path", mdsearch.Result{SectionPath: []string{"Net", "TCP", "IP"}, ReadSection: "#ip", TotalChunks: 3}, ` · section "#ip"`},
		{"preamble", mdsearch.Result{TotalChunks: 3}, ` · section "/"`},
		{"preamble merged", mdsearch.Result{Sections: [][]string{{}, {"Setup"}}, TotalChunks: 2}, ` · sections "/", "Setup"`},
		{"note without headings", mdsearch.Result{TotalChunks: 1}, ``},
		{"merged, by id", mdsearch.Result{SectionPath: []string{"A"}, ReadSection: "#a-1", Sections: [][]string{{"A"}, {"A", "x"}}, TotalChunks: 3},
			` · sections "#a-1", "A/x"`},
		{"merged twice", mdsearch.Result{SectionPath: []string{"A"}, Sections: [][]string{{"A"}, {"A", "x"}}, TotalChunks: 2}, ` · sections "A", "A/x"`},
		{"merged, a path twice", mdsearch.Result{SectionPath: []string{}, Sections: [][]string{{}, {"P", "Setup"}, {"P", "Config"}, {"P", "Setup"}},
			ReadSections: []string{"", "#setup", "", "#setup-1"}, TotalChunks: 2}, ` · sections "/", "#setup", "P/Config", "#setup-1"`},
		{"merged, own path again", mdsearch.Result{SectionPath: []string{"A"}, ReadSection: "#a", Sections: [][]string{{"A"}, {"A", "x"}, {"A"}},
			ReadSections: []string{"#a", "", "#a-1"}, TotalChunks: 2}, ` · sections "#a", "A/x", "#a-1"`},
	} {
		if got := readsAs(tt.r); got != tt.want {
			t.Errorf("%s: readsAs = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestCountsOfOne: a count of one takes the singular, wherever words,
// tokens and the like are counted.
func TestCountsOfOne(t *testing.T) {
	var b strings.Builder
	o := &mdsearch.Outline{Path: "a.md", WordCount: 1, Tokens: 1, Sections: []mdsearch.OutlineEntry{
		{Level: 0, Section: "/", WordCount: 1, Tokens: 1, StartLine: 1, EndLine: 1},
		{Level: 1, Heading: "A", Section: "A", WordCount: 1, Tokens: 1, StartLine: 2, EndLine: 2}}}
	if err := Outline(&b, o); err != nil {
		t.Fatal(err)
	}
	if err := Read(&b, &mdsearch.ReadResponse{Path: "a.md", Content: "x\n", StartLine: 1, EndLine: 1, Tokens: 1}); err != nil {
		t.Fatal(err)
	}
	b.WriteString(Footer(mdsearch.Result{TotalChunks: 1, StartLine: 1, EndLine: 1, PageWordCount: 1}))
	got := b.String()
	for _, want := range []string{"(1 word, ~1 token to read whole)", "· 1 word (~1 token) ·", "about 1 token\n", "page 1 word"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in %q", want, got)
		}
	}
	if strings.Contains(got, "1 words") || strings.Contains(got, "1 tokens") {
		t.Errorf("a plural of one in %q", got)
	}
}

// A list of notes shows no scores, in either rendering, and says so when
// it is empty.
func TestListing(t *testing.T) {
	r := mdsearch.Result{Path: "work/a.md", Title: "A", Section: "A", SectionPath: []string{"A"}, Text: "We met.", TotalChunks: 1, StartLine: 1, EndLine: 3}
	resp := &mdsearch.SearchResponse{Listing: true, Results: []mdsearch.Result{r}, Total: 1}
	for name, render := range map[string]func(*strings.Builder, *mdsearch.SearchResponse) error{
		"results":  func(b *strings.Builder, x *mdsearch.SearchResponse) error { return Results(b, x, Options{}) },
		"terminal": func(b *strings.Builder, x *mdsearch.SearchResponse) error { return Terminal(b, x, 80, 0) },
	} {
		var b strings.Builder
		if err := render(&b, resp); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); !strings.HasPrefix(got, "1. **work/a.md** > A\n") || strings.Contains(got, "%") {
			t.Errorf("%s: %q", name, got)
		}
		b.Reset()
		if err := render(&b, &mdsearch.SearchResponse{Listing: true}); err != nil || b.String() != "No notes.\n" {
			t.Errorf("%s, empty: %q, %v", name, b.String(), err)
		}
	}
}

func TestBlankRuns(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a\n\n\n\n\nb", "a\n\nb"},                                   // a comment's blanked lines
		{"a\n\nb\n\nc", "a\n\nb\n\nc"},                               // paragraphs as they are
		{"```\nx\n\n\n\ny\n```\n\n\nz", "```\nx\n\n\n\ny\n```\n\nz"}, // code as written
		{"~~~\n\n\n~~~", "~~~\n\n\n~~~"},
		{"text\n\n    x := 1\n\n\n\n    y := 2\n\n\nz", "text\n\n    x := 1\n\n\n\n    y := 2\n\nz"}, // indented code as written
		{"````md\n```rust\n\n\n```\n````\n\n\nz", "````md\n```rust\n\n\n```\n````\n\nz"},             // a fence inside a longer one
	} {
		if got := strings.Join(blankRuns(strings.Split(tc.in, "\n")), "\n"); got != tc.want {
			t.Errorf("blankRuns(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
