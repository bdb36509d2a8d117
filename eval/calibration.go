package eval

import (
	"math"

	"github.com/mdsearch/mdsearch"
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
	// RightStrong is the share of top results on a relevant note that
	// score at least Strong; OffStrong that of off-topic queries.
	RightStrong float64 `json:"right_strong"`
	OffStrong   float64 `json:"off_topic_strong"`
}

// calibrate measures outs (whose TopScore and ranks are set) and the
// off-topic top scores.
func calibrate(outs []Outcome, off []float64) Calibration {
	var on, all []scored
	var right, rightStrong int
	for _, o := range outs {
		ok := o.PageRank == 1
		if o.Labelled {
			ok = o.SectionRank == 1
		}
		on = append(on, scored{o.TopScore, ok})
		if o.PageRank == 1 {
			right++
			if o.TopScore >= Strong {
				rightStrong++
			}
		}
	}
	all = append(all, on...)
	var offStrong int
	for _, s := range off {
		all = append(all, scored{s, false})
		if s >= Strong {
			offStrong++
		}
	}
	c := Calibration{ECE: ece(all), ECEOnTopic: ece(on)}
	if right > 0 {
		c.RightStrong = float64(rightStrong) / float64(right)
	}
	if len(off) > 0 {
		c.OffStrong = float64(offStrong) / float64(len(off))
	}
	return c
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
// when that candidate answers the query, never right for off-topic ones.
// Unlike an eval run it sees the candidates before results are cut to a
// few a note, so it is a quick reading of a fit, not the report's.
func SampleCalibration(samples []Sample, m *rescore.Model, set string, mode mdsearch.Mode) Calibration {
	stage := m.Modes[string(mode)]
	var on, all []scored
	var right, rightStrong, off, offStrong int
	for _, s := range samples {
		if s.Set != set || s.Mode != mode || len(s.Rows) == 0 || stage == nil {
			continue
		}
		xs := make([]rescore.Vector, len(s.Rows))
		for i, r := range s.Rows {
			copy(xs[i][:], r.X)
		}
		logits, probs := stage.Score(xs)
		top := 0
		for i := range logits {
			if logits[i] > logits[top] {
				top = i
			}
		}
		p := probs[top]
		if s.OffTopic {
			all = append(all, scored{p, false})
			off++
			offStrong += int(b2f(p >= Strong))
			continue
		}
		ok := s.Rows[top].Answer
		on, all = append(on, scored{p, ok}), append(all, scored{p, ok})
		if ok {
			right++
			rightStrong += int(b2f(p >= Strong))
		}
	}
	c := Calibration{ECE: ece(all), ECEOnTopic: ece(on)}
	if right > 0 {
		c.RightStrong = float64(rightStrong) / float64(right)
	}
	if off > 0 {
		c.OffStrong = float64(offStrong) / float64(off)
	}
	return c
}
