package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/wordcount"
)

// TestSearchConcurrencyIsBounded: however many searches arrive at once, no
// more than GOMAXPROCS embed their query at the same time; the rest wait.
func TestSearchConcurrencyIsBounded(t *testing.T) {
	var inFlight, peak atomic.Int64
	emb := &gated{bow: newBow("bow")}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), emb)
	index(t, e, copyDir(t, sampleVault), "s")
	emb.gate = func(int64) error {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		time.Sleep(5 * time.Millisecond)
		return nil
	}
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			if _, err := e.Search(bg, mdsearch.SearchRequest{Query: "starter", Mode: mdsearch.ModeSemantic}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if max := int64(runtime.GOMAXPROCS(0)); peak.Load() > max || peak.Load() == 0 {
		t.Errorf("peak of %d concurrent query embeddings, limit %d", peak.Load(), max)
	}
	ctx, cancel := context.WithCancel(bg)
	for range cap(work) {
		work <- struct{}{}
	}
	cancel()
	_, err := e.Search(ctx, mdsearch.SearchRequest{Query: "starter"})
	for range cap(work) {
		<-work
	}
	if err == nil {
		t.Error("a search whose client left still ran")
	}
}

// TestReadHint: the rest of a cut result is named by its lines, which
// read exactly what was left out.
func TestReadHint(t *testing.T) {
	for _, tt := range []struct {
		r    mdsearch.Result
		want string
	}{
		{mdsearch.Result{Collection: "notes", Path: "a.md", SectionPath: []string{"A", "B"}}, `cut to fit the token budget, 3 more lines: read notes:a.md, lines 10-12`},
		{mdsearch.Result{Path: "a.md", SectionPath: []string{"A"}, Sections: [][]string{{"A"}, {"A", "B"}}},
			`cut to fit the token budget, 3 more lines: read a.md, lines 10-12`},
	} {
		if got := readHint(tt.r, "cut to fit the token budget", 10, 12); got != tt.want {
			t.Errorf("readHint(%+v) = %q, want %q", tt.r, got, tt.want)
		}
	}
}

// TestFitBudget: whole results while they fit, the next cut at a block
// with the lines of the rest, the others dropped and counted; a first
// result of one block over the budget is cut inside it.
func TestFitBudget(t *testing.T) {
	para := strings.Repeat("word ", 20) // about 26 tokens
	rs := func() []mdsearch.Result {
		return []mdsearch.Result{
			{Path: "a.md", Text: para, StartLine: 1, EndLine: 1},
			{Path: "b.md", Text: para + "\n\n" + para + "\n\n" + para, StartLine: 10, EndLine: 14},
			{Path: "c.md", Text: para, StartLine: 1, EndLine: 1},
		}
	}
	r := rs()
	budget := EstimateTokens(para) + frameTokens(r[0]) + frameTokens(r[1]) + hintTokens(r[1]) + EstimateTokens(para) + 2 // a, and b's first block
	got, dropped := fitBudget(r, budget, nil, ends(r))
	if len(got) != 2 || dropped != 1 || !got[1].Truncated || got[1].EndLine != 10 ||
		got[1].ReadHint != "cut to fit the token budget, 4 more lines: read b.md, lines 11-14" ||
		got[1].RestFrom != 11 || got[1].RestTo != 14 {
		t.Errorf("budget %d: %d kept, %d dropped, %+v", budget, len(got), dropped, got[len(got)-1])
	}
	// One block over the budget is cut inside, at a word; the rest starts
	// on its line. A budget that holds no words still keeps a dozen.
	for _, budget := range []int{10, 200} {
		one := []mdsearch.Result{{Path: "h.md", Text: strings.Repeat("word ", 300), StartLine: 5, EndLine: 5}}
		got, dropped := fitBudget(one, budget, nil, ends(one))
		words := wordcount.Count(got[0].Text)
		fits := EstimateTokens(got[0].Text)+frameTokens(got[0]) <= budget && words > 100
		if len(got) != 1 || dropped != 0 || !got[0].Truncated || words != minWords && !fits ||
			got[0].ReadHint != "cut to fit the token budget, 1 more line: read h.md, lines 5-5" {
			t.Errorf("budget %d, one block over it: %d words, %+v, %d dropped", budget, words, got, dropped)
		}
	}
	// A block of no more than a dozen words is whole, and not called cut.
	short := []mdsearch.Result{{Path: "t.md", Text: "# T\n\ncolon note", StartLine: 1, EndLine: 3}}
	if got, _ := fitBudget(short, 5, nil, ends(short)); got[0].Truncated || got[0].Text != "# T\n\ncolon note" {
		t.Errorf("a short block cut: %+v", got[0])
	}
	// Two parts of one long line joined into one result gained a line
	// break: the lines a cut names stay within the passage's.
	joined := []mdsearch.Result{{Path: "j.md", Text: "## Long\n\n" + strings.Repeat("word ", 200) + "\n" + strings.Repeat("more ", 200),
		StartLine: 5, EndLine: 7}}
	if got, _ := fitBudget(joined, 400, nil, ends(joined)); !got[0].Truncated || got[0].EndLine > 7 || got[0].RestFrom > got[0].RestTo {
		t.Errorf("joined parts cut: lines %d-%d, rest %d-%d", got[0].StartLine, got[0].EndLine, got[0].RestFrom, got[0].RestTo)
	}
	// At a sentence, when one ends in the second half of what fits.
	long := []mdsearch.Result{{Path: "s.md", Text: strings.Repeat("Some words here. ", 100), StartLine: 1, EndLine: 1}}
	if got, _ := fitBudget(long, 100, nil, ends(long)); !strings.HasSuffix(got[0].Text, "here.") {
		t.Errorf("cut %q, want it at a sentence", got[0].Text)
	}
	if got, dropped := fitBudget(rs(), 0, nil, nil); len(got) != 3 || dropped != 0 {
		t.Errorf("no budget: %d kept, %d dropped", len(got), dropped)
	}
}

