package eval

import (
	"context"
	"fmt"
)

// TermsFor collects the one-word queries (StyleTerms) of o.Vault as the
// fit takes them: at most generatedPerStyle, spread evenly through it,
// searched as Collect searches, marked Terms, and Held when they are only
// to be measured. The generated set's are fitted on: a word asked alone
// is a query style no dev set asks, and its passage's cosine is low, as
// an everyday question's is, so a calibrator fitted on everyday questions
// without them scored it far lower ("hooch", "whetstone";
// docs/evaluation.md, "Everyday questions"). Each dev set's are measured.
func TermsFor(ctx context.Context, o Options, set string, held bool) ([]Sample, error) {
	qs, _, err := Generate(ctx, o.Vault, []string{StyleTerms})
	if err != nil {
		return nil, err
	}
	if len(qs.Queries) == 0 {
		return nil, fmt.Errorf("%s: no one-word query to ask (no word that one section alone holds twice)", set)
	}
	qs.Queries = spreadEvenly(qs.Queries, generatedPerStyle)
	o.Queries, o.OffTopic = qs, nil
	ss, err := Collect(ctx, o, set)
	if err != nil {
		return nil, err
	}
	for i := range ss {
		ss[i].Terms, ss[i].Held = true, held
	}
	return ss, nil
}

// spreadEvenly is at most n of xs, spread evenly through it, in its order.
func spreadEvenly[T any](xs []T, n int) []T {
	var out []T
	step := max(1, len(xs)/max(n, 1))
	for i := 0; i < len(xs) && i/step < n; i += step {
		out = append(out, xs[i])
	}
	return out
}
