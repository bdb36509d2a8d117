package chunks

import (
	"reflect"
	"testing"

	"github.com/mdsearch/mdsearch/sections"
)

// A passage carries the note's frontmatter tags and the inline tags
// written in it; the note's tags stay on every passage.
func TestPassageTags(t *testing.T) {
	long := "Cloud spend rose after the migration and the team will review it. "
	src := "---\ntags: [minutes]\n---\n# Meeting\n\n## Costs\n\nWe went over the #budget. " + long + long + long + long + long +
		"\n\n## Misc\n\nCoffee machine is broken again. " + long + long + long + long + long + "\n"
	cs := Split(sections.Parse("m.md", []byte(src)), Options{})
	want := map[string][]string{"Meeting": {"minutes", "budget"}, "Misc": {"minutes"}} // Meeting merges into Costs
	if len(cs) != 2 {
		t.Fatalf("%d passages", len(cs))
	}
	for _, c := range cs {
		if !reflect.DeepEqual(c.PassageTags, want[c.Section]) || !reflect.DeepEqual(c.Tags, []string{"minutes", "budget"}) {
			t.Errorf("%s: passage tags %q, tags %q; want %q", c.Section, c.PassageTags, c.Tags, want[c.Section])
		}
	}
}
