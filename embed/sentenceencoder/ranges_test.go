package sentenceencoder

import (
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch/internal/wordcount"
)

// rangeHeads are heads as the chunker passes them: none, heading prefixes
// (ASCII and not, some long), a table header, and odd ones.
var rangeHeads = []string{
	"", "[RFC 2094 > Motivation] ", "[Ünïcödé ﬁle > Ｓｅｃｔｉｏｎ] ", " ", "  ", "[a]  ",
	"[Title > Section] | a | b |\n|---|---|\n", "x", "[" + strings.Repeat("word ", 60) + "] ",
}

// breakHeads end with a break, as a table's header rows do before a row
// of the table: the chunker passes them for ranges that start a line.
var breakHeads = []string{
	"[Title > Section] | a | b |\n|---|---|\n", "| a |\n|---|\n", "\n", "x\t", "ﬁ\n", "▁\n", " \n",
}

// rangeCuts are the offsets the chunker cuts ranges at in text: starts of
// words and lines, ends of words.
func rangeCuts(text string) (starts, ends []int) {
	for i := 0; i < len(text); i++ {
		if !isWhite(text[i]) && (i == 0 || isWhite(text[i-1])) {
			starts = append(starts, i)
		}
		if !isWhite(text[i]) && (i+1 == len(text) || isWhite(text[i+1])) {
			ends = append(ends, i+1)
		}
	}
	return starts, ends
}

