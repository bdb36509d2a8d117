package engine

import (
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// TestShortenRuns: a result's runs of ASCII without spaces over
// longResultRun bytes are shown to their first bytes and closing
// brackets, and the hint names their lines; text without spaces in other
// scripts, and shorter runs (a long URL), are shown whole.
func TestShortenRuns(t *testing.T) {
	b64 := "![x](data:image/png;base64," + strings.Repeat("QUJD", 1000) + ")" // 4 KB
	short := b64[:64] + "…)"
	url := "https://example.com/?q=" + strings.Repeat("ab", 700) // 1.4 KB
	odd := strings.Repeat("z", 2100)                             // over the bound, between two probes
	for _, tt := range []struct {
		name, text, want, hint string
		rest                   [2]int
	}{
		{"an image", "# N\n\n" + b64 + "\n\nwombat", "# N\n\n" + short + "\n\nwombat",
			"a 4 KB run without spaces on line 12 shown to its first 64 bytes: read v:n.md, lines 12-12", [2]int{12, 12}},
		{"two", "a " + b64 + "\nb\n" + b64 + " c", "a " + short + "\nb\n" + short + " c",
			"2 runs without spaces (up to 4 KB) shown to their first 64 bytes: read v:n.md, lines 10-12", [2]int{10, 12}},
		{"one space apart", b64 + " " + b64, short + " " + short,
			"2 runs without spaces (up to 4 KB) shown to their first 64 bytes: read v:n.md, lines 10-10", [2]int{10, 10}},
		{"between probes", strings.Repeat("y", 1030) + " " + odd + " tail", strings.Repeat("y", 1030) + " " + odd[:64] + "… tail",
			"a 3 KB run without spaces on line 10 shown to its first 64 bytes: read v:n.md, lines 10-10", [2]int{10, 10}},
		{"after a label in another script", "截图：" + b64 + "\n\n说明", "截图：" + short + "\n\n说明",
			"a 4 KB run without spaces on line 10 shown to its first 64 bytes: read v:n.md, lines 10-10", [2]int{10, 10}},
		{"at the bound", strings.Repeat("x", longResultRun), strings.Repeat("x", longResultRun), "", [2]int{}},
		{"a long URL", "see " + url, "see " + url, "", [2]int{}},
		{"Chinese", strings.Repeat("漢字", 2000), strings.Repeat("漢字", 2000), "", [2]int{}},
	} {
		r := mdsearch.Result{Collection: "v", Path: "n.md", Text: tt.text, StartLine: 10, EndLine: 14}
		shortenRunsIn(&r, nil)
		if r.Text != tt.want || r.ReadHint != tt.hint || [2]int{r.RestFrom, r.RestTo} != tt.rest || r.Truncated != (tt.hint != "") {
			t.Errorf("%s: %q (%d bytes), %q, rest %d-%d", tt.name, r.Text[:min(len(r.Text), 120)], len(r.Text), r.ReadHint, r.RestFrom, r.RestTo)
		}
	}
}

// TestShortenRunsJoined: in a result of passages joined on one line (a
// line break added between them), a run's line is counted from the
// passage that holds it, and the seams after it move with the text.
func TestShortenRunsJoined(t *testing.T) {
	b64 := "![x](data:" + strings.Repeat("QUJD", 1000) + ")"
	first := "# N\n\n" + strings.Repeat("word ", 50) // lines 1-3, its last line going on in the next passage
	second := "more words\n\n" + b64 + "\n\nwombat"  // lines 3-7: the run on line 5
	r := mdsearch.Result{Collection: "v", Path: "n.md", Text: first + "\n" + second, StartLine: 1, EndLine: 7}
	joins := seams{keyOf(r): {{line: 3, chunk: 1, at: len(first) + 1}}}
	shortenRunsIn(&r, joins)
	if r.RestFrom != 5 || r.RestTo != 5 {
		t.Errorf("run on line %d-%d, want 5", r.RestFrom, r.RestTo)
	}
	if at := joins[keyOf(r)][0].at; r.Text[at:at+10] != "more words" {
		t.Errorf("the seam moved to %q", r.Text[at:min(len(r.Text), at+10)])
	}
	if got := joins.lineAt(r, strings.Index(r.Text, "wombat")); got != 7 {
		t.Errorf("wombat on line %d, want 7", got)
	}
}

// TestShortenedThenCut: a result whose long run is shown shortened, then
// cut to a budget after it, reads on from the run's line.
func TestShortenedThenCut(t *testing.T) {
	long := "![x](data:" + strings.Repeat("QUJD", 4000) + ")"
	rs := []mdsearch.Result{{Path: "n.md", Text: "Intro.\n\n" + long + "\n\n" + strings.Repeat("word ", 400) + "\n\n" + strings.Repeat("more ", 400), StartLine: 1, EndLine: 7}}
	shortenRuns(rs, nil)
	got, _ := fitBudget(rs, 700, nil, capResults(rs, nil))
	if r := got[0]; !strings.Contains(r.Text, "word") || strings.Contains(r.Text, "more") || r.RestFrom != 3 || r.RestTo != 7 ||
		r.ReadHint != "cut to fit the token budget, 5 more lines: read n.md, lines 3-7" {
		t.Errorf("%q, rest %d-%d, %q", r.Text[:min(len(r.Text), 200)], r.RestFrom, r.RestTo, r.ReadHint)
	}
}

// BenchmarkShortenRuns: the scan every search makes of its results' text
// for long runs, beside the token estimate it makes of the same text
// (resultTokens), on five results of prose.
func BenchmarkShortenRuns(b *testing.B) {
	text := strings.Repeat("The reactivity system tracks every ref a component reads while it renders. ", 30) // ~2.3 KB
	rs := make([]mdsearch.Result, 5)
	b.Run("estimate tokens (baseline)", func(b *testing.B) {
		b.SetBytes(int64(len(text) * len(rs)))
		for b.Loop() {
			for range rs {
				EstimateTokens(text)
			}
		}
	})
	b.Run("shorten runs", func(b *testing.B) {
		b.SetBytes(int64(len(text) * len(rs)))
		for b.Loop() {
			for i := range rs {
				rs[i].Text = text
			}
			shortenRuns(rs, nil)
		}
	})
	image := "# Shot\n\n![x](data:image/png;base64," + strings.Repeat("QUJD", 50<<10) + ")\n\n" + text // a 200 KB run, then prose
	b.Run("shorten a 200 KB run", func(b *testing.B) {
		b.SetBytes(int64(len(image)))
		for b.Loop() {
			r := []mdsearch.Result{{Text: image, StartLine: 1, EndLine: 5}}
			shortenRuns(r, nil)
		}
	})
}

// TestCutsOfJoinedLines: in a result of passages joined on one line (a
// line break added between them), a 32 KB cut at the join and a budget
// cut inside the second passage name the line they cut, read on from it,
// and end the chunk range at the last passage any of whose text is shown;
// a run shortened in the first passage moves the seam after it.
func TestCutsOfJoinedLines(t *testing.T) {
	one := func(text string, at int) ([]mdsearch.Result, seams) {
		r := mdsearch.Result{Path: "n.md", Text: text, StartLine: 3, EndLine: 7, ChunkIndex: 2, ChunkEnd: 3, TotalChunks: 4}
		return []mdsearch.Result{r}, seams{keyOf(r): {{line: 3, chunk: 3, at: at}}}
	}
	first := strings.Repeat("aaaa ", 4000) // 20 KB of line 3
	rs, joins := one(first+"\n"+strings.Repeat("bbbb ", 3400)+"\n\nE zebra\n\ntail", len(first)+1)
	capResults(rs, joins)
	if r := rs[0]; r.EndLine != 3 || r.RestFrom != 3 || r.RestTo != 7 || r.ChunkEnd != 0 || len(r.Text) != len(first) {
		t.Errorf("32 KB cut at the join: lines to %d, rest %d-%d, chunk end %d, %d bytes", r.EndLine, r.RestFrom, r.RestTo, r.ChunkEnd, len(r.Text))
	}

	short := "first words here"
	rs, joins = one(short+"\n"+strings.Repeat("more words of line three ", 80)+"\n\nlater paragraph", len(short)+1)
	got, _ := fitBudget(rs, 160, joins, ends(rs))
	if r := got[0]; r.EndLine != 3 || r.RestFrom != 3 || r.ChunkEnd != 3 || !strings.Contains(r.Text, "more words") {
		t.Errorf("budget cut inside the second passage: lines to %d, rest %d-%d, chunk end %d, %q", r.EndLine, r.RestFrom, r.RestTo, r.ChunkEnd, r.Text)
	}

	run := "![x](data:" + strings.Repeat("QUJD", 1000) + ")"
	text := "intro " + run + " end"
	rs, joins = one(text+"\n"+"wombat line\n\nlast", len(text)+1)
	shortenRuns(rs, joins)
	if at := joins[keyOf(rs[0])][0].at; at > len(rs[0].Text) || !strings.HasPrefix(rs[0].Text[at:], "wombat") {
		t.Errorf("the seam after a shortened run is at %d of %q", at, rs[0].Text[:min(len(rs[0].Text), 200)])
	}
	if line := joins.lineAt(rs[0], strings.Index(rs[0].Text, "last")); line != 5 {
		t.Errorf("the line after the run: %d, want 5", line)
	}
}
