package engine

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// TestTakeExclusions: a hyphen before a word of three letters or more, or
// before a quoted phrase, at a field's start, excludes it; a command's
// short flags, negative numbers, hyphenated words, a phrase's own words
// and a statement's text are read as written.
func TestTakeExclusions(t *testing.T) {
	for _, tt := range []struct {
		query, rest string
		terms       []string
	}{
		{"canvas -plugin", "canvas", []string{`"plugin"`}},
		{"-Plugin canvas -core -plugin", "canvas", []string{`"plugin"`, `"core"`}},
		{`tabs -"open in new tab" shortcut`, "tabs shortcut", []string{`"open in new tab"`}},
		{`tabs -“New Tab”`, "tabs", []string{`"new tab"`}},
		{"ls -la", "ls -la", nil},
		{"npm install -g", "npm install -g", nil},
		{"errno -22", "errno -22", nil},
		{"well-known words", "well-known words", nil},
		{"--verbose flag", "--verbose flag", nil},
		{"-plugin, canvas", ", canvas", []string{`"plugin"`}}, // punctuation may follow
		{`tabs -"new tab", shortcut`, "tabs , shortcut", []string{`"new tab"`}},
		{"what is it -plugin?", "what is it ?", []string{`"plugin"`}},
		{"canvas -plug*", "canvas -plug*", nil}, // a prefix
		{"canvas -plugin's", "canvas -plugin's", nil},
		{"menu -cafe\u0301", "menu", []string{"\"caf\u00e9\""}}, // an accent written apart
		{`"open -plugin here" canvas`, `"open -plugin here" canvas`, nil},
		{`canvas -"unclosed`, `canvas -"unclosed`, nil},
		{`canvas -""`, `canvas -""`, nil},
		{"Run cargo with -verbose to see more.", "Run cargo with -verbose to see more.", nil},
		{"-plugin", "", []string{`"plugin"`}},
	} {
		rest, xs := takeExclusions(tt.query)
		if rest != tt.rest || !slices.Equal(exclusionTerms(xs), tt.terms) && len(xs)+len(tt.terms) > 0 {
			t.Errorf("%q: %q %q, want %q %q", tt.query, rest, exclusionTerms(xs), tt.rest, tt.terms)
		}
	}
}

