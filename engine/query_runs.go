package engine

import (
	"fmt"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/chunks"
)

// longResultRun bounds a run of ASCII without white space that a result
// shows whole. A longer one (a pasted base64 image, a minified line) is
// no text a person or an agent reads: the result shows its first
// chunks.KeepRun bytes, as the model reads it, "…" and its closing
// brackets (so "![x](data:…)" still closes), and its read hint
// names the lines that hold it whole. A 200 KB image before the paragraph
// that matched filled the 32 KB a result may show (maxResultBytes), and
// the paragraph was cut off. Text in scripts written without spaces is
// not ASCII and is shown whole (a run ends where it starts); a URL of up
// to 2 KB is too.
const longResultRun = 2 << 10

// shortenRuns shortens the long runs (longResultRun) of each result;
// joins are the results' seams, kept at their passages' starts.
func shortenRuns(rs []mdsearch.Result, joins seams) {
	for i := range rs {
		shortenRunsIn(&rs[i], joins)
	}
}

// A long run of a result's text: [start, end) shown as its first
// chunks.KeepRun bytes, "…" and its closing brackets (closers), and the
// note's line that holds it.
type longRun struct{ start, end, closers, line int }

// shortenRunsIn shortens r's long runs, marking it truncated, with the
// lines that hold them whole to read (RestFrom, RestTo).
func shortenRunsIn(r *mdsearch.Result, joins seams) {
	runs := findRuns(r.Text)
	if len(runs) == 0 {
		return
	}
	text := r.Text
	var b strings.Builder
	kept, biggest := 0, 0 // text[:kept] is in b
	for k := range runs {
		run := &runs[k]
		run.line = joins.lineAt(*r, run.start)
		b.WriteString(text[kept : run.start+chunks.KeepRun])
		b.WriteString("…")
		b.WriteString(text[run.end-run.closers : run.end])
		kept, biggest = run.end, max(biggest, run.end-run.start)
	}
	b.WriteString(text[kept:])
	for k := len(runs) - 1; k >= 0; k-- { // the seams after each run move back by what it lost
		run := runs[k]
		joins.shift(*r, run.start, chunks.KeepRun+len("…")+run.closers-(run.end-run.start))
	}
	first, last := runs[0].line, runs[len(runs)-1].line
	r.Text, r.Truncated = b.String(), true
	r.RestFrom, r.RestTo = first, last
	what := fmt.Sprintf("a %s run without spaces on line %d shown to its", runSize(biggest), first)
	if len(runs) > 1 {
		what = fmt.Sprintf("%d runs without spaces (up to %s) shown to their", len(runs), runSize(biggest))
	}
	r.ReadHint = fmt.Sprintf("%s first %d bytes: read %s, lines %d-%d", what, chunks.KeepRun, readArg(*r), first, last)
}

// findRuns finds text's runs of ASCII without white space over
// longResultRun bytes, in order. Such a run holds one of every step-th
// byte: only those are looked at, and the runs around them, so prose is
// read a byte in 1,024. A run ends at white space or at a byte of another
// script (a Chinese label right before an image).
func findRuns(text string) []longRun {
	const step = longResultRun / 2
	var runs []longRun
	end := 0 // of the last run looked at
	for p := step; p < len(text); p += step {
		if !inRun(text[p]) {
			continue
		}
		i, j := p, p+1
		for i > end && inRun(text[i-1]) {
			i--
		}
		for j < len(text) && inRun(text[j]) {
			j++
		}
		if j-i > longResultRun {
			runs = append(runs, longRun{start: i, end: j, closers: closers(text[i:j])})
		}
		end, p = j, j // the next run holding a probe starts after this one
	}
	return runs
}

// closers is how many of run's last bytes close a bracket or quote (the
// ")" of "![x](data:…)"), at most 8: kept after the "…", so the markdown
// around a shortened image or link still closes.
func closers(run string) int {
	n := 0
	for n < min(8, len(run)) && strings.IndexByte(")]>\"'", run[len(run)-1-n]) >= 0 {
		n++
	}
	return n
}

// inRun reports whether c may be part of a long run: ASCII, not white
// space.
func inRun(c byte) bool {
	return c < 0x80 && c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f'
}

// runSize is a long run's size as a hint names it, rounded up: "195 KB".
func runSize(n int) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KB", (n+1<<10-1)>>10)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}
