package sections

import (
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch/internal/testenv"
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
	eachNote(t, testenv.Corpora("vue-docs", "vault"), func(p string, src []byte) {
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

// TestSectionIDs: every heading gets the id the page gives it, so a
// section whose path another shares can still be named.
func TestSectionIDs(t *testing.T) {
	src := "# Edge\n\n## Setup\n\nfirst\n\n## Setup\n\nsecond\n\n## Über uns {#about}\n\nx\n\n## About\n\ny\n"
	doc := Parse("edge.md", []byte(src))
	if got := sectionIDs(doc); got != "edge setup setup-1 about about-1" {
		t.Errorf("ids: %s", got)
	}
	for _, tt := range []struct{ query, want string }{
		{"#setup-1", "second"}, {"setup-1", "second"}, {"{#setup-1}", "second"}, {"#SETUP", "first"},
		{"Edge/Setup", "first"}, {"{#about}", "x"}, {"#about-1", "y"},
	} {
		s, err := doc.Find(tt.query)
		if err != nil || !strings.Contains(doc.Content(s), tt.want) {
			t.Errorf("Find(%q): %v, want the section holding %q", tt.query, err, tt.want)
		}
	}
	// A heading that sections of different paths repeat is the first; a
	// part of one that they match lists each, with the ids of a path
	// repeated.
	doc = Parse("edge.md", []byte(src+"## Other\n\n### Setup\n\nthird\n"))
	if s, err := doc.Find("setup"); err != nil || !strings.Contains(doc.Content(s), "first") {
		t.Errorf("Find(setup): %v", err)
	}
	_, err := doc.Find("setu")
	if err == nil || !strings.Contains(err.Error(), `"Edge/Setup" (#setup), "Edge/Setup" (#setup-1), "Edge/Other/Setup"`) {
		t.Errorf("Find(setu): %v", err)
	}
	if s, err := doc.Find("Edge > Setup"); err != nil || !strings.Contains(doc.Content(s), "first") {
		t.Errorf("Find(Edge > Setup): %v", err)
	}
}

// TestCustomIDsFirst: a custom id is reserved before ids are generated,
// so a heading before it that would make the same id makes another, and
// a heading's text is never beaten by an id unless asked with '#'.
func TestCustomIDsFirst(t *testing.T) {
	src := "# Doc\n\n## A\n\n### Setup\n\na\n\n## Custom {#setup}\n\nc\n"
	doc := Parse("anch.md", []byte(src))
	if got := sectionIDs(doc); got != "doc a setup-1 setup" {
		t.Errorf("ids: %s", got)
	}
	for q, want := range map[string]string{"Setup": "Setup", "#setup": "Custom", "#setup-1": "Setup", "setup-1": "Setup", "{#setup}": "Custom"} {
		if s, err := doc.Find(q); err != nil || s.Heading != want {
			t.Errorf("Find(%q) = %v, %v; want %q", q, s, err, want)
		}
	}
}

// sectionIDs is the ids of doc's sections, space-separated.
func sectionIDs(doc *Document) string {
	ids := make([]string, len(doc.Sections))
	for i, s := range doc.Sections {
		ids[i] = s.ID
	}
	return strings.Join(ids, " ")
}

// A heading inside a list, quote or callout opens no section, but a page
// gives it an id: that id reads the section it sits in, and ids of the
// sections come first (a nested "Setup" is "setup-1" only when a section
// holds "setup").
func TestNestedHeadingIDs(t *testing.T) {
	src := "# Top\n\n- ## Setup\n  item\n\n## Setup\n\ntext\n\n> [!note] Tip\n> ## In a callout {#tipid}\n\n## Last\n\n> ## Quoted\n"
	doc := Parse("n.md", []byte(src))
	if got := strings.Join(doc.NestedIDs(), " "); got != "setup-1 tipid quoted" {
		t.Errorf("nested ids %q", got)
	}
	for q, want := range map[string]string{"#setup-1": "Top", "#tipid": "Setup", "#quoted": "Last", "#setup": "Setup"} {
		if s, err := doc.Find(q); err != nil || s.Heading != want {
			t.Errorf("Find(%q): %v, %v; want %q", q, s, err, want)
		}
	}
	for _, q := range []string{"setup-1x", "quoted"} { // a nested id is an id only
		if s, err := doc.Find(q); err == nil && s.Heading == "Last" {
			t.Errorf("Find(%q) = %q", q, s.Heading)
		}
	}
}

// TestHeadingHTML: a heading keeps what a person typed in angle brackets
// ("<angle>", "MaybeRef<T>") as written, drops the markup a page draws
// (a tag with attributes, an element it knows, a comment), and keeps the
// id a page gives it, made of its text without the raw HTML. Its source
// text, HTML and all, reads it.
func TestHeadingHTML(t *testing.T) {
	src := "# Html\n\n## What's new? (v2.0) — \"quotes\" & <angle>\n\ntext\n\n## MaybeRef<T>\n\n## A <br>B\n\n" +
		"## onWatcherCleanup() <sup class=\"vt-badge\" data-text=\"3.5+\" />\n\n## <angle> only\n\n## Tip <!-- note --> <Badge text=\"beta\"/> </angle>\n\n" +
		"## Beware <script>alert(1)</script> tags\n\n" +
		"## Links [here](x) and `code`\n"
	doc := Parse("h.md", []byte(src))
	want := []struct{ heading, id string }{
		{"Html", "html"},
		{`What's new? (v2.0) — "quotes" & <angle>`, "whats-new-v20--quotes-"},
		{"MaybeRef<T>", "mayberef"},
		{"A B", "a-b"},
		{"onWatcherCleanup()", "onwatchercleanup"},
		{"<angle> only", "only"},
		{"Tip </angle>", "tip"},
		{"Beware alert(1) tags", "beware-alert1-tags"},
		{"Links here and code", "links-here-and-code"},
	}
	if len(doc.Sections) != len(want) {
		t.Fatalf("%d sections", len(doc.Sections))
	}
	for i, w := range want {
		s := doc.Sections[i]
		if s.Heading != w.heading || s.ID != w.id {
			t.Errorf("section %d: %q #%s, want %q #%s", i, s.Heading, s.ID, w.heading, w.id)
		}
		line := strings.TrimSpace(strings.TrimLeft(strings.Split(src[s.StartByte:], "\n")[0], "#"))
		for _, q := range []string{line, w.heading, "#" + w.id} {
			if got, err := doc.Find(q); err != nil || got.Index != i {
				t.Errorf("Find(%q) = %v, %v; want section %d", q, got, err, i)
			}
		}
	}
}

// TestKramdownHeadingAttributes: attr_list's "{: #id .class}" and
// Pandoc's "{-}" are no words of a heading, and "#id" reads it; braces
// that are no such block (a Rust format string, code, a word) stay.
func TestKramdownHeadingAttributes(t *testing.T) {
	tests := []struct {
		src, heading, anchor string
	}{
		{"## Install {: #setup .wide}\n", "Install", "setup"},
		{"## Install {:#setup}\n", "Install", "setup"},
		{"## Tall {: .wide data-x=\"a b\" }\n", "Tall", ""},
		{"## Kept {#first} {: #second}\n", "Kept {#first}", "second"},
		{"## Appendix {-}\n", "Appendix", ""},
		{"Setext {: #under}\n===\n", "Setext", "under"},
		{"## *Both* words {: #both}\n", "Both words", "both"},
		{"## snake_case_name {: #snake_id}\n", "snake_case_name", "snake_id"},
		{"## Printing with {:?}\n", "Printing with {:?}", ""},
		{"## Pretty {:#?}\n", "Pretty {:#?}", ""},
		{"## Code `{: #x}`\n", "Code {: #x}", ""},
		{"## Raw {::nomarkdown}\n", "Raw {::nomarkdown}", ""},
		{"## Glued{: #g}\n", "Glued{: #g}", ""},
		{"## Range {-1}\n", "Range {-1}", ""},
		{"## Fmt {:02}\n", "Fmt {:02}", ""},
		{"## Rust format {:x}\n", "Rust format {:x}", ""},
		{"## Single {: #sq somekey='some value' }\n", "Single", "sq"},
		{"## Open {: #op k='v }\n", "Open {: #op k='v }", ""},
		{"## {: #only}\n", "{: #only}", ""},
		{"## Install ## {: #closed}\n", "Install", "closed"}, // the closing sequence goes too
		{"## C# {: #cs}\n", "C#", "cs"},
		{"Setext ## {: #st}\n===\n", "Setext ##", "st"}, // a setext heading has none
	}
	for _, tt := range tests {
		doc := Parse("n.md", []byte(tt.src+"\nbody\n"))
		if len(doc.Sections) != 1 {
			t.Fatalf("%q: %d sections", tt.src, len(doc.Sections))
		}
		if s := doc.Sections[0]; s.Heading != tt.heading || s.Anchor != tt.anchor {
			t.Errorf("%q: %q {#%s}, want %q {#%s}", tt.src, s.Heading, s.Anchor, tt.heading, tt.anchor)
		}
	}
	// Two headings of one custom id: "#same" reads the first, as a browser scrolls to it.
	if s, err := Parse("n.md", []byte("## First {#same}\n\none\n\n## Second {#same}\n\ntwo\n")).Find("#same"); err != nil || s.Heading != "First" {
		t.Errorf("Find(#same) of two: %v %v", s, err)
	}
	doc := Parse("n.md", []byte("# Guide\n\n## Install {: #setup}\n\nrun it\n"))
	if s, err := doc.Find("#setup"); err != nil || s.Heading != "Install" {
		t.Errorf("Find(#setup): %v %v", s, err)
	}
}
