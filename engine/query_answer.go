package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/plural"
)

// found is a search's answer before what waits for its suggestion to be
// confirmed: the notices that depend on it, and the token budget, which
// the whole notice counts against.
type found struct {
	resp   *mdsearch.SearchResponse // Results not yet fitted to budget
	sug    suggestion               // unconfirmed
	joins  seams
	ends   []int // each result's last line before capResults (fitBudget)
	budget int   // the request's MaxTokens
	weak   bool  // the best result is unlikely to answer (isUnlikely)
	// nothing: the query's words are common ones alone, or it holds no
	// word the keyword index reads ("?", "->"), which no result can be
	// known to answer (AsksNothing).
	nothing bool
	// frame: the notice of the request that opened the query, taken off
	// (requestFrame), for a respelled search shown in its place.
	frame string
	// wordless: the search said its first result holds none of the
	// query's words (wordlessTop).
	wordless bool
	// unfinished says which collections' first index run has not read
	// every note (unfinishedNotice), or "".
	unfinished string
	// unreadable: the model cannot read the query, which keywords alone
	// ranked (Unreadable).
	unreadable bool
	// spell: a word of the query no passage holds has a near one that
	// some do, the respelled query offered or only named.
	spell respell
	// list is what a list's notice leads with (listNotice), written once
	// the results are fitted to the budget: it names the notes kept, and
	// the offset that follows them.
	list *listPage
	// noneHeld: the notice says no passage holds any of the query's words.
	noneHeld bool
	// thin: the results after the first that score under Unlikely are
	// cut to their openings (lowCut).
	thin bool
	// required: the results hold the query's quoted phrases or tasks,
	// which their openings may not show: they are not cut (cutUnlikely).
	required bool
	// best is the best score of the search before min_score left any
	// result out, -1 when it found none: what offer compares.
	best float64
	// deferred: the reranker asked for has not reordered the results yet
	// (reranked); spellNotice is what offer says of the suggestion.
	deferred    bool
	spellNotice string
}

// finish writes the notices that wait for the suggestion and fits the
// results to the token budget, the notice's tokens counted as the
// results' header and footer lines are: an agent pays for them alike.
func (f *found) finish() {
	resp := f.resp
	switch {
	case f.weak && f.unfinished != "":
		addNotice(&resp.Notice, unreadNotice(resp.Results[0].Score, f.unfinished))
	case f.weak && f.unreadable:
		addNotice(&resp.Notice, unreadableNotice(resp.Results[0].Score))
	case f.weak:
		// Once the wordless notice has pointed to hybrid, this one need not.
		addNotice(&resp.Notice, unlikelyNotice(resp.Results[0].Score, f.spell, resp.Mode == mdsearch.ModeSemantic && !f.wordless))
	}
	var cuts string // the notice of the results cutUnlikely cut, at its longest: the budget pays for it too
	// Cut to their openings as a list's are: a query that asks nothing
	// in any mode, as its notice says; one unlikely to answer but in
	// semantic mode, which misses answers hybrid finds.
	low := false // the results cut are those under Unlikely after a likely first
	switch {
	case f.unreadable || f.required:
	case f.nothing || f.weak && resp.Mode != mdsearch.ModeSemantic:
		f.cutUnlikely()
	case f.thin:
		f.cutFrom(1)
		low = true
	}
	cuts = cutNotice(resp.Results, low)
	lead := func(cut bool) string {
		if f.list == nil {
			return ""
		}
		return f.list.notice(len(resp.Results), cut)
	}
	notice := joinNotices(lead(false), resp.Notice)
	if f.budget <= 0 || len(resp.Results) == 0 || fitsWhole(resp.Results, f.budget-noticeTokens(joinNotices(notice, cuts))) {
		resp.Notice = joinNotices(notice, cuts) // fitBudget would keep every result as it is
		return
	}
	if cuts != "" {
		defer func() { addNotice(&resp.Notice, cutNotice(resp.Results, low)) }() // those kept
	}
	// Room for the notices that count what did not fit, at their longest.
	addNotice(&notice, droppedNotice(len(resp.Results), f.budget))
	addNotice(&notice, cuts)
	left := f.budget - noticeTokens(notice)
	all := resp.Results
	var dropped int
	resp.Results, dropped = f.fitNamed(all, left)
	resp.Total = len(resp.Results)
	if t := resultTokens(resp.Results[0]); len(resp.Results) == 1 && t > left {
		// The first result is always kept, its first words at least: say
		// that it alone is over, as "did not fit" would imply it fits.
		// Counted with the notices, which the budget pays for too: the
		// result alone may be under it ("46 tokens" over a budget of 60).
		addNotice(&resp.Notice, fmt.Sprintf("over max_tokens %d: the first result, always shown, cut as far as it goes, and these notices cost about %d tokens",
			f.budget, t+f.budget-left))
	}
	resp.Notice = joinNotices(lead(dropped > 0), resp.Notice)
	switch {
	case dropped > 0 && f.list != nil:
		addNotice(&resp.Notice, fmt.Sprintf("%s did not fit max_tokens %d", plural.Count(dropped, "more "+f.list.what.one, "more "+f.list.what.many), f.budget))
	case dropped > 0:
		room := left
		for _, r := range resp.Results {
			room -= resultTokens(r)
		}
		addNotice(&resp.Notice, namedDroppedNotice(all[len(all)-dropped:], f.budget, room))
	}
}

