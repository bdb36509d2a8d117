package store

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/mdsearch/mdsearch/internal/testenv"
)

// sameMatches compares the Go path's answer with the scratch table's:
// the same rows for each expression, the same columns, the same bm25
// within 1e-9 of it.
func sameMatches(tb testing.TB, exprs []string, got, want []map[int64]FieldScores) {
	tb.Helper()
	for i, e := range exprs {
		if len(got[i]) != len(want[i]) {
			tb.Errorf("%s: %d rows in Go, %d in the scratch table", e, len(got[i]), len(want[i]))
		}
		for id, w := range want[i] {
			g, ok := got[i][id]
			if !ok {
				tb.Errorf("%s: row %d not matched in Go (scratch table: %v)", e, id, w)
				continue
			}
			for c := range g {
				if math.Abs(g[c]-w[c]) > 1e-9*math.Abs(w[c]) {
					tb.Errorf("%s: row %d column %d: bm25 %v in Go, %v in the scratch table", e, id, c, g[c], w[c])
				}
			}
		}
	}
}

// corpusRows are up to n keyword rows made from the markdown notes under
// dir: each section a row (its text, heading, the note's name as title,
// its folder as tags), prepared as indexing prepares them.
func corpusRows(tb testing.TB, dir string, n int) map[int64][4]string {
	tb.Helper()
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		testenv.Absent(tb, "no notes under %s", dir)
	}
	slices.Sort(files)
	rows := map[int64][4]string{}
	// Every few notes, so the rows span the corpus (three from each).
	for i := 0; i < len(files) && len(rows) < n; i += max(1, len(files)/(n/3+1)) {
		src, err := os.ReadFile(files[i])
		if err != nil {
			tb.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, files[i])
		heading := ""
		for sec := range strings.SplitSeq("\n"+string(src), "\n#") {
			line, body, _ := strings.Cut(sec, "\n")
			if len(rows) >= n {
				break
			}
			if strings.TrimSpace(body) != "" {
				rows[int64(len(rows)+1)] = [4]string{KeywordText(body), KeywordText(heading),
					KeywordText(strings.TrimSuffix(rel, ".md")), KeywordText(filepath.Dir(rel))}
			}
			heading = strings.TrimLeft(line, "# ")
		}
	}
	return rows
}

// wordsOf are the words of rows' text columns as a person would type
// them: runs of letters, digits and marks, every step-th one.
func wordsOf(rows map[int64][4]string, step int) []string {
	ids := make([]int64, 0, len(rows))
	for id := range rows {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var out []string
	k := 0
	for _, id := range ids {
		for _, w := range strings.FieldsFunc(rows[id][0], func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsNumber(r) && !unicode.IsMark(r)
		}) {
			if k++; k%step == 0 {
				out = append(out, w)
			}
		}
	}
	return out
}

// queryExprs are the expressions the second stage asks for words: each
// word, a prefix of some, and each adjacent pair as a phrase and NEAR.
func queryExprs(words []string) []string {
	var out []string
	for i, w := range words {
		out = append(out, `"`+w+`"`)
		if r := []rune(w); len(r) > 3 && i%3 == 0 {
			out = append(out, `"`+string(r[:len(r)-2])+`"*`)
		}
		if i > 0 {
			a, b := `"`+words[i-1]+`"`, `"`+w+`"`
			out = append(out, a+" + "+b, "NEAR("+a+" "+b+", 8)")
		}
	}
	return out
}

// unusualRows hold what the Go reading must split and fold as unicode61
// does: diacritics composed and not, CJK as KeywordText spaces it, emoji,
// digits, underscores, apostrophes, hyphens, scripts with marks.
var unusualRows = map[int64][4]string{
	1: {KeywordText("Café au lait, a naïve résumé; cafe\u0301 decomposed, CAFÉ shouted. Ünïcödé Ærøskøbing Straße"), "Café", "Drinks", "food/café"},
	2: {KeywordText("日本語のテキストと中文分词，한국어 문장입니다. ภาษาไทย 🦀 rust 🎉 party 👩‍💻 coder"), KeywordText("日本語"), "Scripts", ""},
	3: {"v1.2.3 released 2024-01-01; 0x1F and 3.14159, 1st 2nd 10x faster, ½ ² ⅻ", "Numbers 101", "Release notes", "v1"},
	4: {"snake_case_name and __init__ or CONST_VALUE; don't it’s rock'n'roll O’Brien", "Code_style", "Style guide", "code_style"},
	5: {"well-known e-mail co-operate — dash – en dash … ellipsis «quotes» “curly”", "Hyphen-ated", "Punctuation", ""},
	6: {"Ελληνικά κείμενα, русский текст, العربية النص, हिन्दी पाठ, עברית", "Αλφάβητο", "Alphabets", ""},
	7: {"the sourdough starter needs rye flour, fed daily; rye bread with a starter", "Rye starter", "Baking bread", "bread"},
	8: {"Zürich Zurich zurich ZÜRICH Ångström angstrom œuvre Œuvre ŀl ŉ ǅ ﬁ ligature", "Zürich", "Places", ""},
}