// An exclusion leaves out of a search the passages that hold it, in every
// mode, and keeps the note's other passages; of a list of notes, the
// notes that hold it. A statement's hyphens are its text.
func TestExclusions(t *testing.T) {
	vault := t.TempDir()
	long := strings.Repeat("More words about flour, water and time in the kitchen. ", 12) // a passage of its own
	write(t, vault, "bread.md", "---\ntags: [baking]\n---\n# Bread\n\n## Rye\n\nA sourdough starter of rye flour. "+long+"\n\n## Wheat\n\nA sourdough starter of wheat flour. "+long+"\n")
	write(t, vault, "starter.md", "---\ntags: [baking]\n---\n# Starter\n\nFeed the sourdough starter daily.\n")
	write(t, vault, "cake.md", "---\ntags: [baking]\n---\n# Cake\n\nA rye cake, no sourdough, open in new tab.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeHybrid, mdsearch.ModeSemantic} {
		resp := search(t, e, mdsearch.SearchRequest{Query: "sourdough starter -rye", Mode: mode, N: 10})
		got := describe(resp)
		if len(resp.Results) != 2 || !strings.Contains(got, "Wheat") || !strings.Contains(got, "starter.md") {
			t.Errorf("%s: %s, want Bread > Wheat and starter.md, the passages without rye", mode, got)
		}
		for _, r := range resp.Results {
			if strings.Contains(strings.ToLower(r.Text), "rye") {
				t.Errorf("%s: %s holds rye: %q", mode, r.Path, r.Text)
			}
		}
		if resp.Notice != "" {
			t.Errorf("%s: notice %q", mode, resp.Notice)
		}
	}
	resp := search(t, e, mdsearch.SearchRequest{Query: `sourdough -"open in new tab"`, Mode: mdsearch.ModeKeyword, N: 10})
	if got := describe(resp); len(resp.Results) != 3 || strings.Contains(got, "cake.md") {
		t.Errorf("a phrase: %s, want the three sourdough passages but the cake's", got)
	}
	resp = search(t, e, mdsearch.SearchRequest{Query: "sourdough -sourdough", Mode: mdsearch.ModeKeyword, N: 10})
	if len(resp.Results) != 0 || !strings.Contains(resp.Notice, `-sourdough`) {
		t.Errorf("all left out: %s, notice %q, want none, named", describe(resp), resp.Notice)
	}
	// Obsidian's word operators negated exclude their words.
	resp = search(t, e, mdsearch.SearchRequest{Query: "sourdough starter -content:rye", Mode: mdsearch.ModeKeyword, N: 10})
	if got := describe(resp); len(resp.Results) != 2 || strings.Contains(got, "Rye") || resp.Notice != "" {
		t.Errorf("-content:rye: %s, notice %q, want rye left out, nothing said", got, resp.Notice)
	}
	// A statement is text pasted: its hyphen is a word's.
	if resp := search(t, e, mdsearch.SearchRequest{Query: "A starter of -rye flour.", Mode: mdsearch.ModeKeyword, N: 10}); !strings.Contains(describe(resp), "Rye") {
		t.Errorf("a statement: %s, want the rye passage too", describe(resp))
	}
	// A list's results are notes: those holding the word are left out.
	for _, q := range []string{"tag:baking -rye", "-rye"} {
		resp = search(t, e, mdsearch.SearchRequest{Query: q, N: 10})
		if got := describe(resp); !resp.Listing || len(resp.Results) != 1 || !strings.Contains(got, "starter.md") {
			t.Errorf("%q: listing %v, %s, want starter.md alone", q, resp.Listing, got)
		}
	}
	// The keyword index finds a word's stem; a passage holding another
	// word of that stem, but not the word, stays ("generic" and
	// "generation" are one stem to it), and one holding a longer form of
	// the word goes.
	write(t, vault, "gen.md", "# Generics\n\nGeneric types take type parameters.\n")
	write(t, vault, "codegen.md", "# Codegen\n\nCode generation from generic templates.\n")
	write(t, vault, "plugins.md", "# Extensions\n\nGeneric plugins for types.\n")
	index(t, e, vault, "v")
	resp = search(t, e, mdsearch.SearchRequest{Query: "generic types -generation -plugin", Mode: mdsearch.ModeKeyword, N: 10})
	if got := describe(resp); len(resp.Results) != 1 || !strings.Contains(got, "gen.md") {
		t.Errorf("stems: %s, want gen.md alone", got)
	}
	if resp = search(t, e, mdsearch.SearchRequest{Query: "-generation", N: 50}); strings.Contains(describe(resp), "codegen.md") || !strings.Contains(describe(resp), "gen.md") {
		t.Errorf("a list, stems: %s, want gen.md and not codegen.md", describe(resp))
	}
}

// FuzzTakeExclusions: whatever is typed, what is left is the query's text
// in its order, each exclusion is written in the query and holds a
// word, none is left in what remains, and a query with none is left as it
// is.
func FuzzTakeExclusions(f *testing.F) {
	for _, s := range []string{"canvas -plugin", `a -"b c" -def`, `"x -abc" -def`, `-“新しい” タブ`, "ls -la -- -ab-cd", `-"`, "-ÄÖÜ."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		rest, xs := takeExclusions(q)
		if len(xs) == 0 {
			if rest != q {
				t.Fatalf("%q: none taken, yet left %q", q, rest)
			}
			return
		}
		for _, x := range xs {
			if !strings.Contains(q, x.written) || x.term == `""` || len(x.words) == 0 {
				t.Fatalf("%q: took %+v", q, x)
			}
		}
		at := 0 // each field left is text of the query, in order (a word, or the punctuation after an exclusion)
		for _, w := range strings.Fields(rest) {
			i := strings.Index(q[at:], w)
			if i < 0 {
				t.Fatalf("%q: left %q, not the query's text in order", q, rest)
			}
			at += i + len(w)
		}
		if again, more := takeExclusions(rest); len(more) > 0 {
			t.Fatalf("%q: left %q, which excludes %+v more (%q)", q, rest, more, again)
		}
	})
}

// exclusionQueries are queries about the RFCs that leave a word out: rare
// words, and one that most passages hold ("-rust"), whose passages
// mustLack reads whole.
var exclusionQueries = []string{"trait objects dispatch -vtable", "lifetime elision rules -closure", "async closures -generator",
	"unsafe code guidelines -pointer", "const generics defaults -array", "procedural macro hygiene -span",
	"non-lexical lifetimes borrow checker -loop", "error handling -rust"}

