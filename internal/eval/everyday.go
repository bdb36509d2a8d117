package eval

import (
	_ "embed"
	"strings"
)

// Everyday questions are questions of daily life ("how do I bake bread",
// "how do I reset my tv remote") that no dev vault answers, though each
// holds a word or two of many of them: the hardest off-topic queries, whose
// words a vault happens to hold while its passages mean something else.
// The other sets' queries, the fit's other off-topic queries, name things
// a vault mostly lacks.
//
// EverydayFit join every fit as off-topic queries of their own group;
// EverydayHeld are never fitted on, only measured (fitrescore -quick and
// -loso, and `mdsearch eval --off-topic internal/eval/everyday/held.txt`).
// The held ones include the twenty the README quotes.
var (
	EverydayFit  = lines(everydayFit)
	EverydayHeld = lines(everydayHeld)
)

//go:embed everyday/fit.txt
var everydayFit string

//go:embed everyday/held.txt
var everydayHeld string

// lines are text's lines, trimmed, but blank ones and # comments.
func lines(text string) []string {
	var out []string
	for l := range strings.Lines(text) {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}
