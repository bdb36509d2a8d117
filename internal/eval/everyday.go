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
	EverydayFit  = embeddedOffTopic(everydayFit, "internal/eval/everyday/fit.txt")
	EverydayHeld = embeddedOffTopic(everydayHeld, "internal/eval/everyday/held.txt")
)

//go:embed everyday/fit.txt
var everydayFit string

//go:embed everyday/held.txt
var everydayHeld string

// embeddedOffTopic reads an embedded file of off-topic queries as
// LoadOffTopic reads one on disk; the files are the package's own, so a
// bad line is a bug of this package, found by its tests at start.
func embeddedOffTopic(text, name string) []string {
	qs, err := readOffTopic(strings.NewReader(text), name)
	if err != nil {
		panic(err)
	}
	return qs
}