// BenchmarkExclusions times hybrid searches of exclusionQueries beside the
// same queries without their exclusion, in turn on one index (the RFCs of
// BenchmarkSecondStage, or MDSEARCH_BENCH_INDEX): what leaving the
// passages holding a word out adds.
func BenchmarkExclusions(b *testing.B) {
	e := rfcEngine(b)
	ask := func(excluding bool) func(string) error {
		return func(q string) error {
			if !excluding {
				q = q[:strings.LastIndex(q, " -")]
			}
			_, err := e.Search(bg, mdsearch.SearchRequest{Query: q})
			return err
		}
	}
	benchPair(b, exclusionQueries, "plain", ask(false), "excluding", ask(true))
}

// The passages an exclusion leaves are ranked and scored among
// themselves, before the second stage, as a filter's are: below sixty
// passages it leaves out, their scores are those the same passages get
// when a path filter keeps them alone, not the scores of passages the
// stage never read.
func TestExclusionsScoredAmongThemselves(t *testing.T) {
	vault := t.TempDir()
	for i := range 60 {
		write(t, vault, fmt.Sprintf("rye/%02d.md", i), fmt.Sprintf("# Rye %d\n\nSync the rye starter: sync, sync and sync again.\n", i))
	}
	write(t, vault, "keep/a.md", "# Sync\n\nSync settings choose what to sync.\n")
	write(t, vault, "keep/b.md", "# Devices\n\nEach device keeps its own copy until a sync.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	excluded := search(t, e, mdsearch.SearchRequest{Query: "sync -rye", Mode: mdsearch.ModeKeyword})
	kept := search(t, e, mdsearch.SearchRequest{Query: "sync path:keep/", Mode: mdsearch.ModeKeyword})
	if describe(excluded) != describe(kept) || len(kept.Results) != 2 {
		t.Errorf("excluding:\n%s\nfiltered:\n%s", describe(excluded), describe(kept))
	}
}

// An exclusion leaves out what the passage's keyword row holds, as the
// index made it: aliases, a parent heading's words, words with accents
// dropped, a phrase across a task box; not its folders' names. A negated word
// operator that takeExclusions would not take (after a bracket, in a
// statement) is named in the notice as before.
func TestExclusionsAsIndexed(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "unique.md", "---\naliases: [Zettelkasten prefixer]\n---\n# Unique note\n\nCreate a unique note with a timestamp.\n")
	write(t, vault, "future.md", "# Async\n\n## Future<Output = T>\n\n"+strings.Repeat("Words about the return type. ", 40)+"\n\n### Polymorphic return\n\nA polymorphic return type.\n")
	write(t, vault, "people.md", "# People\n\nRémy leads the project goals.\n")
	write(t, vault, "breads/starter.md", "# Starter\n\nA bread starter.\n")
	write(t, vault, "shop.md", "# Shop\n\n- [ ] Buy fresh milk\n- [x] eggs\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, tt := range []struct {
		query, gone, kept string
	}{
		{"unique note -prefixer", "unique.md", ""},
		{"polymorphic return -output", "future.md", ""},
		{"project goals -remy", "people.md", ""},
		{"bread starter -breads", "", "breads/starter.md"},
		{`fresh milk -"milk eggs"`, "shop.md", ""}, // a phrase across a task box, as "milk eggs" finds it
	} {
		resp := search(t, e, mdsearch.SearchRequest{Query: tt.query, Mode: mdsearch.ModeKeyword})
		got := describe(resp)
		if tt.gone != "" && strings.Contains(got, tt.gone) || tt.kept != "" && !strings.Contains(got, tt.kept) {
			t.Errorf("%q: %s, want %s left out, %s kept", tt.query, got, tt.gone, tt.kept)
		}
	}
	for _, q := range []string{"project (-content:goals)", "project -content:goals."} {
		if resp := search(t, e, mdsearch.SearchRequest{Query: q, Mode: mdsearch.ModeKeyword}); !strings.Contains(resp.Notice, "content: operator filters nothing") {
			t.Errorf("%q: notice %q, want content: named", q, resp.Notice)
		}
	}
}
