package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// TestReadNestedHeading: a heading inside a quote, list or callout opens
// no section; read by its id (as a page's link writes it) or its text, it
// answers with its own lines and names the section that holds them. A
// section with the same text, or the id of one, still reads the section.
func TestReadNestedHeading(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "n.md", "# Ownership\n\nRules.\n\n> ### The Stack and the Heap\n>\n> Stack and heap.\n\nAfter the quote.\n\n"+
		"- ### Steps\n  first step\n- second item\n\n## Setup\n\nreal setup\n\n> ### Setup\n> quoted setup\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, tt := range []struct {
		section      string
		lines        [2]int
		want, notice string
	}{
		{"#the-stack-and-the-heap", [2]int{5, 7}, "> Stack and heap.", `"The Stack and the Heap" is a heading inside a list, quote or callout, which opens no section: here are its lines, which search shows as part of "Ownership"`},
		{"the stack and the heap", [2]int{5, 7}, "> Stack and heap.", "inside a list, quote or callout"},
		{"{#steps}", [2]int{11, 12}, "first step", "inside a list"},
		{"Setup", [2]int{15, 20}, "real setup", ""},  // a section's heading wins
		{"#setup", [2]int{15, 20}, "real setup", ""}, // and its id
		{"#setup-1", [2]int{19, 20}, "quoted setup", "inside a list"},
	} {
		resp, err := e.Read(context.Background(), mdsearch.ReadRequest{Path: "n.md", Section: tt.section})
		if err != nil {
			t.Errorf("section %q: %v", tt.section, err)
			continue
		}
		if got := [2]int{resp.StartLine, resp.EndLine}; got != tt.lines || !strings.Contains(resp.Content, tt.want) {
			t.Errorf("section %q: lines %v, %q; want %v holding %q", tt.section, got, resp.Content, tt.lines, tt.want)
		}
		if !strings.Contains(resp.Notice, tt.notice) || tt.notice == "" && resp.Notice != "" {
			t.Errorf("section %q: notice %q; want %q", tt.section, resp.Notice, tt.notice)
		}
		if tt.notice != "" && strings.Contains(resp.Content, "After the quote") {
			t.Errorf("section %q: read past its block: %q", tt.section, resp.Content)
		}
	}
}

// TestReadNestedScope: a nested heading's lines end where its own list
// item, quote or callout does, or at the next heading there at its level
// or above (before that line's "> " or indent); a real section's id wins
// over a nested heading's custom one; a nested heading's text that others
// share reads the first and names the others; one before the first
// heading is named as search names that text.
func TestReadNestedScope(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "m.md", "> ### Early\n> early text\n\n# M\n\n"+ // 1-5
		"> ## A\n> a text\n> ## B\n> b text\n\n"+ // 6-10
		"- item one\n  - ### Deep\n    deep body\n  - sibling sub\n\n"+ // 11-15
		"> - ### In Quote List\n>   x\n> - other\n\n"+ // 16-19
		"> ### Dup\n> first dup\n\n> ### Dup\n> second dup\n\n"+ // 20-25
		"## Setup\n\nreal setup\n\n> ### Notes {#setup}\n> quoted notes\n\n"+ // 26-32
		"> ### Q1\n> q1 body\n> - item\n>   ### Q1 Sub\n>   sub body\n>\n> q1 trailing\n> ### Q2\n> q2 body\n") // 33-41
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, tt := range []struct {
		section     string
		lines       [2]int
		notice, not string
	}{
		{"A", [2]int{6, 7}, `part of "M"`, "b text"},
		{"B", [2]int{8, 9}, `part of "M"`, ""},
		{"Deep", [2]int{12, 13}, "inside a list", "sibling"},
		{"In Quote List", [2]int{16, 17}, "inside a list", "other"},
		{"Early", [2]int{1, 2}, `part of "(intro)"`, ""},
		{"Dup", [2]int{20, 21}, "another such heading has its text: read it as #dup-1", "second"},
		{"#dup-1", [2]int{23, 24}, "inside a list", "first"},
		{"#setup", [2]int{26, 41}, "", ""},                 // the section's id, not the quoted heading's {#setup}
		{"Q1", [2]int{33, 39}, "inside a list", "q2 body"}, // past the deeper heading of its own level, to Q2
		{"Q1 Sub", [2]int{36, 37}, "inside a list", "trailing"},
	} {
		resp, err := e.Read(context.Background(), mdsearch.ReadRequest{Path: "m.md", Section: tt.section})
		if err != nil {
			t.Errorf("section %q: %v", tt.section, err)
			continue
		}
		if got := [2]int{resp.StartLine, resp.EndLine}; got != tt.lines || tt.not != "" && strings.Contains(resp.Content, tt.not) {
			t.Errorf("section %q: lines %v, %q; want %v without %q", tt.section, got, resp.Content, tt.lines, tt.not)
		}
		if !strings.Contains(resp.Notice, tt.notice) || tt.notice == "" && resp.Notice != "" {
			t.Errorf("section %q: notice %q; want %q", tt.section, resp.Notice, tt.notice)
		}
	}
}

// TestReadInPartTwins: words inside a heading two sections share read the
// first, and the notice says it is the first, not the one.
func TestReadInPartTwins(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "d.md", "## Setup\n\none\n\n## Setup\n\ntwo\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	resp, err := e.Read(context.Background(), mdsearch.ReadRequest{Path: "d.md", Section: "set"})
	if err != nil || !strings.Contains(resp.Notice, `this is "Setup", the first heading that holds it`) ||
		!strings.Contains(resp.Content, "one") {
		t.Fatalf("notice %q, %v", resp.Notice, err)
	}
}