var unusualExprs = []string{`"café"`, `"cafe"`, `"cafe\u0301"`, `"CAFÉ"`, `"naïve"`, `"naive"*`, `"resume"`, `"unicode"`,
	`"ærøskøbing"`, `"strasse"`, `"straße"`, `"日"`, `"日本"`, `"日 本"`, `"本" + "語"`, `NEAR("日" "語", 1)`, `"한국어"`, `"문장"*`,
	`"ภาษาไทย"`, `"rust"`, `"🦀"`, `"🦀 rust"`, `"coder"`, `"v1"`, `"1"`, `"2"`, `"3"`, `"v1 2 3"`, `"2024"`, `"0x1f"`, `"3"*`,
	`"1st"`, `"10x"`, `"½"`, `"²"`, `"snake"`, `"snake_case_name"`, `"init"`, `"const"*`, `"don't"`, `"don"`, `"t"`, `"it’s"`,
	`"rock'n'roll"`, `"o’brien"`, `"brien"`, `"well-known"`, `"well" + "known"`, `"e-mail"`, `"mail"*`, `"co"*`, `"dash"`,
	`"ellipsis"`, `"quotes"`, `"curly"`, `"ελληνικά"`, `"ελληνικα"`, `"русский"`, `"текст"*`, `"العربية"`, `"हिन्दी"`, `"पाठ"`,
	`"עברית"`, `"zurich"`, `"zürich"*`, `"angstrom"`, `"ångström"`, `"oeuvre"`, `"œuvre"`, `"ﬁ"`, `"fi"`, `"ligature"`,
	`NEAR("rye" "starter", 8)`, `NEAR("starter" "rye", 2)`, `NEAR("rye" "starter" "bread", 3)`, `NEAR("rye" "daily")`,
	`"rye" + "flour"`, `"sourdough starter"`, `"starter"`, `"start"*`, `"bread"`, `"baking"`, `"bake"*`, `rye`, `rye*`,
	`"rye flour"*`, `"fed" + "daily"*`, `NEAR("rye flour" "bread", 5)`, `"rye"* + "flour"`, `NEAR("rye" "flour", 0)`,
	`NEAR("rye" "flour",8)`, `NEAR( "rye"  "flour" , 8 )`, `"rye"+"flour"`, `rye+flour*`, `NEAR(rye flour)`, `NEAR("rye"* "fl"*, 3)`}

// TestMatchFieldsInGo: on real notes and on text of every kind, the Go
// reading answers every expression, as the scratch table does.
func TestMatchFieldsInGo(t *testing.T) {
	cases := []struct {
		name  string
		rows  map[int64][4]string
		exprs []string
	}{
		{"unusual", unusualRows, unusualExprs},
		{"rust-book", corpusRows(t, testenv.Corpora("rust-book", "src"), 60), nil},
		{"vue-docs", corpusRows(t, testenv.Corpora("vue-docs", "vault"), 60), nil},
		{"obsidian-help", corpusRows(t, testenv.Corpora("obsidian-help", "en"), 60), nil},
		{"rust-rfcs", corpusRows(t, testenv.Corpora("rust-rfcs", "text"), 60), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			exprs := tc.exprs
			if exprs == nil {
				words := wordsOf(tc.rows, 97)
				// Within SQLite's 500 terms of a compound SELECT.
				exprs = append(queryExprs(words[:min(len(words), 80)]), unusualExprs...)
			}
			got, err := matchInGo(ctx, exprs, tc.rows)
			if err != nil {
				t.Fatalf("Go path: %v", err)
			}
			want, err := matchScratch(ctx, exprs, tc.rows)
			if err != nil {
				t.Fatal(err)
			}
			sameMatches(t, exprs, got, want)
			var matched int
			for _, m := range want {
				matched += len(m)
			}
			if matched < len(exprs)/2 {
				t.Errorf("%d matches for %d expressions: the test asks too little", matched, len(exprs))
			}
		})
	}
}

// Shapes the Go path does not read are left to the scratch table, with
// its answer (or its error).
func TestMatchFieldsFallBack(t *testing.T) {
	rows := map[int64][4]string{1: {"rye bread", "", "", ""}, 2: {"rye\x00flour", "", "", ""}, 3: {"bad \xff byte", "", "", ""}}
	for _, exprs := range [][]string{{`rye OR bread`}, {`text:rye`}, {`"rye" "bread"`}, {`NEAR("rye")`}, {`"say ""hi"""`},
		{`"!!"`}, {`"rye"`}, {`^rye`}} {
		if _, err := matchInGo(ctx, exprs, rows); !errors.Is(err, errNotInGo) {
			t.Errorf("%q: Go path answered (%v)", exprs, err)
		}
		got, err := matchKeywordRows(ctx, exprs, rows)
		want, werr := matchScratch(ctx, exprs, rows)
		if (err == nil) != (werr == nil) {
			t.Fatalf("%q: error %v, the scratch table's %v", exprs, err, werr)
		}
		if err == nil {
			sameMatches(t, exprs, got, want)
		}
	}
}

