package engine

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/plural"
	"github.com/mdsearch/mdsearch/store"
)

// nResults is "1 result" or "n results".
func nResults(n int) string {
	if n == 1 {
		return "1 result"
	}
	return strconv.Itoa(n) + " results"
}

// filtersOf names the filters of req, as a request spells them, or "".
func filtersOf(req mdsearch.SearchRequest, ops operators) string {
	var f []string
	if req.Collection != "" {
		f = append(f, "collection "+strconv.Quote(req.Collection))
	}
	for _, t := range append([]string{req.Tag}, req.Tags...) { // Tag is the first given
		if t != "" {
			f = append(f, "tag "+strconv.Quote(t))
		}
	}
	if req.PathPrefix != "" {
		f = append(f, "path prefix "+strconv.Quote(req.PathPrefix))
	}
	f = append(f, ops.describe()...)
	keys := slices.Sorted(maps.Keys(req.Where))
	for _, k := range keys {
		f = append(f, mdsearch.ConditionText(k, req.Where[k]))
	}
	for _, p := range req.Exclude {
		f = append(f, "not "+strconv.Quote(p))
	}
	return strings.Join(f, ", ")
}

// outdatedNames says which of the collections searched (all, or the one
// of id coll) an older mdsearch cut (cutByOlder), or is "".
func outdatedNames(colls []store.Collection, coll int64) string {
	var names []string
	for _, c := range colls {
		if (coll == 0 || c.ID == coll) && cutByOlder(c.Chunking) {
			names = append(names, strconv.Quote(c.Name))
		}
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return "collection " + names[0] + " was cut"
	}
	return "collections " + strings.Join(names, ", ") + " were cut"
}

// unfinishedNotice names the collections searched (all, or coll) whose
// first index run has not completed (unfinished), so not
// every note of theirs is indexed: one stopped, or one running now; "" for
// none.
func (e *Engine) unfinishedNotice(colls []store.Collection, coll int64) string {
	var names []string
	for _, c := range colls {
		if (coll == 0 || c.ID == coll) && unfinished(c.Chunking) {
			names = append(names, strconv.Quote(c.Name))
		}
	}
	if len(names) == 0 {
		return ""
	}
	what := "collection " + names[0]
	if len(names) > 1 {
		what = "collections " + strings.Join(names, ", ")
	}
	if e.indexing() {
		return "the first index run of " + what + " is reading its notes now"
	}
	return "the first index run of " + what + " was stopped before it read every note (the same `mdsearch index` command, run again, finishes it)"
}

// matchesAnywhere reports whether q's keywords match any passage when
// the filters are left out: an empty filtered answer then blames the
// filters only when they are to blame.
func (e *Engine) matchesAnywhere(ctx context.Context, rd *store.Reader, q *query) bool {
	if len(q.terms) == 0 {
		return false
	}
	// A row holding every term is the cheap answer; the OR query of
	// common words costs a bm25 of many rows.
	for _, op := range []string{" AND ", " OR "} {
		hits, err := rd.Keyword(ctx, strings.Join(q.terms, op), store.Filter{}, e.opts.Weights, 1)
		if err != nil || len(hits) > 0 {
			return true // on an error, keep blaming the filters
		}
	}
	return false
}

// hashtag is a query word written as a tag is in a note: #meeting,
// #project/atlas (not #1, a number).
var hashtag = regexp.MustCompile(`^#([\p{L}\p{N}_/-]*[\p{L}_/-][\p{L}\p{N}_/-]*)[.,;:!?]*$`)

