package engine

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// An outline lists the places in other notes that link to the note:
// wikilinks by name or path, with a heading or an alias, embeds,
// markdown links (escaped, relative), and properties; not links in code,
// URLs, links within the note, nor links to another note of the same
// name.
func TestLinkedFrom(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "projects/My Plan.md", "# My Plan\n\nSee [[My Plan#Goals]] above.\n\n## Goals\n\nShip it.\n")
	write(t, vault, "archive/old/My Plan.md", "# Old plan\n\nThe old one.\n")
	write(t, vault, "a.md", "# A\n\nRead [[My Plan]] first.\n\n## Later\n\nThen ![[projects/My Plan|the plan]] and [the plan](projects/My%20Plan.md#goals).\n")
	write(t, vault, "archive/old/b.md", "# B\n\n[[My Plan]] here is the archive's, the closest.\n\n```\n[[projects/My Plan]] in code\n```\n\nAnd `[[projects/My Plan]]` inline, [web](https://example.com/My%20Plan.md).\n")
	write(t, vault, "c.md", "---\nup: \"[[My Plan]]\"\nrelated:\n  - \"[[a]]\"\n  - \"[[projects/My Plan]]\"\n---\n# C\n\nNo link in the text.\n")
	write(t, vault, "d.md", "# D\n\nnothing about it, but [[++]].\n")
	write(t, vault, "++.md", "# Plus\n\nA name of no word: found by a scan.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	o, err := e.Outline(bg, "projects/My Plan.md")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range o.LinkedFrom {
		got = append(got, fmt.Sprintf("%s|%s|%d|%s", b.Path, b.Section, b.Line, b.Text))
	}
	want := []string{
		"a.md|A|3|Read [[My Plan]] first.",
		"a.md|A|7|Then ![[projects/My Plan|the plan]] and [the plan](projects/My%20Plan.md#goals).",
		"c.md||0|related: [[projects/My Plan]]",
		"c.md||0|up: [[My Plan]]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("linked from:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The archive's note of the same name is linked by b.md alone, in
	// its folder; a.md's link names the shorter path.
	if o, err := e.Outline(bg, "archive/old/My Plan.md"); err != nil || len(o.LinkedFrom) != 1 || o.LinkedFrom[0].Path != "archive/old/b.md" {
		t.Errorf("archive/old/My Plan.md: %+v, %v", o, err)
	}
	if o, err := e.Outline(bg, "c.md"); err != nil || o.LinkedFrom == nil || len(o.LinkedFrom) != 0 {
		t.Errorf("c.md: %+v, %v; want an empty list", o, err)
	}
	if o, err := e.Outline(bg, "++.md"); err != nil || len(o.LinkedFrom) != 1 || o.LinkedFrom[0].Path != "d.md" {
		t.Errorf("++.md: %+v, %v; want d.md", o, err)
	}
}