// Every ASCII character reads as the Go path takes it: letters and digits
// in tokens, the rest between them.
func TestFieldTokenizerASCII(t *testing.T) {
	var runes []rune
	for c := rune(1); c < 128; c++ {
		runes = append(runes, c)
	}
	got, err := learnRunes(ctx, runes)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runes {
		want := classSep
		if asciiWord[r] {
			want = classWord
		}
		if got[r] != want {
			t.Errorf("%q: class %d, the Go path takes %d", r, got[r], want)
		}
	}
	// And a few others, as SQLite's tables have them.
	for r, want := range map[rune]uint8{'é': classWord, '\u0301': classMark, '’': classSep, '日': classWord,
		'🎉': classSep, '🦀': classWord /* newer than SQLite's tables */, '\u0378': classWord /* unassigned */, '\u093f': classSep /* a Devanagari vowel sign */} {
		if got, err := learnRunes(ctx, []rune{r}); err != nil || got[r] != want {
			t.Errorf("%U: class %d (%v), want %d", r, got[r], err, want)
		}
	}
}

// FuzzMatchFields: for any text and expressions made of its words, the Go
// path answers as the scratch table does, or leaves it to it.
func FuzzMatchFields(f *testing.F) {
	for _, r := range unusualRows {
		f.Add(r[0], r[1], r[2], uint16(7))
	}
	f.Add("rye rye rye starter rye", "starter rye", "rye", uint16(1))
	f.Add("a b a b a b c a", "b a", "", uint16(0))
	f.Add("c日b a éa ", "b aaa baéb abaryeb é xa b a b日 日a b", "   b a aaryex", uint16(12)) // NEAR with phrase lengths
	f.Fuzz(fuzzOne)
}

func fuzzOne(t *testing.T, text, heading, title string, seed uint16) {
	{
		rows := map[int64][4]string{1: {text, heading, title, ""}, 2: {heading, text, "", title},
			3: {title + " " + text, "", heading, ""}, 4: {"unrelated words here", "", "", text}}
		words := strings.FieldsFunc(text+" "+heading, func(r rune) bool {
			return r == '"' || unicode.IsSpace(r) || unicode.IsPunct(r) && seed&1 == 0
		})
		if len(words) > 12 {
			words = words[:12]
		}
		exprs := queryExprs(words)
		for i := 1; i < len(words); i++ {
			n := int(seed>>2) % 12
			exprs = append(exprs, fmt.Sprintf(`NEAR("%s" "%s", %d)`, words[i], words[i-1], n),
				fmt.Sprintf(`"%s %s"`, words[i-1], words[i]))
			// Phrases of two tokens, and phrases that start alike.
			exprs = append(exprs, fmt.Sprintf(`NEAR("%s" "%s", %d)`, words[i], words[i], n),
				fmt.Sprintf(`NEAR("%s" "%s" + "%s", %d)`, words[i-1], words[i-1], words[i], n))
			if i > 1 {
				exprs = append(exprs, fmt.Sprintf(`NEAR("%s" "%s" + "%s" "%s"*, %d)`, words[i-2], words[i-1], words[i], words[i], n))
			}
		}
		if len(exprs) == 0 {
			return
		}
		want, err := matchScratch(ctx, exprs, rows)
		if err != nil {
			return // not an expression FTS5 reads
		}
		got, err := matchInGo(ctx, exprs, rows)
		if errors.Is(err, errNotInGo) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		sameMatches(t, exprs, got, want)
	}
}

// BenchmarkMatchFields times the second stage's matches on 50 sections of
// the Rust RFCs, a query of four words (four terms, three pairs as a
// phrase and NEAR), read in Go and in the scratch table; cold: as a fresh
// process's first search, with no stems or characters remembered and no
// scratch connection made. The rows' reading from the index, common to
// both, is left out.
func BenchmarkMatchFields(b *testing.B) {
	rows := corpusRows(b, testenv.Corpora("rust-rfcs", "text"), 50)
	terms := []string{`"trait"`, `"object"`, `"dispatch"`, `"lifetim"*`}
	exprs := append([]string(nil), terms...)
	for i := 0; i+1 < 3; i++ {
		exprs = append(exprs, terms[i]+" + "+terms[i+1], "NEAR("+terms[i]+" "+terms[i+1]+", 8)")
	}
	for _, path := range []string{"go", "scratch", "go-cold", "scratch-cold"} {
		b.Run(path, func(b *testing.B) {
			for b.Loop() {
				if strings.HasSuffix(path, "-cold") {
					b.StopTimer()
					forget()
					b.StartTimer()
				}
				var err error
				if strings.HasPrefix(path, "go") {
					_, err = matchInGo(ctx, exprs, rows)
				} else {
					_, err = matchScratch(ctx, exprs, rows)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// forget clears the remembered stems and character classes, and closes
// the scratch connections kept.
func forget() {
	stemCache.Lock()
	clear(stemCache.m)
	stemCache.Unlock()
	runeClasses.Lock()
	clear(runeClasses.m)
	runeClasses.Unlock()
	for {
		select {
		case c := <-scratch.free:
			scratch.put(c, false)
		default:
			return
		}
	}
}
