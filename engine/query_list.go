package engine

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/plural"
	"github.com/mdsearch/mdsearch/sections"
	"github.com/mdsearch/mdsearch/store"
)

// list answers a request without words (SearchRequest.Lists): the notes
// its filters keep, by collection and path (or last changed first:
// SearchRequest.Sort), each by its opening, unscored. Obsidian lists a
// tag's notes so; a search page's tag link and an agent asking for a
// folder's notes, or for what changed lately, need nothing ranked.
func (e *Engine) list(ctx context.Context, q *query, ops operators, excludeNotice string) (*found, error) {
	req := q.req
	resp := &mdsearch.SearchResponse{Mode: req.Mode, Results: []mdsearch.Result{}, Listing: true}
	rt, err := e.st.BeginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer rt.Close()
	if len(ops.without) > 0 && len(ops.tasks) == 0 { // a list's results are notes: none holds them (a task list's are passages: taskPassages)
		if q.filter.NotDocs, err = docsHolding(ctx, rt.Reader, ops.without, q.filter); err != nil {
			return nil, err
		}
	}
	if len(ops.notTasks) > 0 && len(ops.tasks) == 0 { // nor such a task
		docs, err := docsTasked(ctx, rt.Reader, ops.notTasks, q.filter)
		if err != nil {
			return nil, err
		}
		q.filter.NotDocs = append(q.filter.NotDocs, docs...)
	}
	order := store.ByPath
	if req.Sort == mdsearch.SortModified {
		order = store.ByModified
	}
	what, firsts, total, empty := notesListed, []store.Listed(nil), 0, 0
	if len(ops.tasks) > 0 { // task operators alone: the passages holding such a task
		q.tasks, q.notTasks, q.without, what = ops.tasks, ops.notTasks, ops.without, tasksListed
		firsts, total, err = taskPassages(ctx, rt.Reader, q, order, req.N, req.Offset)
	} else {
		firsts, total, empty, err = rt.ListNotes(ctx, q.filter, order, req.N, req.Offset)
	}
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
	for i := range res {
		if len(q.tasks) > 0 {
			joins.toLastTask(&res[i], q, ends[i])
			continue
		}
		// A list is to choose from: each note's opening, not its whole first passage.
		joins.opening(&res[i], ends[i], "a list shows each note's opening")
	}
	markStale(res, staleIn(stamps))
	if order == store.ByModified { // the order's key, shown
		for i := range res {
			res[i].Modified = time.Unix(0, stamps[noteKey{res[i].Collection, res[i].Path}].MTime).UTC().Format(time.RFC3339)
		}
	}
	resp.Results, resp.Total, resp.Matching, resp.Offset = res, len(res), total, req.Offset
	colls, err := e.nameResults(ctx, rt.Reader, resp)
	if err != nil {
		return nil, err
	}
	if total == 0 && empty > 0 { // notes match, but none can be shown
		what.one = "note with text"
	}
	page := &listPage{total: total, offset: req.Offset, most: req.N == mdsearch.MaxN, filters: filtersOf(req, ops), what: what, by: "by path"}
	if order == store.ByModified {
		page.by = "last changed first"
	}
	if len(q.tasks) > 0 {
		page.filters = strings.TrimSuffix(tasksWritten(q.tasks)+", "+page.filters, ", ")
	}
	if req.MinScore > 0 {
		addNotice(&resp.Notice, "min_score does not apply: a list has no scores")
	}
	if total == 0 {
		switch m := unknownTags(ctx, rt.Reader, q.filter); {
		case len(colls) == 0:
			page, resp.Notice = nil, emptyIndexNotice
		case m != "":
			page, resp.Notice = nil, m // it says why none matches
		}
		addNotice(&resp.Notice, nearPaths(ctx, rt.Reader, q.filter))
		addNotice(&resp.Notice, e.unknownProperties(ctx, rt.Reader, q.filter.Fields))
		addNotice(&resp.Notice, e.propertyValuesNotice(ctx, rt.Reader, q.filter))
	}
	addNotice(&resp.Notice, ops.groupedNotice())
	addNotice(&resp.Notice, ops.wordsNotice())
	addNotice(&resp.Notice, excludeNotice)
	if empty > 0 {
		addNotice(&resp.Notice, emptyNotesNotice(ctx, rt.Reader, q.filter, empty, len(colls) > 1))
	}
	return &found{resp: resp, joins: joins, ends: ends, budget: req.MaxTokens, list: page}, nil
}