func isWhite(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// codeGaps are the ranges the chunker's windows leave out of text's fenced
// code blocks: from the end of the opening fence's line to the block's
// last non-blank byte.
func codeGaps(text string) [][2]int {
	var gaps [][2]int
	for i := 0; i < len(text); {
		open := strings.Index(text[i:], "```")
		if open < 0 {
			break
		}
		open += i
		eol := strings.IndexByte(text[open:], '\n')
		if eol < 0 {
			break
		}
		eol += open
		end := strings.Index(text[eol:], "\n```")
		if end < 0 {
			break
		}
		end += eol + 4
		for end < len(text) && text[end] == '`' {
			end++
		}
		gaps = append(gaps, [2]int{eol, end})
		i = end
	}
	return gaps
}

// checkRanges compares CountRange with Count on n ranges of text, mostly
// cut where the chunker cuts, some anywhere (across the gaps of skip too),
// and returns how many the running totals answered, and how many gaps the
// walk left out.
func checkRanges(t *testing.T, tok *Tokenizer, text string, skip [][2]int, rng *rand.Rand, n int) (fast, gaps int) {
	t.Helper()
	// Reuse running totals another text left: offsets a walk does not set
	// (as in gaps) must never be read.
	junk := tok.Ranges(strings.Repeat("zz 9 ", len(text)/5+1), nil)
	junk.Release()
	r := tok.Ranges(text, skip).(*ranges)
	defer r.Release()
	starts, ends := rangeCuts(text)
	for range n {
		var a, b int
		if len(starts) > 0 && rng.IntN(8) > 0 {
			a = starts[rng.IntN(len(starts))]
			k := sortSearch(ends, a) + rng.IntN(60)
			if k >= len(ends) {
				continue
			}
			b = ends[k]
		} else if len(text) > 0 {
			a = rng.IntN(len(text))
			b = a + rng.IntN(len(text)-a) + 1
			if rng.IntN(4) == 0 {
				b = a // the head alone
			}
		}
		head := rangeHeads[rng.IntN(len(rangeHeads))]
		if a > 0 && text[a-1] == '\n' && rng.IntN(2) == 0 {
			head = breakHeads[rng.IntN(len(breakHeads))]
		}
		want := tok.Count(head + text[a:b])
		if got := r.CountRange(head, a, b); got != want {
			t.Fatalf("CountRange(%q, %d, %d) = %d, Count = %d; text %q", head, a, b, got, want, text[a:b])
		}
		if _, ok := r.count(head, a, b); ok {
			fast++
		}
	}
	return fast, len(r.usableGaps(skip))
}

func sortSearch(xs []int, v int) int {
	lo, hi := 0, len(xs)
	for lo < hi {
		m := (lo + hi) / 2
		if xs[m] <= v {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// TestRangesMatchCountOnCorpus holds CountRange to Count on ranges of every
// note of the benchmark corpus, and checks that the running totals answer
// most of the ranges the chunker asks for.
func TestRangesMatchCountOnCorpus(t *testing.T) {
	tok := testTokenizer(t)
	docs := corpusTexts(t)
	rng := rand.New(rand.NewPCG(3, 4))
	checked, fast, nonASCII, gaps := 0, 0, 0, 0
	for i, doc := range docs {
		if testing.Short() && i%10 > 1 { // a note of each kind below
			continue
		}
		var skip [][2]int
		if i%2 == 1 { // every other note leaves its code out
			skip = codeGaps(doc)
		}
		n := 60
		f, g := checkRanges(t, tok, doc, skip, rng, n)
		fast, gaps, checked = fast+f, gaps+g, checked+n
		if !isASCII(doc) {
			nonASCII++
		}
	}
	t.Logf("%d ranges of %d notes (%d not ASCII, %d code blocks left out), %d answered from running totals", checked, len(docs), nonASCII, gaps, fast)
	if nonASCII == 0 || gaps == 0 || fast < checked/2 {
		t.Errorf("running totals answered %d of %d ranges", fast, checked)
	}
}

// TestRangesHeadAlone counts heads alone, as the chunker counts heading
// prefixes (ending with a space) and heading windows (the prefix without
// it), after the prefix was counted and before.
func TestRangesHeadAlone(t *testing.T) {
	tok := testTokenizer(t)
	r := tok.Ranges("some note text\n", nil)
	defer r.Release()
	for _, prefix := range []string{"[RFC 2094 > Motivation] ", "[Ünïcödé ﬁle > Ｓｅｃｔｉｏｎ] ", "[a]  ", "\u0301x ", "[x\t] ", "x "} {
		head := prefix[:len(prefix)-1]
		for _, h := range []string{head, prefix, head} {
			if got, want := r.CountRange(h, 3, 3), tok.Count(h); got != want {
				t.Errorf("CountRange(%q) alone = %d, Count = %d", h, got, want)
			}
		}
	}
}

// TestRangesEdges covers texts the corpus has few of.
func TestRangesEdges(t *testing.T) {
	tok := testTokenizer(t)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, text := range []string{
		"", "a", " ", "a  b", "tab\tand\nnewline\r\nend", "\u0301 leading mark \u0301x y",
		"ﬁne ﬂow ＦＵＬＬ　ｗｉｄｔｈ ①②③ ㎏", "e\u0301 n\u0303 a\u030a", "\u00a0nbsp\u2009thin x\u00a0y",
		"▁literal▁separator ▁ x▁", "\x00\x01\x7f \x02x", "emoji 🎉👍🏽 👨‍👩‍👧 done",
		"\xff\xfe invalid \xc3 bytes", "```rust\nfn main() {}\n```\n\nText after.\n\n| a | b |\n|---|---|\n| 1 | 2 |",
		strings.Repeat("supercalifragilistic ", 200),
		"a ```go\nx := 1\n```  \nafter ```\n\t\n```\r\nend ```\nno break```tail",
	} {
		checkRanges(t, tok, text, nil, rng, 300)
		checkRanges(t, tok, text, codeGaps(text), rng, 300)
		checkRanges(t, tok, text, [][2]int{{1, 3}, {2, 5}, {0, len(text)}, {len(text) / 2, len(text)}}, rng, 100)
	}
}

// FuzzRanges holds CountRange to Count on any text, head and range: a
// range anywhere, or (odd a) one cut where the chunker cuts; the walk
// leaves the text's code out, as the chunker has it do.
func FuzzRanges(f *testing.F) {
	for _, s := range []string{"a b", "x\ny z", "ﬁne ﬂow", "\u0301x y", "| a |\n|---|\n| b |", "a  b\tc", "t ```x\ny z\n```\nw v"} {
		f.Add(s, "[T > S] ", uint16(0), uint16(3))
		f.Add(s, "", uint16(1), uint16(2))
	}
	tok := testTokenizer(f)
	for _, h := range breakHeads {
		f.Add("a\nb c\n| d |", h, uint16(3), uint16(2))
	}
	f.Fuzz(func(t *testing.T, text, head string, a, b uint16) {
		starts, ends := rangeCuts(text)
		var start, end int
		switch {
		case a%2 == 1 && len(starts) > 0 && len(ends) > 0:
			start, end = starts[int(a/2)%len(starts)], ends[int(b)%len(ends)]
		case len(text) > 0:
			start, end = int(a)%len(text), int(b)%(len(text)+1)
		}
		if start > end {
			start, end = end, start
		}
		junk := tok.Ranges(strings.Repeat("\n", len(text))+head, nil)
		junk.Release()
		r := tok.Ranges(text, codeGaps(text))
		defer r.Release()
		if got, want := r.CountRange(head, start, end), tok.Count(head+text[start:end]); got != want {
			t.Fatalf("CountRange(%q, %d, %d) of %q = %d, Count = %d", head, start, end, text, got, want)
		}
	})
}

// BenchmarkRanges is Ranges over every note of the corpus (the walk the
// chunker makes once a note), next to Count of each whole note (the same
// words through the count path) and CountWords (the floor: a pass over
// the bytes), interleaved so that a shared machine's slow spells fall on
// all three alike. Metrics are MB/s of notes.
func BenchmarkRanges(b *testing.B) {
	tok := testTokenizer(b)
	docs := corpusTexts(b)
	total := 0
	for _, d := range docs {
		total += len(d)
	}
	stages := []struct {
		name string
		run  func(string)
	}{
		{"ranges", func(s string) { tok.Ranges(s, nil).Release() }},
		{"count", func(s string) { tok.Count(s) }},
		{"words", func(s string) { wordcount.Count(s) }},
	}
	used := make([]time.Duration, len(stages))
	for b.Loop() {
		for k, st := range stages {
			start := time.Now()
			for _, d := range docs {
				st.run(d)
			}
			used[k] += time.Since(start)
		}
	}
	for k, st := range stages {
		b.ReportMetric(float64(total)*float64(b.N)/used[k].Seconds()/1e6, st.name+"-MB/s")
	}
}

// longTails are the ranges the chunker's windows leave out of text's long
// runs: an ASCII word of over 512 bytes past its first 64.
func longTails(text string) [][2]int {
	var tails [][2]int
	for i := 0; i < len(text); {
		for i < len(text) && isWhite(text[i]) {
			i++
		}
		j := i
		for j < len(text) && !isWhite(text[j]) {
			j++
		}
		if j-i > 512 && isASCII(text[i:j]) {
			tails = append(tails, [2]int{i + 64, j})
		}
		i = j
	}
	return tails
}

// TestRangesLongRunTails leaves the tails of long runs out of the walk,
// though they start inside a word, whatever follows them (a line break,
// spaces and words, the end of the text), and still counts every range
// exactly. A word that is not ASCII is walked whole.
func TestRangesLongRunTails(t *testing.T) {
	tok := testTokenizer(t)
	rng := rand.New(rand.NewPCG(7, 8))
	run := strings.Repeat("*a_", 300)
	b64 := strings.Repeat("iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB+/=", 40)
	for _, c := range []struct {
		text string
		gaps int
	}{
		{"# E\n\n" + run + "\n", 1},
		{"# E\n\n" + run + "\nmore text\n\n" + run + "\r\nend", 2},
		{"see ![x](data:image/png;base64," + b64 + ") and then some words", 1},
		{"see " + b64 + "    and   then\tsome words", 1},
		{"see " + b64 + "  \n  next line", 1},
		{"tail: " + b64, 1},
		{"tail: " + b64 + "   ", 1},
		{run, 1},
		{"a ```js\n" + b64 + "\nx = 1\n```\nafter " + run + " and " + b64 + "\n", 3},
		{"x\x01" + run + " y", 1},
		{"ﬁne ﬂow " + b64 + " ＦＵＬＬ　ｗｉｄｔｈ " + run, 2},
	} {
		tails := longTails(c.text)
		if _, gaps := checkRanges(t, tok, c.text, tails, rng, 400); gaps != c.gaps {
			t.Errorf("%d of %d tails left out of the walk, want %d; text %.80q", gaps, len(tails), c.gaps, c.text)
		}
		checkRanges(t, tok, c.text, append(codeGaps(c.text), tails...), rng, 100)
	}
	// Not ASCII: normalisation may change the word's bytes.
	text := "x ünïcode" + run + " word"
	if _, gaps := checkRanges(t, tok, text, [][2]int{{64, len(text) - 5}}, rng, 200); gaps != 0 {
		t.Errorf("the tail of a word that is not ASCII was left out of the walk")
	}
}

// TestRangesLongRunMemory prepares a note that is one 2 MB word, its tail
// left out: the running totals are all it allocates. Walked whole, the
// word's lattice took 20 bytes and more a byte (a 9 MB word, 265 MB).
func TestRangesLongRunMemory(t *testing.T) {
	tok := testTokenizer(t)
	text := "# E\n\n" + strings.Repeat("*a_", 700_000) + "\n"
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := tok.Ranges(text, longTails(text))
	runtime.ReadMemStats(&after)
	if got, want := r.CountRange("", 0, 3), tok.Count("# E"); got != want {
		t.Errorf("CountRange = %d, Count = %d", got, want)
	}
	r.Release()
	totals := uint64(8 * (len(text) + 1))
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > totals+1<<20 {
		t.Errorf("preparing a %d-byte word allocated %d MB (its running totals: %d MB)", len(text), alloc>>20, totals>>20)
	}
}

// FuzzRangesGaps holds CountRange to Count when the walk leaves out any
// range of the text, as usableGaps allows: starting at a space, a break or
// inside an ASCII word, and resuming at a break, a space or the end.
func FuzzRangesGaps(f *testing.F) {
	for _, s := range []string{"a b", "x\ny z", "ab cd ef\ngh", "ﬁne ﬂow x", "a\x01bc d", "abc   def\n"} {
		f.Add(s, "[T > S] ", uint16(1), uint16(2), uint16(0), uint16(3))
		f.Add(s, "", uint16(2), uint16(6), uint16(3), uint16(2))
	}
	tok := testTokenizer(f)
	f.Fuzz(func(t *testing.T, text, head string, g0, g1, a, b uint16) {
		if text == "" {
			return
		}
		start, end := int(a)%len(text), int(b)%(len(text)+1)
		if start > end {
			start, end = end, start
		}
		gap := [2]int{int(g0) % len(text), int(g1) % (len(text) + 1)}
		junk := tok.Ranges(strings.Repeat("zz 9 ", len(text)/5+1), nil)
		junk.Release()
		r := tok.Ranges(text, [][2]int{gap})
		defer r.Release()
		if got, want := r.CountRange(head, start, end), tok.Count(head+text[start:end]); got != want {
			t.Fatalf("CountRange(%q, %d, %d) of %q, gap %v = %d, Count = %d", head, start, end, text, gap, got, want)
		}
	})
}