// fitNamed fits all to left tokens (fitBudget), keeping room to name the
// results it leaves out (namesRoom) where that costs no result: a list's
// notice names none, and a first result that fits whole, or another one,
// comes before the names. It fits copies, as fitBudget cuts in place.
func (f *found) fitNamed(all []mdsearch.Result, left int) ([]mdsearch.Result, int) {
	kept, dropped := fitBudget(slices.Clone(all), max(left, 1), f.joins, f.ends)
	names := 0
	if f.list == nil && dropped > 0 {
		names = namesRoom(all, f.budget)
	}
	if first := resultTokens(all[0]); names > 0 && first <= left {
		names = min(names, left-first)
	}
	if names <= 0 {
		return kept, dropped
	}
	if roomy, d := fitBudget(slices.Clone(all), max(left-names, 1), f.joins, f.ends); len(roomy) >= len(kept) {
		return roomy, d
	}
	return kept, dropped
}

// droppedNotice counts the results that did not fit the budget.
func droppedNotice(dropped, budget int) string {
	more := plural.Count(dropped, "more result", "more results")
	return fmt.Sprintf("%s did not fit max_tokens %d; raise it to see them", more, budget)
}

// namesRoom is the room a budget keeps for naming the results it leaves
// out (namedDroppedNotice): an eighth of it at most, and none where that
// would not name one; the results after the first, which is always
// shown, may be left out.
func namesRoom(rs []mdsearch.Result, budget int) int {
	if len(rs) < 2 {
		return 0
	}
	plain := noticeTokens(droppedNotice(len(rs)-1, budget))
	one := noticeTokens(namedDroppedNotice(rs[len(rs)-1:], budget, budget)) - noticeTokens(droppedNotice(1, budget))
	if budget/8 < one {
		return 0
	}
	return min(budget/8, noticeTokens(namedDroppedNotice(rs[1:], budget, budget))-plain)
}

