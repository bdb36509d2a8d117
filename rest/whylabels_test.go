package rest

import (
	"os"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch/rescore"
)

// The page names every kind of evidence the second stage reports in
// plain words: a factor without a label would show its bare name.
func TestWhyLabelsEveryFactor(t *testing.T) {
	src, err := os.ReadFile("web/why.js")
	if err != nil {
		t.Fatal(err)
	}
	labels := string(src)
	for _, fs := range [][]rescore.Factor{rescore.Factors, rescore.ScoreFactors} {
		for _, f := range fs {
			if !strings.Contains(labels, "\n  "+f.Name+": ") && !strings.Contains(labels, " "+f.Name+": \"") {
				t.Errorf("why.js has no label for %s", f.Name)
			}
		}
	}
}
