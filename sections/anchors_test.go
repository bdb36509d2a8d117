package sections

import (
	"strings"
	"testing"
)

// TestCustomHeadingIDs: "## Title {#id}" is the heading "Title" with the
// anchor "id", and Find takes either.
func TestCustomHeadingIDs(t *testing.T) {
	src := "# Intro {#intro}\n\n## Which to Choose? {#which-to-choose}\n\nBoth.\n\n## Plain {.cls}\n\nText.\n\n## Braces {not an id}\n"
	doc := Parse("guide.md", []byte(src))
	tests := []struct {
		heading, anchor string
	}{{"Intro", "intro"}, {"Which to Choose?", "which-to-choose"}, {"Plain", ""}, {"Braces {not an id}", ""}}
	if len(doc.Sections) != len(tests) {
		t.Fatalf("%d sections", len(doc.Sections))
	}
	for i, tt := range tests {
		if s := doc.Sections[i]; s.Heading != tt.heading || s.Anchor != tt.anchor {
			t.Errorf("section %d: %q {#%s}, want %q {#%s}", i, s.Heading, s.Anchor, tt.heading, tt.anchor)
		}
	}
	for _, q := range []string{"which-to-choose", "#which-to-choose", "Which to Choose?", "Intro/Which to Choose?"} {
		if s, err := doc.Find(q); err != nil || s.Heading != "Which to Choose?" {
			t.Errorf("Find(%q): %v %v", q, s, err)
		}
	}
}

// TestVueDocsAnchors: no section name of the vue-docs corpus keeps a
// "{#id}" suffix, and the headings that carry one have it as their anchor.
func TestVueDocsAnchors(t *testing.T) {
	anchors := 0
	eachNote(t, "../../shared/corpora/vue-docs/vault", func(p string, src []byte) {
		for _, s := range Parse(p, src).Sections {
			if strings.Contains(s.Heading, "{#") {
				t.Errorf("%s: section %q keeps its id", p, s.Heading)
			}
			if s.Anchor != "" {
				anchors++
			}
		}
	})
	if anchors < 1000 {
		t.Errorf("%d headings with an anchor; vue-docs has over 1,000", anchors)
	}
}
