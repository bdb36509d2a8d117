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
