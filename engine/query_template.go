package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
)

// templateNotice says when the query is a heading many notes the search
// can return share, as the best result's is ("Summary", "Unresolved
// questions" in a folder of RFCs): each of those notes answers it alike,
// so the results are some of many and their scores say little of which
// one is meant.
func (e *Engine) templateNotice(ctx context.Context, rd *store.Reader, q *query, res []mdsearch.Result) string {
	// "## Summary", "Drawbacks:", `"unresolved  questions"`, "the summary":
	// the heading's words, common ones aside.
	asked := contentWords(q.req.Query)
	if len(res) == 0 || asked == "" || strings.Count(asked, " ") >= maxTemplateWords {
		return ""
	}
	heading := ""
	for _, h := range append([]string{res[0].Section}, lastHeadings(res[0].Sections)...) {
		if contentWords(h) == asked { // a stub's passage holds the heading after it too
			heading = h
		}
	}
	if heading == "" {
		return ""
	}
	n, err := e.headingNoteCount(ctx, rd, heading, q.filter)
	if err != nil || n < templateNotes {
		return ""
	}
	return fmt.Sprintf("%q is a heading of %d notes, and these are some of them: add what it is about to find the one meant", heading, n)
}

// lastHeadings is the heading of each section path.
func lastHeadings(paths [][]string) []string {
	var out []string
	for _, p := range paths {
		if len(p) > 0 {
			out = append(out, p[len(p)-1])
		}
	}
	return out
}

// templateNotes is how many notes must share a heading for a query of it
// alone to be told so; maxTemplateWords the longest such query.
const (
	templateNotes    = 10
	maxTemplateWords = 4
)

// headingNoteCount is rd.HeadingNoteCount, kept for the index's generation
// where the search has no filter: on a large index the count scans every
// merged passage, and a serve is asked "Summary" again and again.
func (e *Engine) headingNoteCount(ctx context.Context, rd *store.Reader, heading string, f store.Filter) (int, error) {
	if !f.IsZero() {
		return rd.HeadingNoteCount(ctx, heading, f)
	}
	gen, err := rd.Generation(ctx)
	if err != nil {
		return 0, err
	}
	return e.headCounts.get(gen, strings.ToLower(heading), func() (int, error) { return rd.HeadingNoteCount(ctx, heading, f) })
}

// contentWords is wordsOnly(s) without its common words, its clitics
// read first ("what's the summary?" is "summary").
func contentWords(s string) string {
	words := strings.Fields(wordsOnly(unclitic(s)))
	return strings.Join(slices.DeleteFunc(words, func(w string) bool { return stopwords[w] }), " ")
}

// wordsOnly is s's words in lower case, one space apart, without the
// punctuation around them.
func wordsOnly(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}
