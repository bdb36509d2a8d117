package rerank

import (
	"context"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// TestRerankerContract checks the Reranker contract on New's client, for every
// server shape and scale setting: one score per doc, each from 0 to 1, in
// the order of the model's, whatever the server sends; where it cannot
// keep the contract (a logit from a server set to probabilities) it fails
// the call instead.
func TestRerankerContract(t *testing.T) {
	answers := [][]float64{
		{0.9, 0.2, 0.2},    // every score inside 0–1
		{0.9, 1.3, 0.2},    // one outside
		{-800, 800, 0},     // logits past what the logistic function tells apart
		{1e-300, -1e-9, 1}, // at the ends
	}
	for _, shape := range []string{"llama.cpp", "jina", "cohere", "infinity", "gateway", "tei"} {
		for _, scores := range []string{Auto, Logits, Probabilities} {
			t.Run(shape+" "+scores, func(t *testing.T) {
				s, _ := server(t, answering(t, shape, answers))
				opts, path := Options{Scores: scores}, "/v1/rerank"
				if shape == "tei" {
					opts.API, path = TEI, "/rerank"
				}
				var r Reranker
				r, err := New(s.URL+path, opts)
				if err != nil {
					t.Fatal(err)
				}
				for _, sent := range answers {
					got, err := r.Rerank(context.Background(), "q", docs)
					if err != nil {
						if scores != Probabilities || mdsearch.KindOf(err) != mdsearch.KindUnavailable {
							t.Errorf("%v: %v", sent, err)
						}
						continue
					}
					checkContract(t, sent, got)
				}
			})
		}
	}
}

// checkContract fails the test unless got keeps the contract for sent.
func checkContract(t *testing.T, sent, got []float64) {
	t.Helper()
	if len(got) != len(sent) {
		t.Fatalf("%v: %d scores for %d docs", sent, len(got), len(sent))
	}
	for i, g := range got {
		if !(g >= 0 && g <= 1) {
			t.Errorf("%v: score %v, outside 0–1", sent, g)
		}
		for j := range got {
			if sent[i] < sent[j] && got[i] > got[j] {
				t.Errorf("%v: scores %v, not in the model's order", sent, got)
			}
		}
	}
}
