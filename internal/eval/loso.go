package eval

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/rescore"
)

// LeaveOneOut fits the second stage on all dev sets but one and scores
// the one left out, for every set in turn, beside the first stage alone
// (the fusion) and the bm25-sections baseline, and prints the table.
func LeaveOneOut(ctx context.Context, w io.Writer, emb embed.Embedder, samples []Sample, corpora, cacheDir string, fo FitOptions) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "left out\tmode\tcand@50\tsecond stage sec@5 / MRR\tfirst stage\tbm25-sections\toff ≥50%\tright ≥50%\tECE\tECE on-topic\tECE 2–5\tright <10%\toff <10%\tunrelated: off ≥50%\tECE\teveryday: off ≥50%\tfirst: off ≥50%\tright ≥50%\tECE")
	sets := DevSets(corpora)
	for _, set := range sets {
		m, err := fitWithout(samples, set.Name, fo)
		if err != nil {
			return err
		}
		qs, err := LoadQueries(set.Queries)
		if err != nil {
			return err
		}
		off, err := OffTopicFor(set, sets, offTopicPerSet)
		if err != nil {
			return err
		}
		unrelated, err := UnrelatedFor(set, sets)
		if err != nil {
			return err
		}
		for _, mode := range StageModes {
			base := Options{Vault: set.Vault, Queries: qs, Embedder: emb, OffTopic: off, FirstStageOnly: true}
			if cacheDir != "" {
				base.EmbedCache = filepath.Join(cacheDir, set.Name+".gob")
			}
			cfg := Config{Name: "sections-" + string(mode), Chunker: ChunkSections, Mode: mode}
			base.Configs = []Config{{Name: ChunkBM25Sections, Chunker: ChunkBM25Sections, Mode: mdsearch.ModeKeyword}, cfg}
			first, err := Run(ctx, base)
			if err != nil {
				return err
			}
			second := base
			second.FirstStageOnly, second.Rescore, second.Configs = false, m, []Config{cfg}
			// The same labelled answers measured again with unrelated
			// off-topic queries alone, and with the held everyday
			// questions alone, in the same index.
			second.AlsoOffTopic = map[string][]string{"unrelated": unrelated, "everyday": EverydayHeld}
			sec, err := Run(ctx, second)
			if err != nil {
				return err
			}
			b, f, s := first.Configs[0], first.Configs[1], sec.Configs[0]
			u, ev := s.CalibWith["unrelated"], s.CalibWith["everyday"]
			fmt.Fprintf(tw, "%s\t%s\t%.3f\t%s\t%s\t%s\t%.1f%%\t%.1f%%\t%.3f\t%.3f\t%.3f\t%.1f%%\t%.1f%%\t%.1f%%\t%.3f\t%.1f%%\t%.1f%%\t%.1f%%\t%.3f\n", set.Name, mode,
				CandidateRecall(samples, set.Name, mode), pair(s), pair(f), pair(b),
				100*s.Calib.OffStrong, 100*s.Calib.RightStrong, s.Calib.ECE, s.Calib.ECEOnTopic, s.Calib.ECEBelow, 100*s.Calib.RightUnlikely, 100*s.Calib.OffUnlikely, 100*u.OffStrong, u.ECE, 100*ev.OffStrong,
				100*f.Calib.OffStrong, 100*f.Calib.RightStrong, f.Calib.ECE)
		}
	}
	return tw.Flush()
}

// fitWithout fits the second stage on every set's samples but set's.
func fitWithout(samples []Sample, set string, fo FitOptions) (*rescore.Model, error) {
	var rest []Sample
	for _, s := range samples {
		if s.Set != set {
			rest = append(rest, s)
		}
	}
	return FitModel(rest, fo)
}

// pair is "section hit@k / MRR" ("– / MRR" for sets without section labels).
func pair(c ConfigReport) string {
	if c.Labelled == 0 {
		return fmt.Sprintf("– / %.3f", c.MRR)
	}
	return fmt.Sprintf("%.3f / %.3f", c.SectionHit, c.MRR)
}

// QuickLeaveOneOut is LeaveOneOut read from the samples alone, in
// seconds rather than minutes: each set's queries are ranked by the
// first stage and by a ranker fitted on the other sets, then cut to at
// most maxPerPage passages a note, and scored on the first k. It sees
// only the 50 candidates, and reads calibration before results are cut to
// a few a note (SampleCalibration); the table of LeaveOneOut is the one
// to report, this one to try a change quickly.
func QuickLeaveOneOut(w io.Writer, samples []Sample, corpora string, fo FitOptions) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "left out\tmode\tfirst stage sec@5 / MRR\tsecond stage\toff ≥50%\tright ≥50%\tECE\teveryday ≥50%\tone word: right ≥50%")
	for _, set := range DevSets(corpora) {
		m, err := fitWithout(samples, set.Name, fo)
		if err != nil {
			return err
		}
		for _, mode := range StageModes {
			first := func(x []float64) float64 { return x[rescore.FirstScore] }
			fs, fm := sampleRanking(samples, set.Name, mode, first)
			ss, sm := sampleRanking(samples, set.Name, mode, m.Modes[string(mode)].Ranker.Logit)
			c := SampleCalibration(samples, m, set.Name, mode)
			fmt.Fprintf(tw, "%s\t%s\t%.3f / %.3f\t%.3f / %.3f\t%.1f%%\t%.1f%%\t%.3f\t%.1f%%\t%.1f%%\n", set.Name, mode, fs, fm, ss, sm,
				100*c.OffStrong, 100*c.RightStrong, c.ECE, 100*EverydayStrong(samples, m, set.Name, mode), 100*TermsStrong(samples, m, set.Name, mode))
		}
	}
	return tw.Flush()
}

// sampleRanking is the section hit@5 and page MRR of a set's samples in
// mode, each ordered by score and cut as eval cuts by default (the first
// DefaultN results, at most DefaultMaxPerPage a note). A note is
// relevant when one of its candidates answers the query.
func sampleRanking(samples []Sample, set string, mode mdsearch.Mode, score func([]float64) float64) (hit, mrr float64) {
	return rankingOf(samples, set, mode, func(s Sample) []int {
		scores := make([]float64, len(s.Rows))
		for i, r := range s.Rows {
			scores[i] = score(r.X)
		}
		return shownPlaces(rescore.Ranks(scores), s.Pages, mdsearch.DefaultMaxPerPage)
	})
}

// rankingOf is the section hit@5 and page MRR of a set's samples in mode,
// each candidate shown at the place places gives it (0: not shown).
func rankingOf(samples []Sample, set string, mode mdsearch.Mode, places func(Sample) []int) (hit, mrr float64) {
	const k = mdsearch.DefaultN // eval's default (Options.fill)
	var n int
	for _, s := range samples {
		if s.Set != set || s.Mode != mode || !s.labelled() {
			continue
		}
		n++
		relevant := map[string]bool{}
		for i, r := range s.Rows {
			if r.Answer {
				relevant[s.Pages[i]] = true
			}
		}
		pageAt, section := k+1, false
		for i, at := range places(s) {
			if at < 1 || at > k {
				continue
			}
			if relevant[s.Pages[i]] {
				pageAt = min(pageAt, at)
			}
			section = section || s.Rows[i].Answer
		}
		if pageAt <= k {
			mrr += 1 / float64(pageAt)
		}
		if section {
			hit++
		}
	}
	if n == 0 {
		return 0, 0
	}
	return hit / float64(n), mrr / float64(n)
}
