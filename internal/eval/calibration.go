package eval

import (
	"math"
	"slices"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/engine"
	"github.com/mdsearch/mdsearch/rescore"
)

// Calibration says how well a configuration's top scores read as
// probabilities: over each query's best result, how often a score of p
// is right p of the time (ECE), and the shares the README's reading of a
// score rests on.
type Calibration struct {
	// ECE is the expected calibration error of the top score against
	// whether the top result answers the query (its section for section
	// labels, its note for note labels), over the labelled queries and
	// the off-topic ones (never right), in ten bins of width 0.1.
	ECE float64 `json:"ece"`
	// ECEOnTopic is the same over the labelled queries alone.
	ECEOnTopic float64 `json:"ece_on_topic"`
	// ECEBelow is the expected calibration error of the scores of the
	// results after the first (to the k-th), over the labelled queries
	// and the off-topic ones: a score shown second or fifth is a promise
	// too.
	ECEBelow float64 `json:"ece_below"`
	// RightStrong is the share of top results on a relevant note that
	// score at least Strong; OffStrong that of off-topic queries.
	RightStrong float64 `json:"right_strong"`
	OffStrong   float64 `json:"off_topic_strong"`
	// RightUnlikely and OffUnlikely are the same shares under
	// engine.Unlikely, where a search says no result is likely to answer.
	RightUnlikely float64 `json:"right_unlikely"`
	OffUnlikely   float64 `json:"off_topic_unlikely"`
	// OffTokens is what an agent reads for an off-topic query: the
	// tokens of its results' text, as Outcome.Tokens counts a query's.
	OffTokens float64 `json:"off_topic_tokens"`
}

// calibrate measures outs (whose TopScore and ranks are set), the
// off-topic top scores and those of the off-topic results below them.
func calibrate(outs []Outcome, off, offBelow []float64) Calibration {
	var on, below []scored
	var right []float64
	for _, s := range offBelow {
		below = append(below, scored{s, false})
	}
	for _, o := range outs {
		below = append(below, o.below...)
		ok := o.PageRank == 1
		if o.Labelled {
			ok = o.SectionRank == 1
		}
		on = append(on, scored{o.TopScore, ok})
		if o.PageRank == 1 {
			right = append(right, o.TopScore)
		}
	}
	return measure(on, right, off, below)
}

// measure is a Calibration of the top scores of the labelled queries (on,
// each with whether it is right), of the right top hits among them as
// RightStrong counts them, of the off-topic queries, and of the results
// below the top ones (below, off-topic queries' included).
func measure(on []scored, right, off []float64, below []scored) Calibration {
	all := slices.Clip(on) // the appends below copy, leaving on as it is
	for _, s := range off {
		all = append(all, scored{s, false})
	}
	strong := func(x float64) bool { return x >= Strong }
	unlikely := func(x float64) bool { return x < engine.Unlikely }
	return Calibration{ECE: ece(all), ECEOnTopic: ece(on), RightStrong: share(right, strong), OffStrong: share(off, strong),
		RightUnlikely: share(right, unlikely), OffUnlikely: share(off, unlikely), ECEBelow: ece(below)}
}

// share is the share of scores for which in holds, 0 for none.
func share(scores []float64, in func(float64) bool) float64 {
	if len(scores) == 0 {
		return 0
	}
	n := 0
	for _, s := range scores {
		if in(s) {
			n++
		}
	}
	return float64(n) / float64(len(scores))
}

type scored struct {
	p  float64
	ok bool
}

// ece is the expected calibration error of xs in ten equal bins.
func ece(xs []scored) float64 {
	if len(xs) == 0 {
		return 0
	}
	var n, conf, acc [10]float64
	for _, x := range xs {
		b := min(9, int(math.Max(0, x.p)*10))
		n[b]++
		conf[b] += x.p
		acc[b] += b2f(x.ok)
	}
	var e float64
	for b := range n {
		if n[b] > 0 {
			e += math.Abs(conf[b]-acc[b]) / float64(len(xs))
		}
	}
	return e
}

// SampleCalibration scores each of a set's samples in mode with model m
// and measures its top candidate's probability as calibrate does: right
// when that candidate answers the query, never right for off-topic ones;
// ECEBelow reads the candidates shown after it, at most the default a
// note. Unlike an eval run it sees the candidates as they are before
// neighbouring passages of a result join, so it is a quick reading of a
// fit, not the report's.
func SampleCalibration(samples []Sample, m *rescore.Model, set string, mode mdsearch.Mode) Calibration {
	var on, below []scored
	var right, off []float64
	eachScored(samples, m, set, mode, func(s Sample) bool { return !s.Everyday && !s.Terms }, func(s Sample, logits, probs []float64, top int) {
		place := shownPlaces(rescore.Ranks(logits), s.Pages, mdsearch.DefaultMaxPerPage)
		for i, at := range place {
			if at > 1 && at <= mdsearch.DefaultN {
				below = append(below, scored{probs[i], !s.OffTopic && s.Rows[i].Answer})
			}
		}
		p := probs[top]
		switch {
		case s.OffTopic:
			off = append(off, p)
		case s.Rows[top].Answer:
			on, right = append(on, scored{p, true}), append(right, p)
		default:
			on = append(on, scored{p, false})
		}
	})
	return measure(on, right, off, below)
}

// EverydayStrong is the share of the held everyday questions
// (EverydayHeld) asked of set in mode whose best candidate m scores
// Strong or more, read from the samples as SampleCalibration reads them.
func EverydayStrong(samples []Sample, m *rescore.Model, set string, mode mdsearch.Mode) float64 {
	var top []float64
	eachScored(samples, m, set, mode, func(s Sample) bool { return s.Everyday && s.Held }, func(_ Sample, _, probs []float64, best int) {
		top = append(top, probs[best])
	})
	return share(top, func(p float64) bool { return p >= Strong })
}

// TermsStrong is the share of the right top hits of a set's one-word
// queries (TermsFor) in mode that m scores Strong or more, read from the
// samples as SampleCalibration reads them.
func TermsStrong(samples []Sample, m *rescore.Model, set string, mode mdsearch.Mode) float64 {
	var right []float64
	eachScored(samples, m, set, mode, func(s Sample) bool { return s.Terms }, func(s Sample, _, probs []float64, top int) {
		if s.Rows[top].Answer {
			right = append(right, probs[top])
		}
	})
	return share(right, func(p float64) bool { return p >= Strong })
}

// eachScored scores with m each of set's samples in mode that keep keeps,
// and hands fn its logits, probabilities and the ranker's best.
func eachScored(samples []Sample, m *rescore.Model, set string, mode mdsearch.Mode, keep func(Sample) bool, fn func(s Sample, logits, probs []float64, top int)) {
	stage := m.Modes[string(mode)]
	if stage == nil {
		return
	}
	for _, s := range samples {
		if s.Set == set && s.Mode == mode && len(s.Rows) > 0 && keep(s) {
			logits, probs := s.scored(stage)
			fn(s, logits, probs, argmax(logits))
		}
	}
}

// argmax is the index of xs's largest (the first of equals).
func argmax(xs []float64) int {
	top := 0
	for i := range xs {
		if xs[i] > xs[top] {
			top = i
		}
	}
	return top
}
