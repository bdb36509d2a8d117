package engine

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

func TestQuotedPhrases(t *testing.T) {
	for _, tt := range []struct {
		query string
		want  []phrase
	}{
		{`"open in new tab" shortcut`, []phrase{{`"open in new tab"`, "open in new tab"}}},
		{`“Open in New Tab” and "tab"`, []phrase{{`"open in new tab"`, "Open in New Tab"}, {`"tab"`, "tab"}}},
		{`"a b" "A B" "c"`, []phrase{{`"a b"`, "a b"}, {`"c"`, "c"}}},
		{`rust-lang e.g. words`, nil},                // joined by punctuation: a phrase to FTS5, but not quoted
		{`"open tab`, nil},                           // never closed
		{`"" "!!" x`, nil},                           // no words inside
		{`v-bind (:title="post.title") syntax`, nil}, // code: quotes inside a word
		{`say "hi", then ("bye")`, []phrase{{`"hi"`, "hi"}, {`"bye"`, "bye"}}},
		{`a "b"c "d"`, []phrase{{`"d"`, "d"}}},               // "b" closes inside a word
		{`"据库"`, []phrase{{`"据 库"`, "据库"}}},                  // each character a word
		{`使用「打开新标签」快捷键`, []phrase{{`"打 开 新 标 签"`, "打开新标签"}}}, // typographic quotes inside a run
		{`打开“新标签”的快捷键`, []phrase{{`"新 标 签"`, "新标签"}}},
		{`a„b c“d`, []phrase{{`"b c"`, "b c"}}},
		{`"crème brûlée"`, []phrase{{`"crème brûlée"`, "crème brûlée"}}}, // folded by the index, as its text is
	} {
		if got := quotedPhrases(tt.query); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: %q, want %q", tt.query, got, tt.want)
		}
	}
}

func TestIsStatement(t *testing.T) {
	for q, want := range map[string]bool{
		`See the “Methods” section in Chapter 5.`:      true,
		`To obtain the reference, use “useRef()”:`:     true,
		`He wrote "use it."`:                           true, // past the closing quote
		`a; b;`:                                        true,
		`"open in new tab" shortcut`:                   false,
		`what does "move" mean in closures?`:           false,
		`error: cannot find value "foo" in this scope`: false,
		`v1.2`:   false,
		`"etc."`: true,
	} {
		if got := isStatement(q); got != want {
			t.Errorf("isStatement(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestPhraseWords(t *testing.T) {
	many := make([]string, maxTerms-1)
	for i := range many {
		many[i] = fmt.Sprintf(`"w%d"`, i)
	}
	for _, tt := range []struct {
		terms []string
		p     string
		want  []string
		ok    bool
	}{
		{[]string{`"a"`, `"click middle"`, `"b"`}, `"click middle"`, []string{`"a"`, `"click"`, `"middle"`, `"b"`}, true},
		{[]string{`"open in the tab"`}, `"open in the tab"`, []string{`"open"`, `"tab"`}, true},     // common words left out
		{[]string{`"tab"`, `"new tab"`}, `"new tab"`, []string{`"tab"`, `"new"`}, true},             // each term once
		{[]string{`"to be or not"`}, `"to be or not"`, []string{`"to be or not"`}, false},           // common words alone: the phrase stays
		{[]string{`"x"`}, `"y z"`, []string{`"x"`}, false},                                          // not a term
		{append(slices.Clone(many), `"p q r"`), `"p q r"`, append(slices.Clone(many), `"p"`), true}, // as far as maxTerms holds them
	} {
		terms := slices.Clone(tt.terms)
		got, ok := phraseWords(terms, tt.p)
		if !reflect.DeepEqual(got, tt.want) || ok != tt.ok {
			t.Errorf("%q without %q: %q %v, want %q %v", tt.terms, tt.p, got, ok, tt.want, tt.ok)
		}
		if !reflect.DeepEqual(terms, tt.terms) {
			t.Errorf("%q: the terms given changed to %q", tt.terms, terms)
		}
	}
}

// A quoted phrase keeps keyword and hybrid results to the passages that
// hold it, as search boxes do, and two phrases to those that hold either;
// semantic mode reads meaning alone. A phrase no passage in scope holds is
// searched as words, with a notice.
func TestPhrasesRequired(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "a.md", "# Links\n\nHold Ctrl to open in new tab any link you click.\n")
	write(t, vault, "b.md", "# Tab shortcuts\n\nNew tab, open tab, tab shortcut: every tab shortcut in a list. A new window opens with another shortcut.\n")
	long := strings.Repeat("More words about clicks and windows and panes. ", 12) // no stub: a passage of its own
	write(t, vault, "c.md", "# Shortcuts\n\n## Open\n\nA middle click can open in new tab too. "+long+"\n\n## Other\n\nThe shortcut to open a new tab, shortcut shortcut tab. "+long+"\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	const phrase = `"open in new tab" shortcut`
	for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeHybrid} {
		resp := search(t, e, mdsearch.SearchRequest{Query: phrase, Mode: mode, N: 10})
		if got := describe(resp); len(resp.Results) != 2 || !strings.Contains(got, "a.md") || !strings.Contains(got, "Shortcuts Open") || strings.Contains(got, "Other") {
			t.Errorf("%s: %s, want a.md and c.md's opening with Open, the passages holding the phrase", mode, got)
		}
		if resp.Notice != "" {
			t.Errorf("%s: notice %q", mode, resp.Notice)
		}
	}
	for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeHybrid} {
		resp := search(t, e, mdsearch.SearchRequest{Query: `"new window" "open in new tab" shortcut`, Mode: mode, N: 10})
		if got := describe(resp); len(resp.Results) != 3 || !strings.Contains(got, "b.md") || strings.Contains(got, "Other") {
			t.Errorf("%s, two phrases: %s, want a.md, b.md and c.md's opening, the passages holding either", mode, got)
		}
	}
	// A statement's quotes are its text's: they keep nothing.
	if resp := search(t, e, mdsearch.SearchRequest{Query: `See "open in new tab" for the shortcut.`, Mode: mdsearch.ModeKeyword, N: 10}); len(resp.Results) < 3 {
		t.Errorf("a statement: %s, want passages without the phrase too", describe(resp))
	}
	if resp := search(t, e, mdsearch.SearchRequest{Query: phrase, Mode: mdsearch.ModeSemantic, N: 10}); len(resp.Results) < 3 {
		t.Errorf("semantic: %s, want passages without the phrase too", describe(resp))
	}
	for _, tt := range []struct {
		req    mdsearch.SearchRequest
		notice string
	}{
		{mdsearch.SearchRequest{Query: `"open in new window" shortcut`},
			`no passage holds the phrase "open in new window", so its words were searched one by one`},
		{mdsearch.SearchRequest{Query: `"open in new window" "new tab" "middle click"`},
			`no passage holds the phrase "open in new window", so its words were searched one by one`},
		{mdsearch.SearchRequest{Query: `"click middle"`}, // alone: its words are what finds anything
			`no passage holds the phrase "click middle", so its words were searched one by one`},
		{mdsearch.SearchRequest{Query: `"to be or not" shortcut`},
			`no passage holds the phrase "to be or not", whose words are common ones alone`},
		{mdsearch.SearchRequest{Query: `"open in new tab" shortcut`, PathPrefix: "b.md"},
			`no passage with these filters holds the phrase "open in new tab"`},
	} {
		for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeHybrid} {
			tt.req.Mode, tt.req.N = mode, 10
			resp := search(t, e, tt.req)
			if !strings.Contains(resp.Notice, tt.notice) {
				t.Errorf("%s %q: notice %q, want %q", mode, tt.req.Query, resp.Notice, tt.notice)
			}
			if len(resp.Results) == 0 {
				t.Errorf("%s %q: no results; the words are searched", mode, tt.req.Query)
			}
		}
	}
}