// ends are the results' own last lines, as capResults returns them when
// it cuts none.
func ends(rs []mdsearch.Result) []int {
	out := make([]int, len(rs))
	for i, r := range rs {
		out[i] = r.EndLine
	}
	return out
}

// TestFitBudgetMerged: a merged result cut inside its second passage
// names chunks up to that one, not the third it no longer shows.
func TestFitBudgetMerged(t *testing.T) {
	para := strings.Repeat("word ", 20)
	r := []mdsearch.Result{{Path: "m.md", ChunkIndex: 6, ChunkEnd: 8, TotalChunks: 16, StartLine: 10, EndLine: 14,
		Text: para + "\n\n" + para + "\n\n" + para}}
	joins := seams{keyOf(r[0]): {{line: 12, chunk: 7, at: len(para) + 2}, {line: 14, chunk: 8, at: 2*len(para) + 4}}}
	for _, tt := range []struct{ budget, end, chunkEnd int }{
		{EstimateTokens(para) + frameTokens(r[0]) + hintTokens(r[0]) + 2, 10, 0},   // the first passage alone
		{2*EstimateTokens(para) + frameTokens(r[0]) + hintTokens(r[0]) + 4, 12, 7}, // and the second
	} {
		rs := slices.Clone(r)
		got, _ := fitBudget(rs, tt.budget, joins, ends(rs))
		if !got[0].Truncated || got[0].EndLine != tt.end || got[0].ChunkEnd != tt.chunkEnd {
			t.Errorf("budget %d: lines to %d, chunk end %d; want %d, %d", tt.budget, got[0].EndLine, got[0].ChunkEnd, tt.end, tt.chunkEnd)
		}
	}
}

