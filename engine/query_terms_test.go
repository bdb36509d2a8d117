package engine

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/rescore"
	"github.com/mdsearch/mdsearch/store"
)

// matchQuery is the terms ORed, as the keyword list's fallback query
// joins them.
func matchQuery(input string) string { return strings.Join(matchTerms(input), " OR ") }

func TestMatchQuery(t *testing.T) {
	cases := []struct{ in, want string }{
		{"sourdough starter", `"sourdough" OR "starter"`},
		{"How do I feed the starter?", `"feed" OR "starter"`},
		{"the of and", `"the" OR "of" OR "and"`},
		{`"grey liquid" hooch`, `"grey liquid" OR "hooch"`},
		{`"unclosed phrase`, `"unclosed" OR "phrase"`},
		{`""`, ``},
		{`ferment*`, `"ferment"*`},
		{`*`, ``},
		{`rust-lang e.g. foo_bar`, `"rust lang" OR "e g" OR "foo bar"`},
		// A generic type: the phrase, and each type it names.
		{`Rc<RefCell<T>>`, `"rc refcell t" OR "rc" OR "refcell"`},
		{`HashMap<String,Vec<u8>>`, `"hashmap string vec u8" OR "hashmap" OR "string" OR "vec" OR "u8"`},
		{`Option<T> <KeepAlive> a<b`, `"option t" OR "keepalive" OR "a b"`},
		// Pieces of a signature that spaces cut are no generic type.
		{`Box<dyn Fn(i32) -> i32>`, `"box dyn" OR "fn i32" OR "i32"`},
		{`largest<T: PartialOrd>(list`, `"largest t" OR "partialord list"`},
		{`NOT AND OR NEAR(a b)`, `"near a" OR "b"`},
		{`title:foo`, `"title foo"`},
		{`col:"x y" ^start {a b} -neg +pos`, `"col" OR "x y" OR "start" OR "b" OR "neg" OR "pos"`},
		{`Café  naïve`, `"café" OR "naïve"`},
		{`日本語 テキスト`, `"日 本" OR "本 語" OR "テ キ" OR "キ ス" OR "ス ト"`},
		{`数据库`, `"数 据" OR "据 库"`},
		{`"数据库" 设计 书`, `"数 据 库" OR "设 计" OR "书"`},
		{`Rust的所有权`, `"rust" OR "的 所" OR "所 有" OR "有 权"`},
		{`rust-lang的书 foo*`, `"rust lang" OR "的 书" OR "foo"*`},
		{`ภาษาไทย`, `"ภ า" OR "า ษ" OR "ษ า" OR "า ไ" OR "ไ ท" OR "ท ย"`},
		{`ที่นี่`, `"ที่ นี่"`},
		{`二〇二四年`, `"二 〇" OR "〇 二" OR "二 四" OR "四 年"`},
		{`Ｄｏｃｋｅｒ　ｌｏｇｓ`, `"docker" OR "logs"`},
		{`ﾃﾞｰﾀ`, `"デ ー" OR "ー タ"`},
		{"\u1103\u1166\u110b\u1175", `"데 이"`}, // decomposed Hangul
		{`الْمُكَوِّنَات`, `"المكونات"`},
		{`מִצְרָכִים בְּ־בַּיִת`, `"מצרכים" OR "ב בית"`},
		{`“grey liquid” hooch 「备份数据库」`, `"grey liquid" OR "hooch" OR "备 份 数 据 库"`},
		{"a\x00b \xff\xfe c", `"a b" OR "c"`},
		{`(((`, ``},
		{`'single' "double" `, `"single" OR "double"`},
		{`dup dup DUP`, `"dup"`},
		// Clitics: a possessive is its word, a contraction its words.
		{`Canvas's features`, `"canvas" OR "features"`},
		{`the borrow checker’s rules`, `"borrow" OR "checker" OR "rules"`},
		{`what's a closure? it doesn't compile, I can't, we'd, you'll, they're, I've, I'm`, `"closure" OR "compile"`},
		{`students' notes`, `"students" OR "notes"`},
		{`"Canvas's features"`, `"canvas s features"`}, // a phrase is as typed
		{`rock'n'roll o'clock`, `"rock n roll" OR "o clock"`},
		{`Can't compile, Won't build, DOESN'T WHAT'S NEW ain't shan't`, `"compile" OR "build" OR "new" OR "shall"`},
		{`don't-panic`, `"don t panic"`},              // joined by a hyphen: a phrase, as the index reads "Don't panic"
		{`canvas's* don't*`, `"canvas"* OR "don t"*`}, // a negation asked as a prefix stays as typed
	}
	for _, c := range cases {
		if got := matchQuery(c.in); got != c.want {
			t.Errorf("matchQuery(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	many := strings.Repeat("word ", 10)
	for i := range 100 {
		many += "w" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + " "
	}
	if n := strings.Count(matchQuery(many), " OR ") + 1; n != maxTerms {
		t.Errorf("%d terms, want at most %d", n, maxTerms)
	}
}

func TestAsksNothing(t *testing.T) {
	cases := []struct {
		in      string
		nothing bool
		common  string
	}{
		{"the", true, "the"},
		{"How do I", true, "how do i"},
		{"what is it?", true, "what is it"},
		{"  THE   of\tand ", true, "the of and"},
		{"how do I feed the starter", false, "how do i the"},
		{"hooch", false, ""},
		{`"The Who"`, false, "the who"}, // a phrase asks for that text
		{"“the who”", false, "the who"}, // so does one in typographic quotes
		{"the*", false, "the"},          // and a prefix
		{"", false, ""},                 // no words: nothing to judge
		{"?!", false, ""},
		{"Ｔｈｅ", true, "the"}, // folded as the index folds it
		{"the 日本", false, "the"},
	}
	for _, c := range cases {
		if got := AsksNothing(c.in); got != c.nothing {
			t.Errorf("AsksNothing(%q) = %v, want %v", c.in, got, c.nothing)
		}
		if got := CommonWordsOf(c.in); got != c.common {
			t.Errorf("CommonWordsOf(%q) = %q, want %q", c.in, got, c.common)
		}
		if w := CommonWordsOf(c.in); w != "" && !AsksNothing(w) {
			t.Errorf("CommonWordsOf(%q) = %q, which asks for something", c.in, w)
		}
	}
}

// hostile are inputs that break naive FTS5 query building.
var hostile = []string{
	`"`, `""`, `"""`, `*`, `**`, `a*b`, `-`, `--`, `^`, `:`, `a:b`, `(`, `)`, `()`, `{}`, `[`, `]`,
	`AND`, `OR`, `NOT`, `NEAR`, `NEAR(`, `a AND`, `OR b`, `NOT NOT`, `a NEAR/3 b`, `"a" NOT`,
	`\`, `\"`, `'`, `''`, `';DROP TABLE chunks;--`, `%`, `_`, `+`, `?`, `!`, `@`, `#tag`, `$1`,
	"\x00", "\xff", "\t\n\r", "\u200b", "🙂", "e\u0301", strings.Repeat("(", 1000), strings.Repeat(`"a `, 300),
	`text: heading: title: tags:`, `{text heading}: x`, `- x`, `x -y`, `"a" + "b"`,
}

func TestHostileQueries(t *testing.T) {
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, copyDir(t, sampleVault), "s")
	for _, q := range hostile {
		for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeSemantic, mdsearch.ModeHybrid} {
			_, err := e.Search(bg, mdsearch.SearchRequest{Query: q, Mode: mode})
			if err != nil && mdsearch.KindOf(err) != mdsearch.KindInvalid {
				t.Errorf("%s %q: %v", mode, q, err)
			}
		}
	}
}

// FuzzMatchQuery checks that any input gives a MATCH expression SQLite
// accepts, built only from quoted terms.
func FuzzMatchQuery(f *testing.F) {
	for _, q := range hostile {
		f.Add(q)
	}
	st, _, err := store.Open(bg, filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	defer st.Close()
	f.Fuzz(func(t *testing.T, in string) {
		m := matchQuery(in)
		if m == "" {
			return
		}
		if !utf8.ValidString(m) {
			t.Fatalf("invalid UTF-8 in %q", m)
		}
		for _, part := range strings.Split(m, " OR ") {
			part = strings.TrimSuffix(part, "*")
			if len(part) < 3 || part[0] != '"' || part[len(part)-1] != '"' || strings.Contains(part[1:len(part)-1], `"`) {
				t.Fatalf("matchQuery(%q) has an unquoted part %q", in, part)
			}
		}
		if _, err := st.Keyword(bg, m, store.Filter{}, store.DefaultWeights, 1); err != nil {
			t.Fatalf("matchQuery(%q) = %s: %v", in, m, err)
		}
		if _, err := st.KeywordAny(bg, matchTerms(in), store.Filter{}, store.DefaultWeights, 1); err != nil {
			t.Fatalf("matchTerms(%q): %v", in, err)
		}
	})
}

// TestGenericPhraseWeight: a generic type's phrase that no note writes
// (the notes write Rc<RefCell<i32>>) is no part of the query the notes
// lack: the query's coverage is its type names'; a phrase quoted as
// such, which the notes lack, still counts as missing.
func TestGenericPhraseWeight(t *testing.T) {
	var seen []Observed
	e, err := Open(bg, Options{IndexPath: filepath.Join(t.TempDir(), "index.db"), Embedder: newBow("bow"),
		Observe: func(_ string, c []Observed) { seen = c }})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	vault := t.TempDir()
	write(t, vault, "Shared.md", "# Shared\n\nWrap it as Rc<RefCell<i32>> to share and mutate one value.\n")
	write(t, vault, "Other.md", "# Other\n\nA note about gardens and water.\n")
	index(t, e, vault, "v")
	for _, tc := range []struct {
		query string
		cover float64
	}{
		{"Rc<RefCell<T>>", 1},
		{"Rc<RefCell<i32>>", 1},
		{`"rc refcell t" rc refcell`, 0.5}, // quoted: a phrase of its own, which the notes lack
	} {
		seen = nil
		search(t, e, mdsearch.SearchRequest{Query: tc.query, Mode: mdsearch.ModeKeyword})
		if len(seen) == 0 {
			t.Fatalf("%s: no candidates observed", tc.query)
		}
		got := seen[0].Features[rescore.QueryCover]
		if tc.cover == 1 && got != 1 || tc.cover < 1 && got > 0.9 {
			t.Errorf("%s: query cover %.2f, want %.2f", tc.query, got, tc.cover)
		}
		for _, c := range seen {
			if c.Path == "Shared.md" && c.Features[rescore.CoverAll] < got-1e-9 {
				t.Errorf("%s: the note holding every type name covers %.2f of the query", tc.query, c.Features[rescore.CoverAll])
			}
		}
	}
}

// TestNoWordHeld: a keyword search that finds nothing says that no passage
// holds the query's words, naming them, and what to try.
func TestNoWordHeld(t *testing.T) {
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, copyDir(t, "../sample-vault"), "v")
	resp := search(t, e, mdsearch.SearchRequest{Query: "what is the weather in Paris?", Mode: mdsearch.ModeKeyword})
	if len(resp.Results) != 0 || !strings.Contains(resp.Notice, "no passage holds any of the query's words (weather, paris): ask in other words, or search in hybrid mode") {
		t.Errorf("%d results, notice %q", len(resp.Results), resp.Notice)
	}
	// A hybrid search that fell back to keywords (no model here) is not
	// told to search in hybrid mode.
	resp = search(t, e, mdsearch.SearchRequest{Query: "weather in Paris"})
	if resp.Mode != mdsearch.ModeKeyword || !strings.Contains(resp.Notice, "no passage holds any of the query's words") || strings.Contains(resp.Notice, "hybrid mode") {
		t.Errorf("fallen back: mode %s, notice %q", resp.Mode, resp.Notice)
	}
}

func TestUnclitic(t *testing.T) {
	for _, tc := range []struct{ in, want, contracted string }{
		{"what's canvas", "what canvas", "what canvas"},
		{"What’s New", "what new", "what new"},
		{"isn't it?", "is not it?", "isn't it?"},
		{"Rust's ownership", "rust ownership", "rust ownership"},
		{"don't-panic", "do not-panic", "don't-panic"},
		{`"Don't Panic"`, `"do not panic"`, `"don't panic"`}, // quoted, as a heading is not
		{`see “The Owner’s Manual”`, `see “the owner manual”`, `see “the owner manual”`},
		{"no clitic here", "no clitic here", "no clitic here"},
		{"l'été", "l'été", "l'été"},
	} {
		if got := unclitic(tc.in); got != tc.want {
			t.Errorf("unclitic(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := withoutContractions(tc.in); got != tc.contracted {
			t.Errorf("withoutContractions(%q) = %q, want %q", tc.in, got, tc.contracted)
		}
	}
}

// TestQuestionReading: a contraction opens a question as its words do,
// and a negation stays a statement's ("don't panic").
func TestQuestionReading(t *testing.T) {
	for q, want := range map[string]bool{
		"What's new in 3.5": true, "who’s the maintainer": true, "how's it cached": true,
		"don't panic": false, "doesn't compile": false, "can't find module": false, "won't start": false,
	} {
		if got := rescore.IsQuestion(withoutContractions(q)); got != want {
			t.Errorf("%q read as a question: %v, want %v", q, got, want)
		}
	}
}

// FuzzUnclitic: reading clitics keeps text valid, reads it once for all
// (a second read changes nothing), and the heading features it feeds
// take any query and heading.
func FuzzUnclitic(f *testing.F) {
	for _, q := range append(slices.Clone(hostile), "what's canvas", "Don't Panic", "l'été", "n't'n't", "'s's", "ca'n't") {
		f.Add(q, "What's New")
	}
	f.Fuzz(func(t *testing.T, q, heading string) {
		u := unclitic(q)
		if utf8.ValidString(q) && !utf8.ValidString(u) {
			t.Fatalf("unclitic(%q) = %q: invalid UTF-8", q, u)
		}
		if again := unclitic(u); again != u {
			t.Fatalf("unclitic(%q) = %q, then %q", q, u, again)
		}
		ps := map[int64]store.Passage{1: {Level: 2, Heading: heading, Title: "t"}, 2: {Level: 1, Heading: heading, Title: heading}}
		h := sectionHeadings(q, []int64{1, 2}, ps)
		headingPhrases(h)
		if _, _, err := headingWords(bg, h); err != nil {
			t.Fatal(err)
		}
	})
}
