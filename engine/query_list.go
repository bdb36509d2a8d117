package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/plural"
	"github.com/mdsearch/mdsearch/sections"
)

// list answers a request without words (SearchRequest.Lists): the notes
// its filters keep, by collection and path, each by its opening,
// unscored. Obsidian lists a tag's notes so; a search page's tag link
// and an agent asking for a folder's notes need nothing ranked.
func (e *Engine) list(ctx context.Context, q *query, ops operators, excludeNotice string) (*found, error) {
	req := q.req
	resp := &mdsearch.SearchResponse{Mode: req.Mode, Results: []mdsearch.Result{}, Listing: true}
	rt, err := e.st.BeginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer rt.Close()
	firsts, total, err := rt.ListNotes(ctx, q.filter, req.N, req.Offset)
	if err != nil {
		return nil, err
	}
	kept := make([]*group, len(firsts))
	for i, l := range firsts {
		c := candidate{id: l.ChunkID, doc: l.DocID, section: l.SectionID}
		kept[i] = &group{best: c, members: []candidate{c}}
	}
	res, joins, stamps, err := results(ctx, rt.Reader, kept, false, 1)
	if err != nil {
		return nil, err
	}
	shortenRuns(res, joins)
	ends := capResults(res, joins)
	for i := range res { // a list is to choose from: each note's opening, not its whole first passage
		if joins.shorten(&res[i], listPreview, true, ends[i], "a list shows each note's opening") {
			res[i].Text = closeFence(res[i].Text)
		}
	}
	markStale(res, staleIn(stamps))
	resp.Results, resp.Total, resp.Matching, resp.Offset = res, len(res), total, req.Offset
	colls, err := e.nameResults(ctx, rt.Reader, resp)
	if err != nil {
		return nil, err
	}
	filters, most := filtersOf(req, ops), req.N == mdsearch.MaxN
	listed := listNotice(total, req.Offset, len(res), most, filters)
	relist := func(shown int) string { // cut to the budget: a larger n would not show more
		return strings.Replace(listNotice(total, req.Offset, shown, true, filters), ", or narrow it (a folder, another tag)", "", 1)
	}
	resp.Notice = listed
	if req.MinScore > 0 {
		addNotice(&resp.Notice, "min_score does not apply: a list has no scores")
	}
	if total == 0 {
		if len(colls) == 0 {
			resp.Notice = emptyIndexNotice
		} else if m := unknownTags(ctx, rt.Reader, q.filter); m != "" {
			resp.Notice = m // it says why none matches
		}
		addNotice(&resp.Notice, nearPaths(ctx, rt.Reader, q.filter))
		addNotice(&resp.Notice, e.unknownProperties(ctx, rt.Reader, q.filter.Fields))
	}
	addNotice(&resp.Notice, ops.groupedNotice())
	addNotice(&resp.Notice, ops.wordsNotice())
	addNotice(&resp.Notice, excludeNotice)
	return &found{resp: resp, joins: joins, ends: ends, budget: req.MaxTokens, listed: listed, relist: relist}, nil
}

// closeFence closes a code block a cut opening leaves open, so that what
// follows it (the result's footer, the next results) does not read as
// code.
func closeFence(text string) string {
	var f sections.Fences
	for _, l := range strings.Split(text, "\n") {
		f.Line([]byte(l))
	}
	if run := f.Open(); run != "" {
		return text + "\n" + run
	}
	return text
}

// listPreview is about how many tokens of each note a list shows: some 60
// words, enough to tell the notes apart, where a first passage may run to
// hundreds (a list of 29 notes cost an agent 10,000 tokens).
const listPreview = 80

// listNotice says what a list holds: which notes of how many, that it
// is no ranking, and how to see the others (most: n is at its most, so
// cannot be raised).
func listNotice(total, offset, shown int, most bool, filters string) string {
	matches := notesMatch(total) + " " + filters
	switch {
	case total == 0:
		return "no note matches " + filters
	case shown == 0:
		use := "0"
		if total > 1 {
			use = fmt.Sprintf("0-%d", total-1)
		}
		return fmt.Sprintf("%s; offset %d is past the last of them: use %s", matches, offset, use)
	case shown == total:
		return matches + ", listed by path, each by its opening, unranked: add words to search in them"
	}
	which := fmt.Sprintf("notes %d-%d", offset+1, offset+shown)
	if shown == 1 {
		which = fmt.Sprintf("note %d", offset+1)
	}
	if offset == 0 {
		which = "the first"
		if shown > 1 {
			which += fmt.Sprintf(" %d", shown)
		}
	}
	if offset+shown >= total {
		return fmt.Sprintf("%s: %s by path, the last of them, each by its opening, unranked", matches, which)
	}
	more := fmt.Sprintf("offset %d gives the next", offset+shown)
	switch {
	case !most && offset == 0:
		more += " (or raise n)"
	case most:
		more += ", or narrow it (a folder, another tag)"
	}
	return fmt.Sprintf("%s: %s by path, each by its opening, unranked; %s, or add words to search in them", matches, which, more)
}

// notesMatch is "1 note matches" or "3 notes match".
func notesMatch(n int) string {
	if n == 1 {
		return "1 note matches"
	}
	return plural.Count(n, "note", "notes") + " match"
}
