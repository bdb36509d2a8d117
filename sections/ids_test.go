package sections

import (
	"strings"
	"testing"
	"time"
)

func TestIDsSuffixes(t *testing.T) {
	cases := []struct {
		name     string
		reserved []string
		texts    []string
		want     []string
	}{
		{"repeats", nil, []string{"Setup", "Setup", "Setup"}, []string{"setup", "setup-1", "setup-2"}},
		{"custom id skipped", []string{"setup-1"}, []string{"Setup", "Setup", "Setup"}, []string{"setup", "setup-2", "setup-3"}},
		{"suffix taken by a heading", nil, []string{"Setup 1", "Setup", "Setup", "Setup"}, []string{"setup-1", "setup", "setup-2", "setup-3"}},
		{"later heading takes a suffix", nil, []string{"A", "A", "A 2", "A"}, []string{"a", "a-1", "a-2", "a-3"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ids := NewIDs()
			for _, r := range c.reserved {
				ids.Use(r)
			}
			for i, text := range c.texts {
				if got := ids.Generate(text); got != c.want[i] {
					t.Errorf("heading %d %q: got %q, want %q", i, text, got, c.want[i])
				}
			}
		})
	}
}

// A note of many same-named headings is read in time linear in them:
// each id used to be found by trying every suffix from 1.
func TestManySameHeadingsQuick(t *testing.T) {
	src := []byte(strings.Repeat("## Heading\n\ntext\n\n", 30000))
	start := time.Now()
	doc := Parse("n.md", src)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("parsing took %v", d)
	}
	if last := doc.Sections[len(doc.Sections)-1]; last.ID != "heading-29999" {
		t.Errorf("last id %q", last.ID)
	}
}
