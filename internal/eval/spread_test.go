package eval

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSpread(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want Spread
	}{
		{nil, Spread{}},
		{[]float64{0.6}, Spread{N: 1, P10: 0.6, P50: 0.6, P90: 0.6, Strong: 1}},
		{[]float64{0.9, 0.1, 0.3, 0.5, 0.2}, Spread{N: 5, P10: 0.1, P50: 0.3, P90: 0.9, Strong: 0.4, Weak: 0.4}},
	} {
		if got := spread(c.xs); got != c.want {
			t.Errorf("spread(%v) = %+v, want %+v", c.xs, got, c.want)
		}
	}
	s := spreads([]Outcome{{PageRank: 1, TopScore: 0.7}, {PageRank: 2, TopScore: 0.6}, {TopScore: 0.2}}, []float64{0.3})
	if s.Right.N != 1 || s.Wrong.N != 2 || s.OffTopic.N != 1 || s.Wrong.Weak != 0.5 {
		t.Errorf("spreads: %+v", s)
	}
}

func TestLoadOffTopic(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// A text read twice (a query set's line repeated for another label)
	// is one query.
	got, err := LoadOffTopic(write("q.txt", "# made-up\nbest hiking boots\n\n{\"query\": \"a set's line\", \"relevant\": []}\n  padded  \n{\"query\": \"a set's line\"}\n"))
	if err != nil || !slices.Equal(got, []string{"best hiking boots", "a set's line", "padded"}) {
		t.Errorf("got %q, %v", got, err)
	}
	// A file saved with a byte order mark reads as one without.
	for _, text := range []string{"\ufeffbest hiking boots\n", "\ufeff{\"query\": \"best hiking boots\"}\n"} {
		if got, err := LoadOffTopic(write("bom.txt", text)); err != nil || !slices.Equal(got, []string{"best hiking boots"}) {
			t.Errorf("with a BOM, %q: got %q, %v", text, got, err)
		}
	}
	if _, err := LoadOffTopic(write("bad.jsonl", "ok\n{\"q\": 1}\n")); err == nil || !strings.Contains(err.Error(), "bad.jsonl:2") {
		t.Errorf("a JSON line without a query: %v, want an error naming bad.jsonl:2", err)
	}
	if _, err := LoadOffTopic(write("broken.jsonl", "ok\n{\"query\": \"x\",\n")); err == nil ||
		!strings.Contains(err.Error(), "broken.jsonl:2") || !strings.Contains(err.Error(), "not valid JSON: unexpected end of JSON input") {
		t.Errorf("a broken JSON line: %v, want an error naming broken.jsonl:2 and the parse error", err)
	}
	if _, err := LoadOffTopic(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing file: %v", err)
	}
}