// phraseQueries are queries about the RFCs with a phrase quoted: rare
// phrases, and one that most passages hold ("it is"), whose passages
// mustHold reads whole.
var phraseQueries = []string{`"trait objects" dispatch`, `"lifetime elision" rules`, `"async closures"`,
	`"unsafe code" guidelines`, `"const generics" defaults`, `"procedural macro" hygiene`,
	`"non-lexical lifetimes" borrow checker`, `"it is" unsafe`}

// BenchmarkQuotedPhrases times hybrid searches of phraseQueries beside the
// same queries unquoted, in turn on one index (the RFCs of
// BenchmarkSecondStage, or MDSEARCH_BENCH_INDEX): what keeping the
// results to the phrases' passages adds.
func BenchmarkQuotedPhrases(b *testing.B) {
	e := rfcEngine(b)
	ask := func(quoted bool) func(string) error {
		return func(q string) error {
			if !quoted {
				q = strings.ReplaceAll(q, `"`, "")
			}
			_, err := e.Search(bg, mdsearch.SearchRequest{Query: q})
			return err
		}
	}
	benchPair(b, phraseQueries, "unquoted", ask(false), "quoted", ask(true))
}

// The passages holding a phrase are found however deep the list of every
// word puts them: here below a hundred notes that hold the query's other
// word many times, and a filler to make the index large.
func TestPhraseHoldersDeep(t *testing.T) {
	vault := t.TempDir()
	for i := range 150 {
		write(t, vault, fmt.Sprintf("zebra%03d.md", i), fmt.Sprintf("# Zebra %d\n\nzebra stripes, zebra stripes, zebra stripes.\n", i))
	}
	for i := range 200 {
		write(t, vault, fmt.Sprintf("filler%03d.md", i), fmt.Sprintf("# Filler %d\n\nNothing about animals here.\n", i))
	}
	long := strings.Repeat("Words about menus, windows and panes, at some length. ", 30) // long: a low bm25
	for i := range 3 {
		write(t, vault, fmt.Sprintf("tabs%d.md", i), fmt.Sprintf("# Tabs %d\n\n%s You can open tab groups here.\n", i, long))
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeHybrid} {
		resp := search(t, e, mdsearch.SearchRequest{Query: `"open tab" zebra stripes`, Mode: mode, N: 10, Explain: true})
		if len(resp.Results) != 3 || strings.Contains(resp.Notice, "no passage") {
			t.Fatalf("%s: %d results, notice %q, want the three tabs notes:\n%s", mode, len(resp.Results), resp.Notice, describe(resp))
		}
		r := resp.Results[2]
		if r.Why.KeywordRank <= firstRound {
			t.Errorf("%s: the phrase's passages rank %d in the keyword list, within its first round: no test of reaching them", mode, r.Why.KeywordRank)
		}
		// Keyword mode's second stage takes any embedder: it read them,
		// though the first stage put them past its best 50.
		if mode == mdsearch.ModeKeyword && len(r.Why.Factors) == 0 {
			t.Errorf("keyword: the second stage did not read the phrase's passages: %+v", r.Why)
		}
	}
}

