package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// The tools' descriptions and input schemas are read by an agent before
// its first call: they must stay cheap, and say ranges where a schema
// can. maxToolTokens is a little over half what they cost before they
// were trimmed (1,941 tokens, chars/4 of the JSON).
const maxToolTokens = 1050

func TestToolsListCost(t *testing.T) {
	cs := connect(t, &fake{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	chars := 0
	for _, tool := range res.Tools {
		in, _ := json.Marshal(tool.InputSchema)
		desc, _ := json.Marshal(tool.Description)
		chars += len(in) + len(desc)
		if strings.Contains(string(in), "max_chunks_per_page") {
			t.Errorf("%s advertises the old name max_chunks_per_page", tool.Name)
		}
	}
	if chars/4 > maxToolTokens {
		t.Errorf("descriptions and input schemas cost about %d tokens (%d chars), want at most %d", chars/4, chars, maxToolTokens)
	}
}

func TestSchemaRanges(t *testing.T) {
	props := toolSchemas(searchTool(""))["semantic_search"].Properties
	for _, tt := range []struct {
		name     string
		min, max float64
	}{{"n", 1, 50}, {"max_per_page", 0, 5}, {"max_tokens", 0, 1 << 20}, {"min_score", 0, 1}} {
		p := props[tt.name]
		if p.Minimum == nil || p.Maximum == nil || *p.Minimum != tt.min || *p.Maximum != tt.max {
			t.Errorf("%s: minimum %v, maximum %v; want %v-%v", tt.name, p.Minimum, p.Maximum, tt.min, tt.max)
		}
	}
}

// What semantic_search says of scores is what was measured
// (docs/evaluation.md, "Semantic mode's score"): one meaning in every
// mode, semantic mode's right answers scoring lower.
func TestSemanticScoresDescribed(t *testing.T) {
	d := searchTool("").Description
	for _, want := range []string{"Scores estimate the chance of an answer", "its right ones often 10-40%: prefer hybrid"} {
		if !strings.Contains(d, want) {
			t.Errorf("semantic_search's description lacks %q", want)
		}
	}
	if strings.Contains(d, "closeness") {
		t.Errorf("semantic_search's description calls semantic scores closeness: %s", d)
	}
}

// With another embedder than the second stage reads, or a reranker, the
// description does not promise the bands of calibrated scores.
func TestScoresDescribedForWhatTheyAre(t *testing.T) {
	for _, tc := range []struct{ scores, want string }{
		{"probability", "Scores estimate the chance of an answer"},
		{"first-stage", "only order one answer's results"},
		{"reranker", "reranker's relevance, not calibrated chances"},
	} {
		d := searchTool(tc.scores).Description
		if !strings.Contains(d, tc.want) || (tc.scores != "probability" && (strings.Contains(d, "20-50% needs reading") || strings.Contains(d, "rarely answer"))) {
			t.Errorf("%s: %s", tc.scores, d)
		}
	}
}