// namedDroppedNotice is droppedNotice naming the results left out, each
// by its note (as a result's header names it) and section, quoted, its
// lines and score, as many, in order, as the room the budget has left
// beside the results holds (about 20 tokens each): an agent then reads
// the one it wants, not a larger budget of them all.
func namedDroppedNotice(dropped []mdsearch.Result, budget, room int) string {
	plain := droppedNotice(len(dropped), budget)
	notice, base := plain, noticeTokens(plain)
	secs := droppedSections(dropped)
	var names []string
	for i, s := range secs {
		lines := fmt.Sprintf("lines %d-%d", s.start, s.end)
		if s.start == s.end {
			lines = fmt.Sprintf("line %d", s.start)
		}
		// Quoted: a path may hold ", " or a request field's name.
		names = append(names, fmt.Sprintf("%s (%s, %.1f%%)", strconv.Quote(s.name), lines, 100*s.score))
		more := ""
		if rest := len(secs) - i - 1; rest > 0 {
			more = fmt.Sprintf(", and %s", plural.Count(rest, "more section", "more sections"))
		}
		named := fmt.Sprintf("%s did not fit max_tokens %d: %s%s; read one, or raise max_tokens to see them",
			plural.Count(len(dropped), "more result", "more results"), budget, strings.Join(names, ", "), more)
		if noticeTokens(named)-base > room {
			break
		}
		notice = named
	}
	return notice
}

// droppedSection is a section results left out by a budget belong to:
// its name, the lines of its parts left out, and the best score of them.
type droppedSection struct {
	name       string
	start, end int
	score      float64
}

// droppedSections are the sections of the results dropped, in their
// order, each once: parts of one section are read together. A section is
// named as a result's header names its note and section, and by its
// read name ("#example-1") where another of the note has its path.
func droppedSections(dropped []mdsearch.Result) []droppedSection {
	var out []droppedSection
	at := map[string]int{}
	for _, r := range dropped {
		if r.Truncated && r.RestTo > r.EndLine { // cut to its opening: the rest is its too
			r.EndLine = r.RestTo
		}
		name := r.Path
		if r.ReadPath != "" {
			name = r.ReadPath
		}
		switch {
		case r.ReadSection != "":
			name += " > " + r.ReadSection
		case len(r.SectionPath) > 0:
			name += " > " + strings.Join(r.SectionPath, " > ")
		}
		if i, ok := at[name]; ok {
			out[i].start, out[i].end = min(out[i].start, r.StartLine), max(out[i].end, r.EndLine)
			out[i].score = max(out[i].score, r.Score)
			continue
		}
		at[name] = len(out)
		out = append(out, droppedSection{name, r.StartLine, r.EndLine, r.Score})
	}
	return out
}

// noticeTokens is what an answer's notice costs as every adapter prints
// it: "Note: …" on a line of its own.
func noticeTokens(notice string) int {
	if notice == "" {
		return 0
	}
	return EstimateTokens("Note: " + notice)
}

// fitsWhole reports whether every result, with its header and footer,
// fits budget.
func fitsWhole(rs []mdsearch.Result, budget int) bool {
	for _, r := range rs {
		budget -= resultTokens(r)
	}
	return budget >= 0
}

// joinNotices is the notices given, the empty ones left out, in order.
func joinNotices(notices ...string) string {
	var n string
	for _, m := range notices {
		addNotice(&n, m) // an empty one adds nothing
	}
	return n
}

// leftOut counts the results min_score left out, and the best of them.
type leftOut struct {
	n    int
	best float64
}

// keepScored is rs without the results scoring under min (0: all kept),
// on the score shown, after the second stage and any reranker.
func keepScored(rs []mdsearch.Result, min float64) ([]mdsearch.Result, leftOut) {
	var out leftOut
	if min <= 0 {
		return rs, out
	}
	kept := rs[:0]
	for _, r := range rs {
		if r.Score >= min {
			kept = append(kept, r)
			continue
		}
		out.n++
		out.best = max(out.best, r.Score)
	}
	return kept, out
}

// notice counts what min_score left out and names the best score left
// out, so the caller knows how far to lower it; "" when none was.
func (l leftOut) notice(min float64) string {
	switch l.n {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("1 result left out: it scored under min_score %g (%.1f%%); lower min_score to see it", min, 100*l.best)
	}
	return fmt.Sprintf("%d results left out: they scored under min_score %g (the best %.1f%%); lower min_score to see them", l.n, min, 100*l.best)
}
