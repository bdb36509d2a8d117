package eval

import (
	"context"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/mdsearch/mdsearch/engine"
	"github.com/mdsearch/mdsearch/store"
)

// The everyday questions fitted on and those held out to measure are
// apart, each once, and the held ones include those the README quotes.
func TestEverydaySplit(t *testing.T) {
	if len(EverydayFit) < 50 || len(EverydayHeld) < 50 {
		t.Fatalf("%d everyday questions to fit on, %d held out; want 50 or more of each", len(EverydayFit), len(EverydayHeld))
	}
	seen := map[string]string{}
	for _, list := range []struct {
		name string
		qs   []string
	}{{"fit", EverydayFit}, {"held", EverydayHeld}} {
		for _, q := range list.qs {
			if at, ok := seen[q]; ok {
				t.Errorf("%q is in %s and %s", q, at, list.name)
			}
			seen[q] = list.name
			if err := checkRequest(q); err != nil {
				t.Errorf("%s: %q: %v", list.name, q, err)
			}
		}
	}
	// docs/evaluation.md's twenty ("Everyday questions"), which the README
	// quotes, and the chocolate cake.
	for _, q := range []string{"how do I bake bread", "how do I train a puppy", "how do I file my taxes",
		"what is the history of the project", "how is construction done", "what is the best time to plant tomatoes",
		"how do I change a car tire", "how long should I boil an egg", "what is the capital of Australia",
		"how do I fix a leaking faucet", "who won the world cup in 2018", "how do I knit a scarf", "what causes rainbows",
		"how do I lower my blood pressure", "what is a good name for a cat", "how do I clean a cast iron pan",
		"when was the printing press invented", "how do I write a cover letter", "what is the meaning of life",
		"how do I tie a tie", "best recipe for chocolate cake"} {
		if seen[q] != "held" {
			t.Errorf("%q, which the docs quote, is not held out (in %q)", q, seen[q])
		}
	}
	for _, q := range append(slices.Clone(EverydayFit), EverydayHeld...) {
		if engine.AsksNothing(q) {
			t.Errorf("%q asks nothing: it would weigh as a query that asks nothing, not as an everyday question", q)
		}
	}
}

func TestMarkEveryday(t *testing.T) {
	ss := []Sample{
		{Query: EverydayFit[0], OffTopic: true},
		{Query: EverydayHeld[0], OffTopic: true},
		{Query: "CAP theorem", OffTopic: true},
		{Query: EverydayFit[1]}, // labelled: never an everyday question
	}
	markEveryday(ss)
	want := [][2]bool{{true, false}, {true, true}, {false, false}, {false, false}}
	for i, s := range ss {
		if got := [2]bool{s.Everyday, s.Held}; got != want[i] {
			t.Errorf("%q: everyday, held = %v, want %v", s.Query, got, want[i])
		}
	}
}

// A question fitted on shares no word with one held out, nor with the
// sample vault's everyday examples in the README, but for the words that
// frame a question ("best", "get"): the held ones measure questions the
// fit has not seen, not its paraphrases ("why is my bread dense" would
// teach "how do I bake bread").
func TestEverydayFitApart(t *testing.T) {
	framing := map[string]bool{}
	for _, w := range strings.Fields("best good way get make long much many often should need can") {
		framing[w] = true
	}
	ctx := context.Background()
	stems := func(q string) map[string]bool {
		var words []string
		common := map[string]bool{}
		for _, w := range strings.Fields(engine.CommonWordsOf(q)) {
			common[w] = true
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if !common[w] && !framing[w] {
				words = append(words, w)
			}
		}
		ss, err := store.Stems(ctx, words)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, s := range ss {
			out[s] = true
		}
		return out
	}
	held := map[string]string{}
	for _, q := range append(slices.Clone(EverydayHeld), "how do I change a bicycle tyre", "best recipe for chocolate cake", "hooch") {
		for s := range stems(q) {
			held[s] = q
		}
	}
	for _, q := range EverydayFit {
		for s := range stems(q) {
			if h, ok := held[s]; ok {
				t.Errorf("%q, fitted on, shares %q with %q", q, s, h)
			}
		}
	}
}