// Every passage holding a phrase stays a candidate, however many rank
// above it: here ten small notes hold the phrase alone, below three notes
// whose 135 sections hold it with the query's other word, and one result
// a note asks for all thirteen notes. Explained or not, as the second
// stage reads more when explaining where no stage serves the embedder.
func TestPhraseHoldersPastStage(t *testing.T) {
	vault := t.TempDir()
	for n := range 3 {
		var b strings.Builder
		fmt.Fprintf(&b, "# Big %d\n\n", n)
		for i := range 45 {
			fmt.Fprintf(&b, "## Part %d\n\nopen tab zebra zebra zebra. %s\n\n", i, words(fmt.Sprintf("b%dp%d", n, i), 60))
		}
		write(t, vault, fmt.Sprintf("big%d.md", n), b.String())
	}
	for n := range 10 {
		write(t, vault, fmt.Sprintf("small%d.md", n), fmt.Sprintf("# Small %d\n\n%s open tab here.\n", n, words(fmt.Sprintf("s%d", n), 200)))
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeHybrid} {
		for _, explain := range []bool{false, true} {
			resp := search(t, e, mdsearch.SearchRequest{Query: `"open tab" zebra`, Mode: mode, N: 10, MaxPerPage: 1, Explain: explain})
			if len(resp.Results) != 10 {
				t.Errorf("%s, explain %v: %d results, want 10 of the 13 notes holding the phrase:\n%s", mode, explain, len(resp.Results), describe(resp))
			}
		}
	}
}

// The words of a quoted phrase no passage holds may be respelled, within
// its quotes; those of another phrase stay as typed.
func TestUnheldRespelled(t *testing.T) {
	unheld := map[string]bool{`"opne tab"`: true}
	if got := looseWords(`“Opne tab” and "opne window" lifecyle`, unheld); !slices.Equal(got, []string{"opne", "tab", "lifecyle"}) {
		t.Errorf("looseWords: %q", got)
	}
	fixes := map[string]string{"opne": "open", "lifecyle": "lifecycle"}
	got, typed := rewrite(`“Opne tab” and "opne window" lifecyle`, fixes, unheld)
	if want := `“Open tab” and "opne window" lifecycle`; got != want {
		t.Errorf("rewrite: %q, want %q", got, want)
	}
	if !slices.Equal(typed, []respelling{{"Opne", "Open"}, {"lifecyle", "lifecycle"}}) {
		t.Errorf("rewrite: typed %v", typed)
	}
	if got, _ := rewrite(`"opne tab`, fixes, unheld); got != `"open tab` {
		t.Errorf("an unclosed quote is punctuation: %q", got)
	}
}

// A semantic search that falls back to keyword mode (its model server
// down) keeps its quoted phrases, so an unclosed quote gets the notice a
// keyword search gets; one that does not fall back reads no phrase and
// gets none.
func TestFallbackOpenQuote(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "a.md", "# Tabs\n\nOpen in new tab with a middle click.\n")
	emb := &unready{bow: newBow("ollama:nomic-embed-text@64")}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), emb)
	index(t, e, vault, "v")
	const want = "opens a phrase nothing closes"
	req := mdsearch.SearchRequest{Query: `"open in new tab`, Mode: mdsearch.ModeSemantic}
	if resp := search(t, e, req); strings.Contains(resp.Notice, want) {
		t.Errorf("semantic: notice %q", resp.Notice)
	}
	emb.set(errors.New("embed http://127.0.0.1:9/api/embed: connection refused"))
	if resp := search(t, e, req); resp.Mode != mdsearch.ModeKeyword || !strings.Contains(resp.Notice, want) {
		t.Errorf("fallen back: mode %s, notice %q, want %q", resp.Mode, resp.Notice, want)
	}
}
