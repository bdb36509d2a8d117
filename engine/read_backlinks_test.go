package engine

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// An outline lists the places in other notes that link to the note:
// wikilinks by name or path, with a heading or an alias, embeds,
// markdown links (escaped as editors escape them, relative, to a folder's
// index), and properties, each with its line and the section read takes;
// not links in code or comments, URLs, links within the note, nor links
// to another note of the same name.
func TestLinkedFrom(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "projects/My Plan (draft).md", "# My Plan\n\nSee [[My Plan (draft)#Goals]] above.\n\n## Goals\n\nShip it.\n")
	write(t, vault, "archive/old/My Plan (draft).md", "# Old plan\n\nThe old one.\n")
	fence := "```\n" + strings.Repeat("[[projects/My Plan (draft)]] in code\n", 40) + "```\n"
	write(t, vault, "a.md", "# A\n\nRead [[My Plan (draft)]] first.\n\n## Setup\n\n"+strings.Repeat("Words of the setup. ", 60)+"\n\n"+fence+
		"\nThen ![[projects/My Plan (draft)|the plan]] and [the plan](projects/My%20Plan%20(draft).md#goals).\n\n## Other\n\n### Setup\n\n%% [[projects/My Plan (draft)]] hidden %%\n[again](<projects/My Plan (draft).md>)\n")
	write(t, vault, "archive/old/b.md", "# B\n\n[[My Plan (draft)]] here is the archive's, the closest.\n\nAnd `[[projects/My Plan (draft)]]` inline, [web](https://example.com/My%20Plan%20(draft).md).\n")
	write(t, vault, "c.md", "---\nup: \"[[My Plan (draft)]]\"\nrelated:\n  - \"[[a]]\"\n---\n# C\n\nNo link in the text.\n")
	write(t, vault, "d.md", "# D\n\nnothing about it, but [[++]], [the guide](guide/) and [q](Q%26A.md).\n")
	write(t, vault, "++.md", "# Plus\n\nA name of no word: found by a scan.\n")
	write(t, vault, "guide/index.md", "# Guide\n\nThe guide.\n")
	write(t, vault, "Q&A.md", "# Questions\n\nAsked.\n")
	write(t, vault, "e.md", "---\nup: \"[[Q&A]]\"\n---\n# E\n\nA property alone links.\n")
	write(t, vault, "Café au lait.md", "# Café\n\nMilk.\n")
	write(t, vault, "f.md", "# F\n\n[c](Caf%C3%A9%20au%20lait.md), encoded.\n\n[[Cafe\u0301 au lait]], decomposed.\n")
	write(t, vault, "🚀 Launch.md", "# Launch\n\nGo.\n")
	write(t, vault, "g.md", "# G\n\n[l](🚀%20Launch.md), escaped in part.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	o, err := e.Outline(bg, "projects/My Plan (draft).md")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range o.LinkedFrom {
		got = append(got, fmt.Sprintf("%s|%s|%d|%s", b.Path, b.Section, b.Line, b.Text))
	}
	want := []string{
		"a.md|A|3|Read [[My Plan (draft)]] first.",
		"a.md|A/Setup|52|Then ![[projects/My Plan (draft)|the plan]] and [the plan](projects/My%20Plan%20(draft).md#goals).",
		"a.md|A/Other/Setup|59|[again](<projects/My Plan (draft).md>)",
		"c.md||2|up: \"[[My Plan (draft)]]\"",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || o.LinkedFromMore != 0 {
		t.Errorf("linked from (%d more):\n%s\nwant\n%s", o.LinkedFromMore, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, tt := range []struct{ note, from string }{
		{"archive/old/My Plan (draft).md", "archive/old/b.md"}, // in its folder; a.md's link names the shorter path
		{"++.md", "d.md"},                // a name of no word
		{"guide/index.md", "d.md"},       // a link to its folder
		{"Q&A.md", "d.md e.md"},          // "&" escaped; and in properties, stored as JSON
		{"Café au lait.md", "f.md f.md"}, // percent-encoded, and decomposed
		{"🚀 Launch.md", "g.md"},
	} {
		var from []string
		o, err := e.Outline(bg, tt.note)
		for _, b := range o.LinkedFrom {
			from = append(from, b.Path)
		}
		if err != nil || strings.Join(from, " ") != tt.from {
			t.Errorf("%s: %+v, %v; want %s", tt.note, o, err, tt.from)
		}
	}
	if o, err := e.Outline(bg, "c.md"); err != nil || o.LinkedFrom == nil || len(o.LinkedFrom) != 0 {
		t.Errorf("c.md: %+v, %v; want an empty list", o, err)
	}
}

// A note many others link to lists the places of the notes read until
// maxBacklinks are found, each note's together, and counts the notes
// that link to it past them (a note holding its name, but no link to it,
// is none).
func TestLinkedFromCapped(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "Hub.md", "# Hub\n\nThe center.\n")
	for i := range 49 {
		write(t, vault, fmt.Sprintf("n%02d.md", i), "# N\n\nSee [[Hub]].\n\nAnd [[Hub]] again.\n")
	}
	write(t, vault, "n49.md", "# N\n\n"+strings.Repeat("[[Hub]] once more.\n\n", 5))
	for i := range 10 {
		write(t, vault, fmt.Sprintf("o%02d.md", i), "# O\n\nSee [[Hub]].\n")
		write(t, vault, fmt.Sprintf("x%02d.md", i), "# X\n\nHubs and the hub of [[Other]].\n") // its name, no link to it
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	o, err := e.Outline(bg, "Hub.md")
	if err != nil || len(o.LinkedFrom) != 103 || o.LinkedFromMore != 10 || o.LinkedFrom[102].Path != "n49.md" {
		t.Fatalf("%d places, %d more notes, %v", len(o.LinkedFrom), o.LinkedFromMore, err)
	}
}
