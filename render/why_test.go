package render

import (
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

func TestWhyLines(t *testing.T) {
	cos, head, rr, local := 0.6631, 0.3838, 0.93, 0.8366
	tests := []struct {
		name string
		why  *mdsearch.Why
		want string
	}{
		{"none", nil, ""},
		{"hybrid", &mdsearch.Why{
			Words:       []mdsearch.WordMatch{{Word: "sourdough", In: []string{"text", "title"}}, {Word: `"rye flour"`, In: []string{}}, {Word: "validation", In: []string{"text"}, Stem: "valid"}},
			KeywordRank: 2, SemanticRank: 1, Cosine: &cos, HeadingCosine: &head, FirstStage: 0.5964,
			Factors:   []mdsearch.Factor{{Name: "meaning", Effect: 2.6}, {Name: "keywords", Effect: -0.084}},
			ScoreBase: 0.104, ScoreFactors: []mdsearch.Factor{{Name: "ranking", Effect: 2.88}, {Name: "query_found", Effect: -0.951}},
		}, `why: keyword #2 · meaning #1 · cosine 0.66, heading 0.38 · first stage 59.6%
words: sourdough (text, title) · "rye flour" (none) · validation (text; as valid…)
second stage: meaning +2.60 · keywords -0.08
score: from 10.4% · ranking +2.88 · query_found -0.95`},
		{"keyword, reranked", &mdsearch.Why{
			Words:       []mdsearch.WordMatch{{Word: "restic*", In: []string{"text"}}},
			KeywordRank: 1, FirstStage: 0.7, Reranker: &rr, LocalScore: &local,
		}, `why: keyword #1 · meaning – · first stage 70.0%
words: restic* (text)
reranker 93.0% (local ranking 83.7%)`},
		{"keyword, left out by the reranker", &mdsearch.Why{KeywordRank: 3, FirstStage: 0.4, LocalScore: &local},
			`why: keyword #3 · meaning – · first stage 40.0%
reranker: not scored, the server left it out (local ranking 83.7%)`},
		{"semantic", &mdsearch.Why{SemanticRank: 4, Cosine: &cos, FirstStage: 0.77},
			`why: keyword – · meaning #4 · cosine 0.66 · first stage 77.0%`},
	}
	for _, tt := range tests {
		if got := strings.Join(WhyLines(tt.why), "\n"); got != tt.want {
			t.Errorf("%s:\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}
