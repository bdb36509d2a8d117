package eval

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
)

// mostMisses is how many misses the text report lists per configuration;
// --json --details has every query's outcome.
const mostMisses = 20

// miss is a query that found none of its notes in the first k results:
// where its labels are, and what came first instead.
type miss struct {
	line   int
	query  string
	wanted string
	first  string // the first result as describe names it; "" when none came back
}

// missesOf lists the queries of outs (one outcome per query of qs, in
// order) whose notes were not found.
func missesOf(qs []Query, outs []Outcome) []miss {
	var out []miss
	for i, o := range outs {
		if o.PageRank == 0 {
			out = append(out, miss{line: qs[i].Line, query: qs[i].Text, wanted: wanted(&qs[i]), first: o.first})
		}
	}
	return out
}

// wanted says where a query's answer is: each label as a path and its
// headings, or the path text a path label looks for.
func wanted(q *Query) string {
	if q.PathContains != "" {
		return fmt.Sprintf("a note whose path contains %q", q.PathContains)
	}
	labels := make([]string, len(q.Relevant))
	for i, l := range q.Relevant {
		labels[i] = strings.Join(append([]string{l.Path}, l.SectionPath...), " > ")
	}
	return strings.Join(labels, "; ")
}

// writeMisses lists, per configuration, the queries that found none of
// their notes, the first mostMisses of them, by their line in the query
// file.
func writeMisses(w io.Writer, r *Report) {
	for _, c := range r.Configs {
		if len(c.misses) == 0 {
			continue
		}
		fmt.Fprintf(w, "\nmissed by %s: %d of %d queries found none of their notes in the first %d\n",
			c.Name, len(c.misses), c.Queries, r.K)
		for _, m := range c.misses[:min(len(c.misses), mostMisses)] {
			first := "no results"
			if m.first != "" {
				first = "first came " + m.first
			}
			fmt.Fprintf(w, "- line %d %q: wanted %s; %s\n", m.line, m.query, m.wanted, first)
		}
		if n := len(c.misses) - mostMisses; n > 0 {
			fmt.Fprintf(w, "- … and %d more (--json --details gives every query's outcome)\n", n)
		}
	}
}

// offScored is an off-topic query and its top score.
type offScored struct {
	query string
	score float64
}

// strongOff lists the off-topic queries (qs, whose top scores are top, in
// order) that scored at least Strong, best first: the questions a vault's
// words mislead the score on, for a person to read.
func strongOff(qs []string, top []float64) []offScored {
	var out []offScored
	for i, s := range top {
		if i < len(qs) && s >= Strong {
			out = append(out, offScored{qs[i], s})
		}
	}
	slices.SortStableFunc(out, func(a, b offScored) int { return cmp.Compare(b.score, a.score) })
	return out
}

// writeOffStrong lists, per configuration, the off-topic queries whose top
// score reached Strong, the first mostMisses of them.
func writeOffStrong(w io.Writer, r *Report) {
	for _, c := range r.Configs {
		if len(c.offStrong) == 0 {
			continue
		}
		fmt.Fprintf(w, "\noff-topic at %.0f%% or more in %s: %d (the vault cannot answer them; its words mislead the score)\n",
			100*Strong, c.Name, len(c.offStrong))
		for _, o := range c.offStrong[:min(len(c.offStrong), mostMisses)] {
			fmt.Fprintf(w, "- %q: %.1f%%\n", o.query, 100*o.score)
		}
		if n := len(c.offStrong) - mostMisses; n > 0 {
			fmt.Fprintf(w, "- … and %d more (--json --details gives every off-topic score)\n", n)
		}
	}
}
