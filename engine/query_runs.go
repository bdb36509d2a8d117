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
// chunks.KeepRun bytes, as the model reads it, and "…", and its read hint
// names the lines that hold it whole. A 200 KB image before the paragraph
// that matched filled the 32 KB a result may show (maxResultBytes), and
// the paragraph was cut off. Text in scripts written without spaces is
// not ASCII and is shown whole; a URL of up to 2 KB is too.
const longResultRun = 2 << 10

// shortenRuns shortens the long runs (longResultRun) of each result.
func shortenRuns(rs []mdsearch.Result) {
	for i := range rs {
		shortenRunsIn(&rs[i])
	}
}

// shortenRunsIn shortens r's long runs, marking it truncated, with the
// lines that hold them whole to read (RestFrom, RestTo).
func shortenRunsIn(r *mdsearch.Result) {
	text := r.Text
	var b strings.Builder
	kept, runs, biggest := 0, 0, 0 // text[:kept] is in b
	first, last := 0, 0
	// A long run holds one of every step-th byte: only those are looked
	// at, and the runs around them, so prose is read a byte in 1,024.
	const step = longResultRun / 2
	for p := step; p < len(text); p += step {
		if isBlank(text[p]) {
			continue
		}
		i, j := p, p+1
		for i > kept && !isBlank(text[i-1]) {
			i--
		}
		for j < len(text) && !isBlank(text[j]) {
			j++
		}
		if j-i > longResultRun && ascii(text[i:j]) {
			line := min(r.StartLine+strings.Count(text[:i], "\n"), r.EndLine)
			if runs == 0 {
				b.Grow(len(text) - (j - i))
				first = line
			}
			b.WriteString(text[kept : i+chunks.KeepRun])
			b.WriteString("…")
			kept, last, runs, biggest = j, line, runs+1, max(biggest, j-i)
		}
		p = j // the next run holding a probe starts after this one
	}
	if runs == 0 {
		return
	}
	b.WriteString(text[kept:])
	r.Text, r.Truncated = b.String(), true
	r.RestFrom, r.RestTo = first, last
	what := fmt.Sprintf("a %s run without spaces on line %d shown to its", runSize(biggest), first)
	if runs > 1 {
		what = fmt.Sprintf("%d runs without spaces (up to %s) shown to their", runs, runSize(biggest))
	}
	r.ReadHint = fmt.Sprintf("%s first %d bytes: read %s, lines %d-%d", what, chunks.KeepRun, readArg(*r), first, last)
}

// runSize is a long run's size as a hint names it: "195 KB".
func runSize(n int) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}

// ascii reports whether s is ASCII alone.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// isBlank reports whether c is ASCII white space, which ends a run.
func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