// hashtagNotice says how to keep the notes of a tag the query names as a
// note writes it (#meeting), which it searches as words: in Obsidian's
// search too, tag:meeting is the filter. Only a tag some note in the
// search's scope (f) carries is named, one not already filtered on, and
// each alone (tags given together must all match); "" for none.
func hashtagNotice(ctx context.Context, rd *store.Reader, query string, f store.Filter) string {
	var named, ops []string
	for _, w := range strings.Fields(query) {
		m := hashtag.FindStringSubmatch(w)
		if m == nil || slices.ContainsFunc(append([]string{f.Tag}, f.Tags...), func(t string) bool { return store.NormTag(t) == store.NormTag(m[1]) }) ||
			slices.Contains(named, "#"+m[1]) || len(named) == maxHashtags {
			continue
		}
		g := f
		g.Tags = append(slices.Clip(f.Tags), m[1])
		if n, err := rd.CountNotes(ctx, g); err == nil && n > 0 {
			named, ops = append(named, "#"+m[1]), append(ops, "tag:"+m[1])
		}
	}
	switch len(named) {
	case 0:
		return ""
	case 1:
		return named[0] + " is searched as words; " + ops[0] + " keeps only the notes tagged so"
	}
	return strings.Join(named, ", ") + " are searched as words; " + strings.Join(ops, " or ") + " keeps only the notes tagged so (tags given together must all match)"
}

// maxHashtags bounds the tags a query's words are checked for: each costs
// a count of the notes in scope.
const maxHashtags = 5

// unknownTags names the filter's tags that no note carries, and the tags
// notes do carry most, or is "" when every tag is in use.
func unknownTags(ctx context.Context, rd *store.Reader, f store.Filter) string {
	unknown, err := rd.UnknownTags(ctx, f)
	if err != nil || len(unknown) == 0 {
		return ""
	}
	quoted := make([]string, len(unknown))
	for i, t := range unknown {
		quoted[i] = strconv.Quote(t)
	}
	msg := "no note has the tag " + strings.Join(quoted, " or ")
	if len(unknown) == 1 {
		if near, ok, err := rd.NearestTag(ctx, unknown[0]); err == nil && ok {
			return msg + fmt.Sprintf("; did you mean %q (%s)?", near.Tag, plural.Count(near.Notes, "note", "notes"))
		}
	}
	top, err := rd.TopTags(ctx, 12)
	if err != nil || len(top) == 0 {
		return msg + "; no note has any tag"
	}
	names := make([]string, len(top))
	for i, tc := range top {
		names[i] = fmt.Sprintf("%s (%d)", tc.Tag, tc.Notes)
	}
	return msg + "; the most used tags, by notes: " + strings.Join(names, ", ")
}

// openQuoteNotice says that a quote mark of the query (its operators
// taken out) opens a phrase nothing closes, whose words were searched
// one by one, or is "": a phrase is searched only between two quotes,
// and a search that quietly did otherwise would read as the phrase's.
func openQuoteNotice(query string) string {
	q := quotes.Replace(query)
	open := -1
	for i := 0; i < len(q); i++ {
		if q[i] == '"' {
			if open < 0 {
				open = i
			} else {
				open = -1
			}
		}
	}
	if open < 0 || open > 0 && !strings.ContainsRune(" \t\n(", rune(q[open-1])) {
		return "" // none open, or an inch mark (12" pizza) or a typo inside a word: no phrase was meant
	}
	after := strings.Fields(q[open+1:])
	if len(after) == 0 {
		return ""
	}
	return fmt.Sprintf("the quote mark before %q opens a phrase nothing closes, so its words were searched one by one: close it to search the phrase", after[0])
}

// nearPaths names, for each path text of the filter (path:, or a path
// prefix) that no note's path holds, the text of a path that reads as it
// does but for its spaces, hyphens and underscores ("leadership council"
// for "leadership-council"), or is "".
func nearPaths(ctx context.Context, rd *store.Reader, f store.Filter) string {
	var msgs []string
	for i, p := range append(slices.Clone(f.PathHas), f.PathPrefix) {
		prefix := i == len(f.PathHas)
		if p == "" {
			continue
		}
		near, ok, err := rd.NearPath(ctx, p, prefix)
		if err != nil || !ok || strings.EqualFold(near, p) {
			continue
		}
		what := "holds"
		if prefix {
			what = "starts with"
		}
		msgs = append(msgs, fmt.Sprintf("no note's path %s %q; did you mean %q?", what, p, near))
	}
	return strings.Join(msgs, "; ")
}