// TestCutNeverEndsOnHeading: a result cut to a budget keeps whole blocks,
// and a heading only with the block under it.
func TestCutNeverEndsOnHeading(t *testing.T) {
	text := "# Backups\n\nEvery machine is backed up nightly.\n\n## Restore Drill\n\n" + strings.Repeat("word ", 200)
	for _, budget := range []int{10, 20, 40} {
		got, lines := cutBlocks(text, budget, true)
		if got != "# Backups\n\nEvery machine is backed up nightly." || lines != 3 {
			t.Errorf("budget %d: %q (%d lines)", budget, got, lines)
		}
	}
	// Nor on a heading with a scrap of its text: an opening tag, a label.
	scrap := "# Watch\n\nWatchers run when state changes.\n\n## Deep Watchers\n\n<div class=\"options-api\">\n\n" + strings.Repeat("word ", 200)
	if got, _ := cutBlocks(scrap, 30, false); got != "# Watch\n\nWatchers run when state changes." {
		t.Errorf("scrap under a heading: %q", got)
	}
	tag := "Intro to the API, in a few words.\n\n<div class=\"composition-api\">\n\n" + strings.Repeat("word ", 200)
	if got, _ := cutBlocks(tag, 30, false); got != "Intro to the API, in a few words." {
		t.Errorf("scrap not under a heading: %q", got)
	}
	label := "Intro to the API, in a few words.\n\nFor example:\n\n\n" + strings.Repeat("word ", 200)
	if got, _ := cutBlocks(label, 30, false); got != "Intro to the API, in a few words." {
		t.Errorf("label before two blank lines: %q", got)
	}
	for block, want := range map[string]bool{"For example:": true, "**Note:**": true, `<div class="x">`: true, "</div>": false,
		"Intro line.": false, "A label that runs on for a while:": false,
		"- **Type**": true, "**Details**": true, "__See also__": true, "**a** and **b**": false, "****": false} {
		if opens(block) != want {
			t.Errorf("opens(%q) = %v", block, !want)
		}
	}
	setext := "Intro line.\n\nTitle\n=====\n\n" + strings.Repeat("word ", 200)
	if got, _ := cutBlocks(setext, 20, true); got != "Intro line." {
		t.Errorf("setext: %q", got)
	}
	// A heading with the link reference definition an RFC puts under it
	// shows nothing of its section: no cut ends there.
	for _, defs := range []string{"\n[drawbacks]: #drawbacks", "\n[drawbacks]: #drawbacks \"Drawbacks\"", "\n[b]: </a b>", "\n[a\\]b]: #b 'T'",
		"\n\n[drawbacks]: #drawbacks\n[alternatives]: #alternatives\n[prior-art]: #prior-art\n[unresolved]: #unresolved-questions"} {
		rfc := "Intro line.\n\n## Drawbacks" + defs + "\n\n" + strings.Repeat("word ", 200)
		if got, _ := cutBlocks(rfc, 40, false); got != "Intro line." {
			t.Errorf("heading and reference definitions %q: %q", defs, got)
		}
	}
	for line, want := range map[string]bool{"[b]: #b": true, "   [b]: https://x.org/b (T)": true, "    [b]: #b": false, "[ ]: #b": false,
		"[^1]: A footnote.": false, "[b]: see this": false, "[b]:": false, "[b]: #b\r": true} {
		if isDefinition(line) != want {
			t.Errorf("isDefinition(%q) = %v", line, !want)
		}
	}
	for text, want := range map[string]bool{"a\n## B": true, "## B": true, "a\n#hashtag": false, "    # code": false, "x\n---": true, "---": false, "a\nb": false,
		"## B\n[b]: #b": true, "## B\n[b]: #b\n   [c]: https://x.org/c": true, "a\n[b]: #b": false, "## B\n[b]: see this": false} {
		if endsWithHeading(text) != want {
			t.Errorf("endsWithHeading(%q) = %v", text, !want)
		}
	}
}

func TestDropCopies(t *testing.T) {
	rs := []mdsearch.Result{
		{Collection: "a", Path: "work/x.md", Text: "same"},
		{Collection: "b", Path: "x.md", Text: "same"},
		{Collection: "a", Path: "y.md", Text: "same"}, // one collection's own copies stay
		{Collection: "b", Path: "z.md", Text: "other"},
	}
	got, left := dropCopies(slices.Clone(rs), 5, nil)
	if n := left.n(); n != 1 || len(got) != 3 || got[1].Path != "y.md" || got[2].Path != "z.md" {
		t.Errorf("kept %+v, dropped %d", got, n)
	}
	// Copies after the last result kept are not counted.
	if got, left := dropCopies(slices.Clone(rs[:2]), 1, nil); left.n() != 0 || len(got) != 1 {
		t.Errorf("want 1: kept %+v, dropped %d", got, left.n())
	}
}

