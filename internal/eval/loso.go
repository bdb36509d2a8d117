package eval

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
)

// LeaveOneOut fits the second stage on all dev sets but one and scores
// the one left out, for every set in turn, beside the first stage alone
// (the fusion) and the bm25-sections baseline, and prints the table.
func LeaveOneOut(ctx context.Context, w io.Writer, emb embed.Embedder, samples []Sample, corpora, cacheDir string, fo FitOptions) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "left out\tmode\tcand@50\tsecond stage sec@5 / MRR\tfirst stage\tbm25-sections\toff ≥50%\tright ≥50%\tECE\tECE on-topic\tfirst: off ≥50%\tright ≥50%\tECE")
	sets := DevSets(corpora)
	for _, set := range sets {
		var rest []Sample
		for _, s := range samples {
			if s.Set != set.Name {
				rest = append(rest, s)
			}
		}
		m, err := FitModel(rest, fo)
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
		for _, mode := range []mdsearch.Mode{mdsearch.ModeHybrid, mdsearch.ModeKeyword} {
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
			sec, err := Run(ctx, second)
			if err != nil {
				return err
			}
			b, f, s := first.Configs[0], first.Configs[1], sec.Configs[0]
			fmt.Fprintf(tw, "%s\t%s\t%.3f\t%s\t%s\t%s\t%.1f%%\t%.1f%%\t%.3f\t%.3f\t%.1f%%\t%.1f%%\t%.3f\n", set.Name, mode,
				CandidateRecall(samples, set.Name, mode), pair(s), pair(f), pair(b),
				100*s.Calib.OffStrong, 100*s.Calib.RightStrong, s.Calib.ECE, s.Calib.ECEOnTopic,
				100*f.Calib.OffStrong, 100*f.Calib.RightStrong, f.Calib.ECE)
		}
	}
	return tw.Flush()
}

// pair is "section hit@k / MRR" ("– / MRR" for sets without section labels).
func pair(c ConfigReport) string {
	if c.Labelled == 0 {
		return fmt.Sprintf("– / %.3f", c.MRR)
	}
	return fmt.Sprintf("%.3f / %.3f", c.SectionHit, c.MRR)
}
