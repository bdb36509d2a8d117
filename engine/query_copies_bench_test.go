package engine

import (
	"fmt"
	"slices"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// BenchmarkDropCopies is dropCopies over a search's results when no two
// texts are alike (the common case, the baseline) and when every one is a
// template's same text from another note of one collection (RFCs'
// "Unresolved questions: None."), where each is read against every
// earlier one, its note's family with it.
func BenchmarkDropCopies(b *testing.B) {
	for _, same := range []bool{false, true} {
		rs := make([]mdsearch.Result, 30)
		for i := range rs {
			text := fmt.Sprintf("text %d", i)
			if same {
				text = "None."
			}
			rs[i] = mdsearch.Result{Collection: "c", Path: fmt.Sprintf("text/%04d-some-rfc-name.md", i), Text: text}
		}
		b.Run(map[bool]string{false: "distinct", true: "same-text"}[same], func(b *testing.B) {
			for b.Loop() {
				dropCopies(slices.Clone(rs), 30, nil)
			}
		})
	}
}