// Passages 6 and 8 of one section kept, then 7: one result of 6–8, in
// order, at the better-ranked place, and the note's freed place goes to
// the next of another section (9), not to 5, which the full result
// cannot take in: a result of its own would show the section twice.
func TestJoinBridges(t *testing.T) {
	c := func(i int) candidate { return candidate{id: int64(i), doc: 1, section: 2, index: i} }
	other := candidate{id: 99, doc: 3, section: 4, index: 0}
	next := candidate{id: 9, doc: 1, section: 7, index: 9}
	kept := dedup([]candidate{c(6), other, c(8), c(7), c(5), next}, 5, 2, nil, 0)
	if len(kept) != 3 || kept[1].best.id != 99 || kept[2].best.id != 9 {
		t.Fatalf("kept %d groups, last %+v", len(kept), kept[len(kept)-1].best)
	}
	var got []int
	for _, m := range kept[0].members {
		got = append(got, m.index)
	}
	if !slices.Equal(got, []int{6, 7, 8}) || kept[0].best.id != 6 {
		t.Errorf("members %v (best %d), want 6 7 8 (best 6)", got, kept[0].best.id)
	}
	// Joined the other way round: 8 first, then 6, then 7.
	kept = dedup([]candidate{c(8), c(6), c(7)}, 5, 3, nil, 0)
	got = got[:0]
	for _, m := range kept[0].members {
		got = append(got, m.index)
	}
	if len(kept) != 1 || !slices.Equal(got, []int{6, 7, 8}) || kept[0].best.id != 8 {
		t.Errorf("%d groups, members %v (best %d), want one of 6 7 8 (best 8)", len(kept), got, kept[0].best.id)
	}
}

// The first results are the same whatever n asks: with n=1 the search
// stopped at one kept result, before passage 2 of its section (ranked
// below another note's) could join it, so asking for one result gave a
// weaker piece of the section than the first of five; with n=8, passage
// 4, ranked eighth, joined the first result that five showed without it.
func TestFirstResultsWhateverN(t *testing.T) {
	c := func(i int) candidate { return candidate{id: int64(i), doc: 1, section: 2, index: i} }
	other := func(id int64) candidate { return candidate{id: id, doc: id, section: id} }
	cands := []candidate{c(3), other(99), c(2), other(98), other(97), other(96), other(95),
		c(4), other(94), other(93), c(6), other(92), c(7), other(91), c(1)}
	members := func(g *group) (ix []int) {
		for _, m := range g.members {
			ix = append(ix, m.index)
		}
		return ix
	}
	all := dedup(cands, mdsearch.MaxN, 2, nil, 0)
	if got := members(all[0]); !slices.Equal(got, []int{2, 3}) {
		t.Fatalf("first result holds %v, want 2 3", got)
	}
	for _, g := range all {
		if g.best.id == 4 {
			t.Errorf("passage 4, next to the first result past the default number, is a result of its own")
		}
	}
	for n := 1; n <= len(cands); n++ {
		kept := dedup(cands, n, 2, nil, 0)
		if len(kept) != min(n, len(all)) {
			t.Fatalf("n=%d: %d results, want %d", n, len(kept), min(n, len(all)))
		}
		for i, g := range kept {
			if g.best.id != all[i].best.id || !slices.Equal(members(g), members(all[i])) {
				t.Errorf("n=%d: result %d holds %v, the same of %d %v", n, i+1, members(g), mdsearch.MaxN, members(all[i]))
			}
		}
	}
}

