package render

import (
	"fmt"
	"strings"

	"github.com/mdsearch/mdsearch"
)

// WhyLines say what a result's place and score rest on (mdsearch.Why),
// a line each: its places in the two lists, its cosines and the first
// stage's score; the query's words and the fields that hold them; the
// second stage's factors, largest first; and a reranker's score.
func WhyLines(w *mdsearch.Why) []string {
	if w == nil {
		return nil
	}
	lists := []string{"keyword " + place(w.KeywordRank), "meaning " + place(w.SemanticRank)}
	if w.Cosine != nil {
		cos := fmt.Sprintf("cosine %.2f", *w.Cosine)
		if w.HeadingCosine != nil {
			cos += fmt.Sprintf(", heading %.2f", *w.HeadingCosine)
		}
		lists = append(lists, cos)
	}
	lists = append(lists, "first stage "+Percent(w.FirstStage))
	out := []string{"why: " + strings.Join(lists, " · ")}
	if len(w.Words) > 0 {
		words := make([]string, len(w.Words))
		for i, m := range w.Words {
			in := "none"
			if len(m.In) > 0 {
				in = strings.Join(m.In, ", ")
			}
			if m.Stem != "" {
				in += "; as " + m.Stem + "…" // what else the index matched it by
			}
			words[i] = fmt.Sprintf("%s (%s)", m.Word, in)
		}
		out = append(out, "words: "+strings.Join(words, " · "))
	}
	if len(w.Factors) > 0 {
		fs := make([]string, len(w.Factors))
		for i, f := range w.Factors {
			fs[i] = fmt.Sprintf("%s %+.2f", f.Name, f.Effect)
		}
		out = append(out, "second stage: "+strings.Join(fs, " · "))
	}
	if len(w.ScoreFactors) > 0 {
		fs := []string{"from " + Percent(w.ScoreBase)}
		for _, f := range w.ScoreFactors {
			fs = append(fs, fmt.Sprintf("%s %+.2f", f.Name, f.Effect))
		}
		out = append(out, "score: "+strings.Join(fs, " · "))
	}
	switch {
	case w.Reranker != nil:
		line := "reranker " + Percent(*w.Reranker)
		if w.LocalScore != nil {
			line += " (local ranking " + Percent(*w.LocalScore) + ")"
		}
		out = append(out, line)
	case w.LocalScore != nil: // reranked, but the server left it out
		out = append(out, "reranker: not scored, the server left it out (local ranking "+Percent(*w.LocalScore)+")")
	}
	return out
}

// place is a list rank as WhyLines says it: "#3", or "–" for none.
func place(rank int) string {
	if rank <= 0 {
		return "–"
	}
	return fmt.Sprintf("#%d", rank)
}
