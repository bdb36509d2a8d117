package eval

import (
	"strings"

	"github.com/mdsearch/mdsearch"
)

// group is the samples that share a weight in a fit: a set's labelled
// queries in a mode, its off-topic ones, those of them that ask nothing,
// its everyday questions and its one-word queries.
type group struct {
	set      string
	mode     mdsearch.Mode
	off      bool
	nothing  bool // off-topic queries that ask nothing (AskingNothing)
	everyday bool // everyday questions (EverydayFit)
	terms    bool // one-word queries (TermsFor)
}

func groupOf(s Sample) group {
	return group{s.Set, s.Mode, s.OffTopic, s.OffTopic && s.asksNothing(), s.Everyday, s.Terms}
}

// weighing is each sample's share of a fit: its group's weight in
// FitOptions, split evenly among the group's queries.
type weighing struct {
	fo      FitOptions
	queries map[group]int
}

func newWeighing(samples []Sample, fo FitOptions) weighing {
	w := weighing{fo, map[group]int{}}
	for _, s := range samples {
		if len(s.Rows) > 0 {
			w.queries[groupOf(s)]++
		}
	}
	return w
}

func (w weighing) of(s Sample) float64 {
	g := groupOf(s)
	x := 1 / float64(w.queries[g])
	switch {
	case g.nothing:
		x *= w.fo.Nothing
	case g.everyday:
		x *= w.fo.Everyday[s.Mode]
	case g.terms:
		x *= w.fo.Terms[s.Mode]
	case s.OffTopic:
		x *= w.fo.OffTopic
	}
	return x
}

// fittedIn names the modes whose fit weighs a group of queries.
func fittedIn(weights map[mdsearch.Mode]float64) string {
	var in []string
	for _, mode := range StageModes {
		if weights[mode] > 0 {
			in = append(in, string(mode))
		}
	}
	if len(in) == 0 {
		return "measured only"
	}
	return "fitted in " + strings.Join(in, ", ")
}