// TestResultsArePrefixes: over random candidate lists (three notes of
// neighbouring passages, the cap giving way or not), the results for n
// are the first n of the results for the most, passages and all.
func TestResultsArePrefixes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	key := func(gs []*group) (out [][]int64) {
		for _, g := range gs {
			var ids []int64
			for _, m := range g.members {
				ids = append(ids, m.id)
			}
			out = append(out, ids)
		}
		return out
	}
	for trial := range 2000 {
		var cands []candidate
		seen := map[int64]bool{}
		score := 1.0
		for range 5 + r.IntN(30) {
			doc, index := int64(1+r.IntN(4)), r.IntN(12)
			id := doc*100 + int64(index)
			if seen[id] {
				continue
			}
			seen[id] = true
			score *= 0.6 + 0.4*r.Float64()
			cands = append(cands, candidate{id: id, doc: doc, section: doc*10 + int64(index/4), index: index, score: score})
		}
		likely := []float64{0, likelyAnswer}[trial%2]
		all := key(dedup(cands, mdsearch.MaxN, 2, nil, likely))
		for n := 1; n <= 20; n++ {
			if got := key(dedup(cands, n, 2, nil, likely)); !slices.EqualFunc(got, all[:min(n, len(all))], slices.Equal) {
				t.Fatalf("trial %d, n=%d: %v, the first of %d: %v", trial, n, got, mdsearch.MaxN, all)
			}
		}
	}
}

// TestCapResults: a result of megabytes (one long word) is cut to
// maxResultBytes, inside its line when it is one line, at a line break
// when it has some, and says which lines read the rest.
func TestCapResults(t *testing.T) {
	long := strings.Repeat("QUJD", 64<<10) // 256 KB, one line
	lines := strings.Repeat(strings.Repeat("x", 99)+"\n", 1000)
	rs := []mdsearch.Result{
		{Path: "img.md", Text: "# Img\n\n![s](data:" + long + ")", StartLine: 1, EndLine: 3},
		{Path: "many.md", Text: lines, StartLine: 10, EndLine: 1009},
		{Path: "small.md", Text: "short", StartLine: 1, EndLine: 1},
	}
	capResults(rs, nil)
	if r := rs[0]; len(r.Text) > maxResultBytes || !r.Truncated || r.EndLine != 3 || r.ReadHint != "cut at 32 KB, 1 more line: read img.md, lines 3-3" {
		t.Errorf("one long line: %d bytes to line %d, %q", len(r.Text), r.EndLine, r.ReadHint)
	}
	if r := rs[1]; len(r.Text) > maxResultBytes || !strings.HasSuffix(r.Text, "x") || r.EndLine != 10+len(r.Text)/100 ||
		r.ReadHint != fmt.Sprintf("cut at 32 KB, %d more lines: read many.md, lines %d-1009", 1009-r.EndLine, r.EndLine+1) {
		t.Errorf("many lines: %d bytes to line %d, %q", len(r.Text), r.EndLine, r.ReadHint)
	}
	if rs[2].Truncated || rs[2].Text != "short" {
		t.Errorf("small result changed: %+v", rs[2])
	}

	// Capped first, then budgeted: a capped image leaves budget for the
	// next result, and a budget cut names the rest to the passage's end.
	rs = []mdsearch.Result{
		{Path: "img.md", Text: "![s](data:" + long + ")\n\nCaption here.\n\nMore text.", StartLine: 1, EndLine: 5},
		{Path: "b.md", Text: "short", StartLine: 1, EndLine: 1},
	}
	got, dropped := fitBudget(rs, 20000, nil, capResults(rs, nil))
	if len(got) != 2 || dropped != 0 || got[0].ReadHint != "cut at 32 KB, 5 more lines: read img.md, lines 1-5" {
		t.Errorf("capped, then a budget it fits: %d kept, %d dropped, %q", len(got), dropped, got[0].ReadHint)
	}
	rs = []mdsearch.Result{{Path: "img.md", Text: "Caption here.\n\n![s](data:" + long + ")\n\nMore text.", StartLine: 1, EndLine: 5}}
	got, _ = fitBudget(rs, 100, nil, capResults(rs, nil))
	if got[0].Text != "Caption here." || got[0].ReadHint != "cut to fit the token budget, 4 more lines: read img.md, lines 2-5" {
		t.Errorf("capped, then cut to the budget: %q, %q", got[0].Text, got[0].ReadHint)
	}
}

