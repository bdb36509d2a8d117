package chunks

import (
	"fmt"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/wordcount"
	"github.com/mdsearch/mdsearch/sections"
)

// words returns n words of filler ending in a full stop every ten words.
func words(n int, tag string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s%d", tag, i)
		if i%10 == 9 {
			b.WriteByte('.')
		}
	}
	return b.String()
}

func split(t *testing.T, src string, opts Options) (*sections.Document, []mdsearch.Chunk) {
	t.Helper()
	doc := sections.Parse("note.md", []byte(src))
	cs := safeSplit(t, doc, opts)
	if err := checkChunks(doc, opts, cs); err != nil {
		t.Fatal(err)
	}
	return doc, cs
}

// paths shows each passage as its label, the other sections it covers
// ("+path") and its part.
// safeSplit is Split with a panic turned into a failure of this test
// only, so that one panic does not hide the other tests' results.
func safeSplit(t testing.TB, doc *sections.Document, opts Options) []mdsearch.Chunk {
	t.Helper()
	cs, err := trySplit(doc, opts)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// trySplit is Split with a panic returned as an error.
func trySplit(doc *sections.Document, opts Options) (cs []mdsearch.Chunk, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("Split panicked: %v\n%s", r, debug.Stack())
		}
	}()
	return Split(doc, opts), nil
}

func paths(cs []mdsearch.Chunk) []string {
	out := []string{}
	for _, c := range cs {
		p := strings.Join(c.SectionPath, "/")
		for i, m := range c.Sections {
			if i > 0 {
				p += " +" + strings.Join(m, "/")
			}
		}
		out = append(out, fmt.Sprintf("%s %d/%d", p, c.Part, c.Parts))
	}
	return out
}

// windowText is the part of a window's embed text that is the note's.
// windowText is w's text without its head, as the store finds it: the
// longest end of EmbedText that c's Text has at the window's start.
func windowText(c mdsearch.Chunk, w mdsearch.Window) string {
	rest := c.Text[w.TextStart:]
	for p := range len(w.EmbedText) {
		if strings.HasPrefix(rest, w.EmbedText[p:]) {
			return w.EmbedText[p:]
		}
	}
	return ""
}

// windowHead is what comes before w's text in its EmbedText.
func windowHead(c mdsearch.Chunk, w mdsearch.Window) string {
	return w.EmbedText[:len(w.EmbedText)-len(windowText(c, w))]
}

