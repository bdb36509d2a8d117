package eval

import "testing"

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
	for _, q := range []string{"how do I bake bread", "how do I tie a tie", "what is the meaning of life", "best recipe for chocolate cake"} {
		if seen[q] != "held" {
			t.Errorf("%q, which the README quotes, is not held out (in %q)", q, seen[q])
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
