package eval

import (
	"math"
	"slices"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/wordcount"
	"github.com/mdsearch/mdsearch/render"
)

// EstimateTokens is 1.3 × the words of text (mdsearch.TokensPerWord): the
// tokens an agent's language model reads, the same for every configuration
// and model. It stays words alone, not mdsearch.ReadingTokens, so that
// figures stay comparable with earlier runs.
func EstimateTokens(text string) float64 {
	return mdsearch.TokensPerWord * float64(wordcount.Count(text))
}

// Outcome is how one query fared. Ranks are 1-based positions in the
// results; 0 means not within k.
type Outcome struct {
	Query       string   `json:"query"`
	Line        int      `json:"line"`
	Difficulty  string   `json:"difficulty,omitempty"`
	PageRank    int      `json:"page_rank"`
	Hit3        bool     `json:"hit_at_3"`
	PagesFound  int      `json:"pages_found"`
	PagesWanted int      `json:"pages_wanted"`
	Labelled    bool     `json:"labelled"`
	SectionRank int      `json:"section_rank,omitempty"`
	SpanRank    int      `json:"span_rank,omitempty"`
	Tokens      float64  `json:"tokens"`
	TopScore    float64  `json:"top_score"` // the best result's score; 0 when none came back
	LatencyMS   float64  `json:"latency_ms"`
	Results     []string `json:"results,omitempty"`   // "path > A > B + C (lines 3-9)", as search names them, when details are asked for
	Suggested   bool     `json:"suggested,omitempty"` // the search suggested a respelling
	below       []scored // the scores of the results after the first, each with whether it answers
	first       string   // the first result, as describe names it
}

// Score judges the first k results of a query, and the first 3 for Hit@3.
func Score(q *Query, results []mdsearch.Result, k int) Outcome {
	o := Outcome{Query: q.Text, Line: q.Line, Difficulty: q.Difficulty, Labelled: q.Labelled()}
	if len(results) > 0 {
		o.TopScore = results[0].Score
	}
	for _, r := range results[:min(3, len(results))] {
		o.Hit3 = o.Hit3 || q.relevantPage(r.Path)
	}
	results = results[:min(k, len(results))]
	wanted := q.relevantPages()
	o.PagesWanted = max(1, len(wanted))
	found := map[string]bool{}
	for i, r := range results {
		rank := i + 1
		o.Tokens += EstimateTokens(resultText(r))
		if rank > 1 {
			o.below = append(o.below, scored{r.Score, answersWith(q, r)})
		}
		if !q.relevantPage(r.Path) {
			continue
		}
		if o.PageRank == 0 {
			o.PageRank = rank
		}
		found[r.Path] = true
		if o.SectionRank == 0 && sectionHit(q, r) {
			o.SectionRank = rank
		}
		if o.SpanRank == 0 && spanHit(q, r) {
			o.SpanRank = rank
		}
	}
	o.Tokens = math.Round(o.Tokens*10) / 10 // a tenth is all the estimate means
	if len(wanted) == 0 {
		o.PagesFound = min(1, len(found))
	} else {
		o.PagesFound = len(found)
	}
	return o
}

// resultText is what an agent reads of a result: the passage with its
// heading prefix (none for the baselines that ignore headings).
func resultText(r mdsearch.Result) string {
	if len(r.SectionPath) == 0 && len(r.Sections) == 0 {
		return r.Text
	}
	return render.Prefix(r) + r.Text
}

// sectionHit: a result on a labelled note whose section path equals the
// label's or lies under it.
func sectionHit(q *Query, r mdsearch.Result) bool {
	for _, l := range q.Relevant {
		if l.Path != r.Path {
			continue
		}
		for _, sp := range l.spans() {
			want := l.SectionPath
			if sp.resolved {
				want = sp.path
			}
			// A label that names a section but resolved to no heading is
			// the text before the first one ("/"): that section alone,
			// not the whole note an empty path stands for.
			intro := l.Own || len(l.SectionPath) > 0 && len(want) == 0
			if within(r.SectionPath, want, intro) {
				return true
			}
			for _, p := range r.Sections {
				if within(p, want, intro) {
					return true
				}
			}
		}
	}
	return false
}

// within is under, or, for the intro (the text before the first
// heading, or a section's own text), whether p is that section itself.
func within(p, want []string, own bool) bool {
	if own {
		return slices.Equal(p, want)
	}
	return under(p, want)
}

// under reports whether section path p equals want or lies under it.
func under(p, want []string) bool {
	return len(p) >= len(want) && slices.Equal(p[:len(want)], want)
}

// spanHit: a result on a labelled note whose lines overlap the labelled
// section's lines.
func spanHit(q *Query, r mdsearch.Result) bool {
	for _, l := range q.Relevant {
		if l.Path != r.Path {
			continue
		}
		for _, sp := range l.spans() {
			if sp.resolved && r.StartLine <= sp.end && sp.start <= r.EndLine {
				return true
			}
		}
	}
	return false
}

// Metrics summarise the outcomes of one configuration.
type Metrics struct {
	Queries    int     `json:"queries"`
	RecallAtK  float64 `json:"page_recall_at_k"`
	MRR        float64 `json:"page_mrr"`
	Hit3       float64 `json:"hit_at_3"`
	SectionHit float64 `json:"section_hit_at_k"` // over labelled queries
	SpanHit    float64 `json:"span_hit_at_k"`    // over labelled queries
	Labelled   int     `json:"labelled_queries"`
	Tokens     float64 `json:"tokens_per_query"`
	P50MS      float64 `json:"latency_p50_ms"`
	P95MS      float64 `json:"latency_p95_ms"`
	// Hit3By is Hit@3 per difficulty, for queries that name one.
	Hit3By map[string]float64 `json:"hit_at_3_by_difficulty,omitempty"`
}

// Summarize averages outcomes into Metrics.
func Summarize(outs []Outcome) Metrics {
	m := Metrics{Queries: len(outs)}
	if len(outs) == 0 {
		return m
	}
	lat := make([]float64, 0, len(outs))
	byDiff := map[string][2]int{} // hits, queries
	for _, o := range outs {
		m.RecallAtK += float64(o.PagesFound) / float64(max(1, o.PagesWanted))
		hit3 := o.Hit3
		if o.PageRank > 0 {
			m.MRR += 1 / float64(o.PageRank)
		}
		if hit3 {
			m.Hit3++
		}
		if o.Labelled {
			m.Labelled++
			m.SectionHit += b2f(o.SectionRank > 0)
			m.SpanHit += b2f(o.SpanRank > 0)
		}
		if o.Difficulty != "" {
			c := byDiff[o.Difficulty]
			c[0] += int(b2f(hit3))
			c[1]++
			byDiff[o.Difficulty] = c
		}
		m.Tokens += o.Tokens
		lat = append(lat, o.LatencyMS)
	}
	n := float64(len(outs))
	m.RecallAtK /= n
	m.MRR /= n
	m.Hit3 /= n
	m.Tokens /= n
	if m.Labelled > 0 {
		m.SectionHit /= float64(m.Labelled)
		m.SpanHit /= float64(m.Labelled)
	}
	if len(byDiff) > 0 {
		m.Hit3By = map[string]float64{}
		for d, c := range byDiff {
			m.Hit3By[d] = float64(c[0]) / float64(c[1])
		}
	}
	m.P50MS = Percentile(lat, 50)
	m.P95MS = Percentile(lat, 95)
	return m
}

// Percentile is the nearest-rank percentile p (0–100) of xs; 0 for none.
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
