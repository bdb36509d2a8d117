package sections

import (
	"strings"
	"testing"
)

func TestFindArrowPaths(t *testing.T) {
	d := Parse("n.md", []byte("# Cake\n## Ingredients\n### Dry\n## Method\n## A > B\n"))
	for _, tt := range []struct{ query, want string }{
		{"Cake > Ingredients", "Cake/Ingredients"},
		{"cake>ingredients>dry", "Cake/Ingredients/Dry"},
		{"Ingredients > Dry", "Cake/Ingredients/Dry"},
		{"Cake / Method", "Cake/Method"},
		{"A > B", "Cake/A > B"}, // a heading that holds ">" is found by its text
	} {
		s, err := d.Find(tt.query)
		if err != nil || strings.Join(s.Path, "/") != tt.want {
			t.Errorf("Find(%q) = %v, %v; want %q", tt.query, s, err, tt.want)
		}
	}
}