// emptyNotesNotice names the notes a list keeps but cannot show, as they
// hold no text (an empty note, or frontmatter alone): a person listing
// what changed last would look for the note just created.
func emptyNotesNotice(ctx context.Context, rd *store.Reader, f store.Filter, n int, qualified bool) string {
	const named = 3
	paths, err := rd.EmptyNotes(ctx, f, named, qualified)
	if err != nil || len(paths) == 0 {
		return ""
	}
	if n == 1 {
		return fmt.Sprintf("%s is not listed: it holds no text", paths[0])
	}
	list := strings.Join(paths, ", ")
	if n > named {
		list += fmt.Sprintf(" and %d more", n-named)
	}
	return fmt.Sprintf("%d notes are not listed, as they hold no text: %s", n, list)
}

// listPage is what a list's notice leads with: how many notes match,
// which of them it shows, and how to see the others.
type listPage struct {
	total, offset int
	most          bool // n is at its most: it cannot be raised
	filters       string
	what          listed
	by            string // the list's order: "by path", "last changed first"
}

// listed names what a list holds, and how it shows each.
type listed struct{ one, many, each string }

// notesListed is what a list of notes holds and shows.
var notesListed = listed{one: "note", many: "notes", each: "each by its opening"}

// matches is "1 note matches" or "3 notes match".
func (w listed) matches(n int) string {
	if n == 1 {
		return "1 " + w.one + " matches"
	}
	return plural.Count(n, w.one, w.many) + " match"
}

// notice is the page's notice with shown notes; cut says a token budget
// left the others out, so a larger n would show no more.
func (p *listPage) notice(shown int, cut bool) string {
	more := moreRaise
	switch {
	case cut:
		more = moreCut
	case p.most:
		more = moreNarrow
	}
	return listNotice(p.total, p.offset, shown, more, p.filters, p.what, p.by)
}

// listMore is how a list's notice says to see the notes it does not show
// besides the next offset: raise n, narrow the filters (n is at its
// most), or nothing more (a budget cut them).
type listMore int

const (
	moreRaise listMore = iota
	moreNarrow
	moreCut
)

// opening cuts r to its opening, about listPreview tokens at a block
// (shorten), a code block it leaves open closed, its read hint saying
// why and which lines read the rest. An opening previews the whole
// result, so unlike a budget's cut it keeps the passages and parts r
// joined (ChunkEnd, PartEnd): its lines are those shown, and the rest
// runs to the last joined passage's end.
func (joins seams) opening(r *mdsearch.Result, end int, why string) {
	joined := r.ChunkEnd
	if joins.shorten(r, listPreview, true, end, why, atLine) {
		r.Text = closeFence(r.Text)
		r.SetChunkEnd(joined)
	}
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

// listNotice says what a list holds (what: notes, or passages holding
// tasks): which of how many, in what order (by), that it is no ranking,
// and how to see the others (more).
func listNotice(total, offset, shown int, more listMore, filters string, what listed, by string) string {
	matches := what.matches(total) + " " + filters
	if filters == "" { // an order alone lists every note
		matches = plural.Count(total, what.one, what.many) + " in all"
	}
	switch {
	case total == 0:
		return "no " + what.one + " matches " + filters
	case shown == 0:
		use := "0"
		if total > 1 {
			use = fmt.Sprintf("0-%d", total-1)
		}
		return fmt.Sprintf("%s; offset %d is past the last of them: use %s", matches, offset, use)
	case shown == total:
		return matches + ", listed " + by + ", " + what.each + ", unranked: add words to search in them"
	}
	which := fmt.Sprintf("%s %d-%d", what.many, offset+1, offset+shown)
	if shown == 1 {
		which = fmt.Sprintf("%s %d", what.one, offset+1)
	}
	if offset == 0 {
		which = "the first"
		if shown > 1 {
			which += fmt.Sprintf(" %d", shown)
		}
	}
	if !strings.HasPrefix(by, "by ") {
		which += "," // "note 2, last changed first"
	}
	if offset+shown >= total {
		return fmt.Sprintf("%s: %s %s, the last of them, %s, unranked", matches, which, by, what.each)
	}
	next := fmt.Sprintf("offset %d gives the next", offset+shown)
	switch {
	case more == moreRaise && offset == 0:
		next += " (or raise n)"
	case more == moreNarrow:
		next += ", or narrow it (a folder, another tag)"
	}
	return fmt.Sprintf("%s: %s %s, %s, unranked; %s, or add words to search in them", matches, which, by, what.each, next)
}
