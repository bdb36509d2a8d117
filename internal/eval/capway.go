package eval

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/rescore"
)

// The per-note cap's line. Search's default cap (two results a note)
// gives way where it would show another note's passage under a
// probability of answering ahead of a passage it left out that is at
// least as likely (engine's likelyAnswer). The line is chosen here from
// CapGrid with each dev set left out in turn: fitted on the others, the
// second stage scores them, the line that ranks them best (section hit@5
// plus page MRR, every mode) is kept and the left-out set scored with it.

// CapGrid are the lines CapLeaveOneOut chooses from.
var CapGrid = []float64{0.005, 0.01, 0.02, 0.03, 0.04, 0.05, 0.07, 0.1, 0.15, 0.2}

// CapLeaveOneOut prints, for each dev set left out, the line chosen on
// the others and the set's section hit@5 / page MRR with the cap held and
// with it giving way at that line, in every mode, read from the samples.
func CapLeaveOneOut(w io.Writer, samples []Sample, corpora string, fo FitOptions) error {
	sets := DevSets(corpora)
	models := map[string]*rescore.Model{}
	for _, set := range sets {
		m, err := fitWithout(samples, set.Name, fo)
		if err != nil {
			return err
		}
		models[set.Name] = m
	}
	score := func(set string, mode mdsearch.Mode, likely float64) (float64, float64) {
		return capRanking(samples, models[set].Modes[string(mode)], set, mode, likely)
	}
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "left out\tline chosen on the others\tmode\tcap held sec@5 / MRR\tcap gives way")
	for _, out := range sets {
		best, top := 0.0, -1.0
		for _, likely := range CapGrid {
			var sum float64
			for _, set := range sets {
				for _, mode := range StageModes {
					if set.Name != out.Name {
						h, r := score(set.Name, mode, likely)
						sum += h + r
					}
				}
			}
			if sum > top+1e-9 {
				best, top = likely, sum
			}
		}
		for _, mode := range StageModes {
			h0, r0 := score(out.Name, mode, 0)
			h, r := score(out.Name, mode, best)
			fmt.Fprintf(tw, "%s\t%.3f\t%s\t%.3f / %.3f\t%.3f / %.3f\n", out.Name, best, mode, h0, r0, h, r)
		}
	}
	return tw.Flush()
}

// capRanking is rankingOf the set's samples in mode as stage scores them,
// the cap giving way at likely (0: held).
func capRanking(samples []Sample, stage *rescore.Stage, set string, mode mdsearch.Mode, likely float64) (hit, mrr float64) {
	return rankingOf(samples, set, mode, func(s Sample) []int {
		logits, probs := s.scored(stage)
		return placesGivingWay(rescore.Ranks(logits), probs, s.Pages, mdsearch.DefaultMaxPerPage, likely)
	})
}

// placesGivingWay are the places shownPlaces gives, with the cap giving
// way at likely (0: held) as the engine's dedup does (joins aside): a
// candidate the cap leaves out that is at least likely is shown before
// one of another note under likely, and fills the places the candidates
// leave empty.
func placesGivingWay(rank []int, probs []float64, pages []string, perNote int, likely float64) []int {
	order := make([]int, len(rank))
	for i, r := range rank {
		order[r-1] = i
	}
	out := make([]int, len(rank))
	per := map[string]int{}
	var over []int
	place := 0
	show := func(i int) {
		per[pages[i]]++
		place++
		out[i] = place
	}
	for _, i := range order {
		if per[pages[i]] >= perNote {
			if likely > 0 && probs[i] >= likely {
				over = append(over, i)
			}
			continue
		}
		for ; len(over) > 0 && probs[i] < likely; over = over[1:] { // none over at likely 0: probs unread
			show(over[0])
		}
		show(i)
	}
	for ; len(over) > 0; over = over[1:] {
		show(over[0])
	}
	return out
}
