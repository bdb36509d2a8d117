package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/store"
)

// templateNotice says when the query is a heading many notes share, as
// the best result's is ("Summary", "Unresolved questions" in a folder of
// RFCs): each of those notes answers it alike, so the results are some of
// many and their scores say little of which one is meant.
func (e *Engine) templateNotice(ctx context.Context, rd *store.Reader, q *query, res []mdsearch.Result) string {
	if len(res) == 0 || len(strings.Fields(q.req.Query)) > maxTemplateWords {
		return ""
	}
	asked := strings.ToLower(strings.Trim(strings.TrimSpace(q.req.Query), "?!. "))
	heading := ""
	for _, h := range append([]string{res[0].Section}, lastHeadings(res[0].Sections)...) {
		if strings.ToLower(h) == asked { // a stub's passage holds the heading after it too
			heading = h
		}
	}
	if heading == "" {
		return ""
	}
	heads := q.heads
	if heads == nil {
		var err error
		if heads, err = e.headingNotes(ctx, rd); err != nil {
			return ""
		}
	}
	n := heads[asked]
	if n < templateNotes {
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