func TestSplitShapes(t *testing.T) {
	long := words(60, "w")
	small := Options{MaxTokens: 32, PassageWords: 80}
	tests := []struct {
		name string
		src  string
		opts Options
		want []string
	}{
		{"whole note fits: labelled by its first section", "# T\n\nshort\n\n## A\n\ntext\n", Options{}, []string{"T +T/A 1/1"}},
		{"no headings fits", "just text\n\nmore text\n", Options{}, []string{" 1/1"}},
		{"no headings, over the reading budget", words(700, "x"), Options{}, []string{" 1/3", " 2/3", " 3/3"}},
		{"every heading splits", "# T\n\n" + long + "\n\n## A\n\n" + long + "\n\n### B\n\n" + long + "\n", small,
			[]string{"T 1/1", "T/A 1/1", "T/A/B 1/1"}},
		{"stub merges forward into a deeper section", "# T\n\nstub\n\n## A\n\n" + long + "\n\n## B\n\n" + long + "\n", small,
			[]string{"T +T/A 1/1", "T/B 1/1"}},
		{"stub leads the first part of a section that is cut anyway", "# T\n\nstub\n\n## A\n\n" + long + "\n\n" + long + "\n", small,
			[]string{"T +T/A 1/2", "T/A 2/2"}},
		{"stub does not merge into a higher level", "# T\n\n" + long + "\n\n### S\n\nstub\n\n## A\n\n" + long + "\n", small,
			[]string{"T 1/1", "T/S 1/1", "T/A 1/1"}},
		{"stubs chain", "# T\n\n" + long + "\n\n## A\n\none\n\n## B\n\ntwo\n\n## C\n\n" + long + "\n", small,
			[]string{"T 1/1", "T/A +T/B +T/C 1/1"}},
		{"no stub rule", "# T\n\nstub\n\n## A\n\n" + long + "\n\n" + long + "\n", Options{MaxTokens: 32, PassageWords: 80, StubWords: -1},
			[]string{"T 1/1", "T/A 1/2", "T/A 2/2"}},
		{"preamble", words(60, "p") + "\n\n# T\n\n" + long + "\n", small, []string{" 1/1", "T 1/1"}},
		{"h2h3 keeps a fitting H2 whole", "# T\n\n" + long + "\n\n" + long + "\n\n## A\n\nintro\n\n### B\n\nb text\n\n#### C\n\nc text\n",
			Options{MaxTokens: 32, PassageWords: 80, Profile: ProfileH2H3},
			[]string{"T 1/2", "T 2/2", "T/A 1/1"}},
		{"h2h3 cuts a big H2 at H3, never H4", "# T\n\n" + long + "\n\n## A\n\n" + long + "\n\n### B\n\n" + long + "\n\n#### C\n\nc text\n",
			Options{MaxTokens: 32, PassageWords: 80, Profile: ProfileH2H3},
			[]string{"T 1/1", "T/A 1/1", "T/A/B 1/1"}},
		{"the model's budget does not cut passages", "# T\n\n" + long + "\n\n## A\n\n" + long + "\n", Options{MaxTokens: 8, PassageWords: 200},
			[]string{"T 1/1", "T/A 1/1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, cs := split(t, tt.src, tt.opts)
			if got := paths(cs); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestPassageCuts checks where passages of one section are cut: at the
// coarsest boundary that fits the reading budget, never overlapping, each
// within the budget with its prefix.
func TestPassageCuts(t *testing.T) {
	var paras, list, code, table, sentences strings.Builder
	for i := range 12 {
		fmt.Fprintf(&paras, "%s\n\n", words(40, fmt.Sprintf("p%d_", i)))
		fmt.Fprintf(&list, "- item %d %s\n", i, words(18, "l"))
	}
	for i := range 100 {
		fmt.Fprintf(&code, "x%d := f(%d) // step %d\n", i, i, i)
		fmt.Fprintf(&table, "| row%d | %s |\n", i, words(6, "v"))
	}
	sentences.WriteString(words(500, "s"))
	tests := []struct {
		name  string
		body  string
		opts  Options
		parts int
		// start reports whether a part after the first may start at pos.
		start func(src string, pos int) bool
	}{
		{"paragraphs at paragraph starts", paras.String(), Options{PassageWords: 100}, 6,
			func(src string, pos int) bool { return strings.HasSuffix(src[:pos], "\n\n") }},
		{"a long paragraph at sentence starts", sentences.String(), Options{PassageWords: 100}, 6,
			func(src string, pos int) bool { return strings.HasSuffix(src[:pos], ". ") }},
		{"a list at items", list.String(), Options{PassageWords: 100}, 3,
			func(src string, pos int) bool { return strings.HasPrefix(src[pos:], "- item ") && src[pos-1] == '\n' }},
		{"code at lines", "```go\n" + code.String() + "```\n", Options{PassageWords: 100}, 7,
			func(src string, pos int) bool { return strings.HasPrefix(src[pos:], "x") && src[pos-1] == '\n' }},
		{"a table at rows", "| Name | Value |\n|------|-------|\n" + table.String(), Options{PassageWords: 100}, 12,
			func(src string, pos int) bool { return strings.HasPrefix(src[pos:], "| row") && src[pos-1] == '\n' }},
		{"the default reading budget", sentences.String(), Options{}, 2,
			func(src string, pos int) bool { return strings.HasSuffix(src[:pos], ". ") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "# Long\n\n" + tt.body
			_, cs := split(t, src, tt.opts)
			budget := tt.opts.withDefaults().PassageWords - wordcount.Count("[Long] ")
			if len(cs) != tt.parts {
				t.Errorf("%d passages, want %d", len(cs), tt.parts)
			}
			for i, c := range cs {
				if c.Part != i+1 || c.Parts != len(cs) || !reflect.DeepEqual(c.SectionPath, []string{"Long"}) || c.Sections != nil {
					t.Errorf("passage %d: %q part %d/%d", i, c.SectionPath, c.Part, c.Parts)
				}
				if c.WordCount > budget {
					t.Errorf("passage %d: %d words, over %d", i, c.WordCount, budget)
				}
				if c.WordCount < budget/2 && i < len(cs)-1 {
					t.Errorf("passage %d: only %d words of %d", i, c.WordCount, budget)
				}
				if i > 0 && !tt.start(src, c.StartByte) {
					t.Errorf("passage %d starts at %q", i, src[max(0, c.StartByte-10):c.StartByte+10])
				}
			}
		})
	}
}

func TestBudgetAndOverlap(t *testing.T) {
	src := "# T\n\n## Long\n\n" + words(400, "a") + "\n\n## Next\n\n" + words(400, "b") + "\n"
	for _, max := range []int{16, 32, 64, 128, 256} {
		_, cs := split(t, src, Options{MaxTokens: max})
		windows, overlapped := 0, 0
		for i, c := range cs {
			if i > 0 && c.StartByte < cs[i-1].EndByte {
				t.Errorf("max %d: passage %d overlaps the one before", max, i)
			}
			for j, w := range textWindows(c) {
				windows++
				if w.TokenCount > max {
					t.Errorf("max %d: passage %d window %d has %d tokens", max, i, j, w.TokenCount)
				}
				if j == 0 {
					continue
				}
				if prev := textWindows(c)[j-1]; w.StartByte < prev.EndByte {
					overlapped++
					if n := wordcount.Count(windowText(c, w)[:prev.EndByte-w.StartByte]); n > int(DefaultOverlap*float64(max))*2 {
						t.Errorf("max %d: passage %d window %d repeats %d words", max, i, j, n)
					}
				}
			}
		}
		// Overlap starts at a sentence (ten words here) and takes up to
		// twice Overlap of the budget: small budgets have none.
		if max >= 64 && overlapped < (windows-len(cs))/2 || max < 64 && overlapped > 0 {
			t.Errorf("max %d: only %d of %d windows overlap", max, overlapped, windows)
		}
		_, cs = split(t, src, Options{MaxTokens: max, Overlap: -1})
		for i, c := range cs {
			for j := 1; j < len(textWindows(c)); j++ {
				if textWindows(c)[j].StartByte < textWindows(c)[j-1].EndByte {
					t.Errorf("max %d: passage %d window %d overlaps without overlap", max, i, j)
				}
			}
		}
	}
}

// TestOverlapStarts checks where a window that repeats the end of the one
// before may start: in prose after a sentence end, or at the start of a
// paragraph or list item; elsewhere at a line start; never in a code block.
// Without such a start there is no overlap: windows do not start at a
// mere word.
func TestOverlapStarts(t *testing.T) {
	var code, items, rows, wrapped strings.Builder
	for i := range 60 {
		fmt.Fprintf(&code, "x%d := f(%d) // step %d\n", i, i, i)
		fmt.Fprintf(&items, "- item %d has some words but no full stop\n", i)
		fmt.Fprintf(&rows, "| row%d | a b c d e |\n", i)
		fmt.Fprintf(&wrapped, "line %d of a paragraph that wraps with no stop\n", i)
	}
	sentence := func(src string, pos int) bool { return afterSentenceEnd([]byte(src), pos) }
	lineStart := func(src string, pos int) bool { return src[pos-1] == '\n' }
	tests := []struct {
		name string
		body string
		// overlaps is whether some window must overlap, ok whether an
		// overlapping window may start at pos.
		overlaps bool
		ok       func(src string, pos int) bool
	}{
		{"sentences", words(600, "s"), true, sentence},
		{"no sentence ends", strings.ReplaceAll(words(600, "n"), ".", ""), false, nil},
		{"soft-wrapped lines without sentence ends", wrapped.String(), false, nil},
		{"list items", items.String(), true, func(src string, pos int) bool { return strings.HasPrefix(src[pos:], "- item") && lineStart(src, pos) }},
		{"table rows", "| A | B |\n|---|---|\n" + rows.String(), true, func(src string, pos int) bool { return strings.HasPrefix(src[pos:], "| row") && lineStart(src, pos) }},
		{"code", "```go\n" + code.String() + "```\n", false, nil},
		{"prose then code", words(50, "p") + "\n\n```go\n" + code.String() + "```\n", true, sentence},
		{"code then prose", "```go\n" + code.String() + "```\n\n" + words(300, "q"), true, sentence},
		{"paragraphs without stops", strings.Repeat(strings.ReplaceAll(words(6, "r"), ".", "")+"\n\n", 60), true,
			func(src string, pos int) bool { return strings.HasSuffix(src[:pos], "\n\n") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "# T\n\n" + tt.body
			doc, cs := split(t, src, Options{MaxTokens: 48, PassageWords: 2000, Overlap: 0.15})
			overlapped := 0
			for _, c := range cs {
				for j := 1; j < len(textWindows(c)); j++ {
					w, prev := textWindows(c)[j], textWindows(c)[j-1]
					if w.StartByte >= prev.EndByte {
						continue
					}
					overlapped++
					if b := blockAt(doc, w.StartByte); b != nil && b.Kind == sections.Code {
						t.Errorf("window %d starts inside a code block: %q", j, src[w.StartByte:w.StartByte+10])
					}
					if tt.ok == nil || !tt.ok(src, w.StartByte) {
						t.Errorf("window %d overlaps from %q", j, src[max(0, w.StartByte-10):w.StartByte+10])
					}
				}
			}
			if tt.overlaps && overlapped == 0 {
				t.Error("no window overlaps")
			}
		})
	}
}

func TestEmbedText(t *testing.T) {
	guide := "---\ntitle: Guide\n---\n# Guide\n\n" + words(80, "i") + "\n\n## Setup\n\n" + words(80, "s") + "\n"
	tests := []struct {
		name string
		src  string
		opts Options
		// want is the start of each window's embed text, per passage.
		want [][]string
	}{
		{"a passage per section", guide, Options{PassageWords: 100},
			[][]string{{"[Guide] # Guide\n"}, {"[Guide > Setup] ## Setup\n"}}},
		{"windows of a merged passage take the last section they hold", "# Guide\n\nShort intro.\n\n## Setup\n\n" + words(80, "s"), Options{MaxTokens: 64},
			[][]string{{"[Guide > Setup] # Guide\n", "[Guide > Setup] s"}}},
		{"a title that is not the first heading stays in front of it", "## Other\n\n" + words(200, "o"), Options{MaxTokens: 100},
			[][]string{{"[note > Other] ## Other\n", "[note > Other] o", "[note > Other] o"}}},
		{"no headings", words(10, "x"), Options{}, [][]string{{"[note] x0 "}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, cs := split(t, tt.src, tt.opts)
			var got [][]string
			for _, c := range cs {
				var ws []string
				for _, w := range textWindows(c) {
					ws = append(ws, w.EmbedText)
				}
				got = append(got, ws)
			}
			ok := len(got) == len(tt.want)
			for i := 0; ok && i < len(got); i++ {
				ok = len(got[i]) == len(tt.want[i])
				for j := 0; ok && j < len(got[i]); j++ {
					ok = strings.HasPrefix(got[i][j], tt.want[i][j])
				}
			}
			if !ok {
				t.Errorf("embed texts\n%q\nwant prefixes\n%q", got, tt.want)
			}
			for _, c := range cs {
				for _, w := range textWindows(c) {
					if head := windowHead(c, w); strings.Contains(c.Text, "[") || head == "" || !strings.HasPrefix(head, "[") {
						t.Errorf("head %q of %q", head, w.EmbedText)
					}
				}
			}
		})
	}
	// A heading longer than the budget is shortened in the prefix.
	_, cs := split(t, "# "+words(300, "h")+"\n\n"+words(50, "b"), Options{MaxTokens: 64})
	for _, c := range cs {
		for _, w := range textWindows(c) {
			if head := windowHead(c, w); wordcount.Count(head) > 32 || !strings.HasSuffix(head, "] ") {
				t.Errorf("head %q of %d words", head, wordcount.Count(head))
			}
		}
	}
}

func TestTables(t *testing.T) {
	var b strings.Builder
	b.WriteString("# T\n\n| Name | Value |\n|------|-------|\n")
	for i := range 80 {
		fmt.Fprintf(&b, "| row%d | %s |\n", i, words(6, "v"))
	}
	const header = "| Name | Value |\n|------|-------|\n"
	_, cs := split(t, b.String(), Options{MaxTokens: 64, PassageWords: 200})
	if len(cs) < 3 {
		t.Fatalf("%d passages", len(cs))
	}
	windows := 0
	for i, c := range cs {
		if i > 0 && (!strings.HasPrefix(c.Text, "| row") || strings.Contains(c.Text, "Name")) {
			t.Errorf("passage %d does not start at a row or holds the header: %q", i, c.Text[:20])
		}
		for j, w := range textWindows(c) {
			windows++
			if i == 0 && j == 0 {
				if windowHead(c, w) != "[T] " || !strings.HasPrefix(windowText(c, w), "# T\n\n"+header+"| row0 ") {
					t.Errorf("first window %q", w.EmbedText[:60])
				}
				continue
			}
			if text := windowText(c, w); !strings.HasPrefix(text, "| row") || strings.Contains(text, "Name") {
				t.Errorf("passage %d window %d does not start at a row: %q", i, j, text[:20])
			}
			if head := windowHead(c, w); head != "[T] "+header {
				t.Errorf("passage %d window %d: header not repeated in the embed text: head %q", i, j, head)
			}
		}
	}
	if windows < 2*len(cs) {
		t.Errorf("%d windows in %d passages", windows, len(cs))
	}
}

func TestCodeSplitsAtLines(t *testing.T) {
	var b strings.Builder
	b.WriteString("# T\n\n```go\n")
	for i := range 100 {
		fmt.Fprintf(&b, "\tx%d := f(%d) // step %d\n", i, i, i)
	}
	b.WriteString("```\n")
	_, cs := split(t, b.String(), Options{MaxTokens: 64, PassageWords: 200})
	if len(cs) < 3 {
		t.Fatalf("%d passages", len(cs))
	}
	for i, c := range cs {
		if i > 0 && !strings.HasPrefix(c.Text, "\tx") {
			t.Errorf("passage %d does not start at a line: %q", i, c.Text[:10])
		}
		for j, w := range textWindows(c) {
			if j == 0 {
				continue
			}
			if !strings.HasPrefix(windowText(c, w), "\tx") {
				t.Errorf("passage %d window %d does not start at a line: %q", i, j, windowText(c, w)[:10])
			}
			if w.StartByte < textWindows(c)[j-1].EndByte {
				t.Errorf("passage %d window %d overlaps into code", i, j)
			}
		}
	}
}

func TestUnsplittableRuns(t *testing.T) {
	windows := func(cs []mdsearch.Chunk) int {
		n := 0
		for _, c := range cs {
			n += len(textWindows(c))
		}
		return n
	}
	// With a character counter a long word must be cut, and never exceed:
	// one of non-ASCII text (a script without spaces) is read whole.
	word := strings.Repeat("abcdéfghij", 450)
	_, cs := split(t, "# T\n\n"+word+"\n", Options{MaxTokens: 32, Counter: charCounter{}})
	if len(cs) != 1 || windows(cs) < 10 {
		t.Errorf("a %d-byte word gave %d passages, %d windows", len(word), len(cs), windows(cs))
	}
	// An ASCII word over LongRun bytes (base64, a long URL) is read for its
	// first KeepRun bytes only: one window, whatever its length.
	b64 := strings.Repeat("QUJD", 100_000)
	_, cs = split(t, "# T\n\n![shot](data:"+b64+") and a caption\n", Options{MaxTokens: 32, Counter: charCounter{}})
	if len(cs) != 1 || windows(cs) != 1 || !strings.HasSuffix(cs[0].Windows[0].EmbedText, "![shot](data:"+b64[:KeepRun-len("![shot](data:")]+" and a caption") {
		t.Errorf("a 400 KB ASCII word gave %d passages, %d windows: %.200q", len(cs), windows(cs), cs[0].Windows[0].EmbedText)
	}
	// Estimates that run low make windows shrink, down to characters.
	split(t, "# T\n\n"+word+" "+words(300, "w")+"\n", Options{MaxTokens: 20, Counter: floorCounter{}})
	split(t, "# T\n\n"+b64+" "+words(300, "w")+"\n", Options{MaxTokens: 20, Counter: floorCounter{}})
	// A budget smaller than a heading still terminates and keeps invariants.
	split(t, "# "+words(40, "h")+"\n\n"+words(40, "b"), Options{MaxTokens: 1})
	// So does a reading budget of one word: every passage is a word.
	_, cs = split(t, "# "+words(4, "h")+"\n\n"+words(40, "b"), Options{PassageWords: 1})
	if len(cs) != 45 {
		t.Errorf("one-word passages: %d passages of %d words", len(cs), 45)
	}
}

func TestOptions(t *testing.T) {
	if d := (Options{}).withDefaults(); d.MaxTokens != 128 || d.Counter == nil || d.Profile != ProfileSections || d.Overlap != 0.1 || d.CodeLines != 1 || d.StubWords != 50 || d.PassageWords != 300 {
		t.Errorf("defaults %+v", d)
	}
	if !reflect.DeepEqual(DefaultOptions(), Options{}.withDefaults()) {
		t.Error("DefaultOptions differs from the zero value's defaults")
	}
	if d := (Options{PassageWords: -5}).withDefaults(); d.PassageWords != 300 {
		t.Errorf("negative PassageWords gave %d", d.PassageWords)
	}
	for _, tt := range []struct {
		in string
		ok bool
	}{{"", true}, {"sections", true}, {"h2h3", true}, {"H2H3", false}, {"words", false}} {
		if _, ok := ParseProfile(tt.in); ok != tt.ok {
			t.Errorf("ParseProfile(%q) ok = %v", tt.in, ok)
		}
	}
}

// textWindows is a passage's windows without its heading window.
func textWindows(c mdsearch.Chunk) []mdsearch.Window {
	if n := len(c.Windows); n > 0 && c.Windows[n-1].Heading {
		return c.Windows[:n-1]
	}
	return c.Windows
}
