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
		f = append(f, fmt.Sprintf("%s=%s", k, strconv.Quote(req.Where[k])))
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
// first index run has not completed (no chunking signature yet), so not
// every note of theirs is indexed: one stopped, or one running now; "" for
// none.
func (e *Engine) unfinishedNotice(colls []store.Collection, coll int64) string {
	var names []string
	for _, c := range colls {
		if (coll == 0 || c.ID == coll) && c.Chunking == "" {
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
	hits, err := rd.KeywordAny(ctx, q.terms, store.Filter{}, e.opts.Weights, 1)
	return err != nil || len(hits) > 0 // on an error, keep blaming the filters
}

// hashtag is a query word written as a tag is in a note: #meeting,
// #project/atlas (not #1, a number).
var hashtag = regexp.MustCompile(`^#([\p{L}\p{N}_/-]*[\p{L}_/-][\p{L}\p{N}_/-]*)[.,;:!?]*$`)

// hashtagNotice says how to keep the notes of a tag the query names as a
// note writes it (#meeting), which it searches as a word: in Obsidian's
// search too, tag:meeting is the filter. "" where no note has such a tag.
func hashtagNotice(ctx context.Context, rd *store.Reader, query string) string {
	var tags []string
	for _, w := range strings.Fields(query) {
		if m := hashtag.FindStringSubmatch(w); m != nil && !slices.Contains(tags, m[1]) {
			tags = append(tags, m[1])
		}
	}
	if len(tags) == 0 {
		return ""
	}
	unknown, err := rd.UnknownTags(ctx, store.Filter{Tags: tags})
	if err != nil {
		return ""
	}
	var ops []string
	for _, t := range tags {
		if !slices.ContainsFunc(unknown, func(u string) bool { return strings.EqualFold(u, t) }) {
			ops = append(ops, "tag:"+t)
		}
	}
	if len(ops) == 0 {
		return ""
	}
	return "#" + strings.TrimPrefix(ops[0], "tag:") + " is searched as words; to keep only the notes tagged so, write " + strings.Join(ops, " ")
}

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
	top, err := rd.TopTags(ctx, 12)
	if err != nil || len(top) == 0 {
		return msg + "; no note has any tag"
	}
	names := make([]string, len(top))
	for i, tc := range top {
		names[i] = fmt.Sprintf("%s (%d)", tc.Tag, tc.Notes)
	}
	return msg + "; the tags most notes have: " + strings.Join(names, ", ")
}