// TestReadHintQuotesPaths: a path with spaces in a read hint is one
// quoted argument.
func TestReadHintQuotesPaths(t *testing.T) {
	r := mdsearch.Result{Collection: "vault", Path: "Linking notes/Embed files.md"}
	if got, want := readHint(r, "cut", 57, 62), `cut, 6 more lines: read "vault:Linking notes/Embed files.md", lines 57-62`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// cutWithin keeps at least minWords words, even where a sentence ends
// before them; it ends at a sentence where one ends past half the cut,
// and a table's or a list's cut at its last whole row or item.
func TestCutWithin(t *testing.T) {
	table := "| Option | Default | Meaning |\n|---|---|---|\n| `n` | 10 | how many results the search returns |\n| `mode` | hybrid | keyword, semantic or both together |\n| `max_tokens` | 0 | the most the results may cost a reader |"
	list := "- first item of the list, with a few words more\n- second item of the list, with a few words\n- third item, longer, which runs on past where the budget ends it"
	for _, c := range []struct {
		name, text string
		budget     int
		want       string
	}{
		{"floor of words", "a b c d e f g h i. j k l m n o p q r s t u v w x y z", 1, "a b c d e f g h i. j k l"},
		{"a sentence", "One two three four five six seven. Eight nine ten eleven twelve thirteen fourteen. Fifteen sixteen seventeen eighteen", 26,
			"One two three four five six seven. Eight nine ten eleven twelve thirteen fourteen."},
		{"a table's rows", table, 50, table[:strings.Index(table, "\n| `max_tokens`")]},
		{"a table's first row", "These are the options the search takes, and what each of them does to it.\n" + table, 40,
			"These are the options the search takes, and what each of them does to it."},
		{"a table's first row, the table first", "| Option | What it does to the search |\n|---|---|\n| `n` | how many results to return, from one to fifty, default ten |", 10,
			"| Option | What it does to the search |\n|---|---|"},
		{"a list's items", list, 30, list[:strings.LastIndex(list, "\n")]},
		{"a list's marker", list, 12, list[:strings.Index(list, "\n- second")]},
		{"a list item's floor", list, 22, list[:strings.Index(list, " the list, with a few words\n")] + " the"},
		{"prose lines", "a b c d e f g h i j k l m n o\np q r s t u v w x y z", 1, "a b c d e f g h i j k l"},
		{"a line opening with a number", "The release notes of the project come first in this one line right here\n2.0 was released in the spring with many changes to the build", 26,
			"The release notes of the project come first in this one line right here\n2.0 was released in the spring"},
	} {
		if got := cutWithin(c.text, c.budget); got != c.want {
			t.Errorf("%s: cutWithin = %q, want %q", c.name, got, c.want)
		}
	}
}

// A passage that merged a note's short introduction into its first long
// section's part 1 joins that section's part 2, as passages of one
// section do.
func TestJoinAcrossMergedStub(t *testing.T) {
	part1 := candidate{id: 1, doc: 1, section: 10, index: 0} // "Guide + Installing", part 1
	part2 := candidate{id: 2, doc: 1, section: 11, index: 1} // "Installing", part 2
	other := candidate{id: 99, doc: 3, section: 4, index: 0}
	kept := dedup([]candidate{part2, other, part1}, 5, 2, func(id int64) int64 { return map[int64]int64{1: 11}[id] }, 0)
	if len(kept) != 2 || len(kept[0].members) != 2 || kept[0].best.id != 2 || kept[0].lo() != 0 {
		t.Errorf("kept %d groups, the first of %d members from %d (best %d)", len(kept), len(kept[0].members), kept[0].lo(), kept[0].best.id)
	}
	if kept := dedup([]candidate{part2, other, part1}, 5, 2, nil, 0); len(kept) != 3 {
		t.Errorf("without the continuation: %d groups, want 3", len(kept))
	}
}

// TestSectionOnceAfterStub: a note whose short introduction merged into
// its long section's part 1 shows that section once, part 1 joined to the
// parts after it that rank.
func TestSectionOnceAfterStub(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Guide\n\n## Installing the frobnicator\n\n")
	for p := range 14 {
		fmt.Fprintf(&b, "Paragraph %d: frobnicator install step with the daemon, the config file and the cache for user %d. %s\n\n",
			p, p, strings.Repeat("Words about the server and the client and the disk. ", 5))
	}
	vault := t.TempDir()
	write(t, vault, "Guide.md", b.String())
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	resp := search(t, e, mdsearch.SearchRequest{Query: "frobnicator install", Mode: mdsearch.ModeKeyword, MaxPerPage: 5})
	for i, r := range resp.Results {
		for j, o := range resp.Results[:i] {
			if r.Path == o.Path && (r.StartLine == o.EndLine+1 || r.StartLine == o.EndLine+2 || o.StartLine == r.EndLine+1 || o.StartLine == r.EndLine+2) {
				t.Errorf("results %d and %d are neighbours in one section: lines %d-%d and %d-%d", j+1, i+1, o.StartLine, o.EndLine, r.StartLine, r.EndLine)
			}
		}
	}
}

// The default cap gives way: a note's passage it leaves out that is at
// least likely takes the place of another note's passage under likely,
// never of a likelier one, and keeps the place it was given (after
// likelier notes' passages); one under likely itself stays out, and a cap
// asked for (likely 0) holds.
func TestCapGivesWay(t *testing.T) {
	a := func(i int, p float64) candidate {
		return candidate{id: int64(i), doc: 1, section: int64(i), index: 10 * i, score: p}
	}
	other := func(id, doc int64, p float64) candidate {
		return candidate{id: id, doc: doc, section: 100 + id, score: p}
	}
	ids := func(gs []*group) (out []int64) {
		for _, g := range gs {
			out = append(out, g.best.id)
		}
		return out
	}
	cases := []struct {
		name   string
		cands  []candidate
		likely float64
		n      int
		want   []int64
	}{
		{"others unlikely", []candidate{a(1, .9), a(2, .5), a(3, .3), other(90, 2, .2), a(4, .08), other(91, 3, .02), other(92, 4, .01)}, .07, 5, []int64{1, 2, 90, 3, 4}},
		{"one more place", []candidate{a(1, .9), a(2, .5), a(3, .3), a(4, .08), other(91, 3, .02), other(92, 4, .01)}, .07, 5, []int64{1, 2, 3, 4, 91}},
		{"left out ones unlikely too", []candidate{a(1, .9), a(2, .5), a(3, .05), other(91, 3, .02), other(92, 4, .01)}, .07, 5, []int64{1, 2, 91, 92}},
		{"a cap asked for", []candidate{a(1, .9), a(2, .5), a(3, .3), other(91, 3, .02), other(92, 4, .01)}, 0, 5, []int64{1, 2, 91, 92}},
		{"candidates run out", []candidate{a(1, .9), a(2, .5), a(3, .3), other(91, 3, .2)}, .07, 5, []int64{1, 2, 91, 3}},
		{"n below the default", []candidate{a(1, .9), a(2, .5), a(3, .3), other(91, 3, .02)}, .07, 3, []int64{1, 2, 3}},
		// The passage whose place the fifth, placed past the cap, took is
		// the sixth result, not lost.
		{"past the default", []candidate{a(1, .9), a(2, .5), a(3, .3), other(20, 2, .2), other(30, 3, .1), a(4, .08),
			other(40, 4, .02), other(50, 5, .01), other(60, 6, .005)}, .07, 10, []int64{1, 2, 20, 30, 3, 4, 40, 50, 60}},
	}
	for _, c := range cases {
		if got := ids(dedup(c.cands, c.n, 2, nil, c.likely)); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// A passage placed past the cap is a neighbour of the next candidate of
// its section, which joins it rather than standing apart, and a note's
// place freed by a join does not let an unlikely passage past the cap.
func TestCapGivesWayJoins(t *testing.T) {
	c := func(id int64, section int64, index int, p float64) candidate {
		return candidate{id: id, doc: 1, section: section, index: index, score: p}
	}
	cands := []candidate{c(0, 1, 0, .9), c(2, 1, 2, .8), c(10, 5, 10, .5), c(1, 1, 1, .4), c(11, 5, 11, .03),
		{id: 90, doc: 2, section: 20, score: .02}, {id: 91, doc: 3, section: 30, score: .01}}
	kept := dedup(cands, 5, 2, nil, .07)
	var got [][]int64
	for _, g := range kept {
		var ids []int64
		for _, m := range g.members {
			ids = append(ids, m.id)
		}
		got = append(got, ids)
	}
	want := [][]int64{{0, 1, 2}, {10, 11}, {90}, {91}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("groups %v, want %v", got, want)
	}
}
