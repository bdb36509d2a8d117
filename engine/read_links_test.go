package engine

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// Paths as links in notes and built sites write them read the note and the
// section they point to; anything else fails as the path itself does.
func TestReadLinkForms(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "guide/intro.md", "# Intro\n\nWelcome.\n\n## Setup {#setup}\n\nInstall it.\n\nThen run it. ^run\n\n## Basic Syntax\n\nWrite it.\n")
	write(t, vault, "guide/index.md", "# Guide\n\nThe guide's start.\n")
	write(t, vault, "C#.md", "# C sharp\n\nA language.\n")
	write(t, vault, "My Note.md", "# My Note\n\n## Two Words\n\nBoth.\n")
	write(t, vault, " lead.md", "# Lead\n\nA name that starts with a space.\n")
	write(t, vault, "Cafe\u0301 Re\u0301sume\u0301.md", "# Cafe\u0301\n\n## A\u0308nderungen\n\nNeu.\n") // as a Mac writes names
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, tt := range []struct {
		path, section string
		wantPath      string
		wantContent   string
	}{
		{"/guide/intro", "", "guide/intro.md", "Welcome."},
		{"/guide/intro#setup", "", "guide/intro.md", "Install it."},
		{"guide/intro.html#setup", "", "guide/intro.md", "Install it."},
		{"guide/intro#Basic Syntax", "", "guide/intro.md", "Write it."},
		{"guide/intro.htm", "", "guide/intro.md", "Welcome."},
		{"/guide/", "", "guide/index.md", "start"},
		{"guide/intro#setup", "Basic Syntax", "guide/intro.md", "Write it."}, // the section given wins
		{"guide/intro#^run", "", "guide/intro.md", "Then run it."},           // an Obsidian block reference
		{"guide/intro#Intro#Setup", "", "guide/intro.md", "Install it."},     // Obsidian's nested heading link
		{"/guide/intro.html#basic-syntax", "", "guide/intro.md", "Write it."},
		{"My%20Note.md#Two%20Words", "", "My Note.md", "Both."}, // as markdown links write it
		{"C#.md#C sharp", "", "C#.md", "A language."},           // a '#' in the name and a fragment
		{" lead.md", "", " lead.md", "starts with a space"},
		{"C#.md", "", "C#.md", "A language."},                                                            // a '#' in a name
		{"Caf\u00e9 R\u00e9sum\u00e9.md", "\u00c4nderungen", "Cafe\u0301 Re\u0301sume\u0301.md", "Neu."}, // typed composed
		{"Caf\u00e9 R\u00e9sum\u00e9#\u00e4nderungen", "", "Cafe\u0301 Re\u0301sume\u0301.md", "Neu."},   // its id, composed
	} {
		resp, err := e.Read(bg, mdsearch.ReadRequest{Path: tt.path, Section: tt.section})
		if err != nil {
			t.Errorf("%s: %v", tt.path, err)
			continue
		}
		if resp.Path != tt.wantPath || !strings.Contains(resp.Content, tt.wantContent) {
			t.Errorf("%s: read %s %q", tt.path, resp.Path, resp.Content)
		}
	}
	for _, p := range []string{"/etc/passwd", "/../guide/intro.md", "nope.html", "guide/intro#nowhere", "guide/intro#^nope", "%2e%2e/guide/intro.md", "/%2e%2e/x.md"} {
		if _, err := e.Read(bg, mdsearch.ReadRequest{Path: p}); err == nil {
			t.Errorf("%s: read", p)
		}
	}
	if o, err := e.Outline(bg, "/guide/intro.html"); err != nil || o.Path != "guide/intro.md" {
		t.Errorf("outline: %+v, %v", o, err)
	}
}

// A wikilink names a note by its file name wherever it sits, as Obsidian
// resolves it: one note of that name is read, with the link's heading;
// several are listed to choose from.
func TestReadLinkByName(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "User interface/Sidebar.md", "# Sidebar\n\n## Pin tabs\n\nPin a tab to keep it.\n")
	write(t, vault, "a/Notes.md", "# Notes A\n\n## Part\n\nFirst.\n")
	write(t, vault, "b/Notes.md", "# Notes B\n\n## Part\n\nSecond.\n")
	write(t, vault, "mail/Re: budget.md", "# Budget\n\nThe reply.\n")
	write(t, vault, "daily/2024.01.05.md", "# Friday\n\n## Log\n\nA daily note.\n")
	write(t, vault, "docs/deep/Tui_1%.md", "# Tui\n\nThe deep one.\n")
	write(t, vault, "x/Tui_1%.md", "# Tui\n\nThe other.\n")
	write(t, vault, "sub/Über.md", "# Über\n\nA capital beyond ASCII.\n")
	write(t, vault, "trips/İstanbul.md", "# İstanbul\n\nA capital whose lower case is ASCII.\n")
	write(t, vault, "trips/I\u0307zmit.md", "# Izmit\n\nSaved decomposed, as macOS names it.\n")
	write(t, vault, "units/\u212Aelvin.md", "# Kelvin\n\nThe Kelvin sign, not a K.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for p, want := range map[string]string{"Sidebar#Pin tabs": "Pin a tab",
		// The end of a path names the note whose path ends so, as in Obsidian.
		"Über": "beyond ASCII", "über": "beyond ASCII", "[[ÜBER]]": "beyond ASCII",
		// İ and the Kelvin sign lower-case to ASCII letters: typed in ASCII, they match.
		"istanbul": "lower case is ASCII", "[[Istanbul]]": "lower case is ASCII", "trips/istanbul.md": "lower case is ASCII",
		"kelvin": "not a K", "izmit": "Saved decomposed",
		"deep/Tui_1%": "The deep one.", "[[deep/Tui_1%#Tui]]": "The deep one.", "DEEP/tui_1%.md": "The deep one.",
		"sidebar#pin-tabs": "Pin a tab", "v:Sidebar#Pin tabs": "Pin a tab",
		"Sidebar": "Pin a tab", "Re: budget": "The reply.", "v:Re: budget": "The reply.", "2024.01.05": "A daily note.",
		"2024.01.05#Log": "A daily note.", "Sidebar.md#pin-tabs": "Pin a tab", "Sidebar.md#Pin%20tabs": "Pin a tab"} {
		resp, err := e.Read(bg, mdsearch.ReadRequest{Path: p})
		if err != nil || !strings.Contains(resp.Content, want) {
			t.Errorf("%s: %+v, %v", p, resp, err)
		}
	}
	// Two notes of one name: the name is the caller's to fix, as a
	// section's name two sections share is. They are named as results
	// name them: by path alone in an index of one collection.
	for _, p := range []string{"Notes#Part", "Notes", "notes.md", "v:Notes"} {
		_, err := e.Read(bg, mdsearch.ReadRequest{Path: p})
		if msg := fmt.Sprint(err); mdsearch.KindOf(err) != mdsearch.KindInvalid || !strings.Contains(msg, "several notes have this name: a/Notes.md, b/Notes.md") {
			t.Errorf("%s, two notes of this name: %v (%s), want them named as invalid", p, err, mdsearch.KindOf(err))
		}
	}
	// With another collection, as COLLECTION:PATH.
	index(t, e, copyDir(t, sampleVault), "w")
	if _, err := e.Read(bg, mdsearch.ReadRequest{Path: "Notes"}); !strings.Contains(fmt.Sprint(err), "v:a/Notes.md, v:b/Notes.md") {
		t.Errorf("two collections: %v", err)
	}
	for _, p := range []string{"Nope#Part", "x/Sidebar#Pin tabs", "Nope.md#Part", "eep/Tui_1%", "deep/Tui_1_", "interface/Sidebar"} {
		if _, err := e.Read(bg, mdsearch.ReadRequest{Path: p}); mdsearch.KindOf(err) != mdsearch.KindNotFound {
			t.Errorf("%s: %v, want not found", p, err)
		}
	}
}

// A note whose file name is not UTF-8 is read by the name results show
// for it, each bad byte as U+FFFD (as JSON carries it).
func TestReadShownName(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "bad\xffname.md", "# Odd\n\nA name in Latin-1.\n")
	write(t, vault, "sub/caf\xe9.md", "# Cafe\n\nAnother.\n")
	write(t, vault, "two\xe9\xe8.md", "# Two\n\nTwo bad bytes side by side.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	full := filepath.Join(vault, "sub", "caf\uFFFD.md") // as search --files prints it from JSON
	for shown, want := range map[string]string{"bad\uFFFDname.md": "bad\xffname.md", "v:sub/caf\uFFFD.md": "sub/caf\xe9.md", "sub/caf\uFFFD": "sub/caf\xe9.md", full: "sub/caf\xe9.md",
		"two\uFFFD\uFFFD.md": "two\xe9\xe8.md", "two\uFFFD.md": "two\xe9\xe8.md"} { // each byte as JSON writes it, or the run
		r, err := e.Read(bg, mdsearch.ReadRequest{Path: shown})
		if err != nil || r.Path != want {
			t.Errorf("read %q: %+v, %v", shown, r, err)
		}
	}
	if _, err := e.Read(bg, mdsearch.ReadRequest{Path: "nope\uFFFD.md"}); mdsearch.KindOf(err) != mdsearch.KindNotFound {
		t.Errorf("no such name: %v", err)
	}
	for shown, want := range map[string]string{"sub/caf\uFFFD.md": "sub/caf\xe9.md", "nope\uFFFD.md": "nope\uFFFD.md", "plain.md": "plain.md"} {
		if got := e.IndexedPath(bg, "v", shown); got != want {
			t.Errorf("IndexedPath(%q) = %q, want %q", shown, got, want)
		}
	}
}

// A note whose path starts with its collection's name and a colon is
// named by COLLECTION:PATH in its result, the name read takes for it.
func TestColonPathReadPath(t *testing.T) {
	vault := filepath.Join(t.TempDir(), "sample")
	write(t, vault, "sample:x.md", "# Colon\n\nThe quokka note.\n")
	write(t, vault, "x.md", "# Plain\n\nThe wombat note.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "sample")
	resp := search(t, e, mdsearch.SearchRequest{Query: "quokka", Mode: mdsearch.ModeKeyword})
	if len(resp.Results) == 0 || resp.Results[0].Path != "sample:x.md" || resp.Results[0].ReadPath != "sample:sample:x.md" {
		t.Fatalf("results %+v", resp.Results)
	}
	read, err := e.Read(bg, mdsearch.ReadRequest{Path: resp.Results[0].ReadPath})
	if err != nil || !strings.Contains(read.Content, "quokka") {
		t.Errorf("read %s: %+v, %v", resp.Results[0].ReadPath, read, err)
	}
	if resp := search(t, e, mdsearch.SearchRequest{Query: "wombat", Mode: mdsearch.ModeKeyword}); len(resp.Results) == 0 || resp.Results[0].ReadPath != "" {
		t.Errorf("a plain path got a read path: %+v", resp.Results)
	}
}

// A wikilink copied from a note reads what Obsidian opens: its brackets
// and its "|shown text" are not part of the name, and a name no file has
// reads the one note that has it as an alias (in any case); an alias
// several notes have is listed to choose from, as a name several files
// have is.
func TestReadWikilinks(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "Links.md", "---\naliases: [Linky, \"Link Hub\"]\n---\n# Links\n\nSee the hub.\n")
	write(t, vault, "Target Note.md", "# Target Note\n\n## Setup Steps\n\nInstall the thing.\n")
	write(t, vault, "a/One.md", "---\nalias: Twin\n---\n# One\n\nFirst twin.\n")
	write(t, vault, "b/Two.md", "---\nAliases:\n  - twin\n  - 1984\n---\n# Two\n\nSecond twin.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, tt := range []struct{ path, wantPath, want string }{
		{"Linky", "Links.md", "See the hub."},
		{"link hub", "Links.md", "See the hub."},
		{"v:Linky", "Links.md", "See the hub."},
		{"1984", "b/Two.md", "Second twin."},
		{"Target Note#Setup Steps|the setup", "Target Note.md", "Install the thing."},
		{"[[Target Note#Setup Steps]]", "Target Note.md", "Install the thing."},
		{"![[Target Note#Setup Steps|the setup]]", "Target Note.md", "Install the thing."},
		{`[[Target Note\|the note]]`, "Target Note.md", "# Target Note"},
		{"[[Linky|the hub]]", "Links.md", "See the hub."},
	} {
		resp, err := e.Read(bg, mdsearch.ReadRequest{Path: tt.path})
		if err != nil || resp.Path != tt.wantPath || !strings.Contains(resp.Content, tt.want) {
			t.Errorf("%s: %+v, %v", tt.path, resp, err)
		}
	}
	if _, err := e.Read(bg, mdsearch.ReadRequest{Path: "Twin"}); mdsearch.KindOf(err) != mdsearch.KindInvalid ||
		!strings.Contains(fmt.Sprint(err), "several notes have this name: a/One.md, b/Two.md") {
		t.Errorf("an alias of two notes: %v, want them named as invalid", err)
	}
	for _, p := range []string{"[[Nope]]", "Nope|Linky", "Link", "!Links"} {
		if _, err := e.Read(bg, mdsearch.ReadRequest{Path: p}); mdsearch.KindOf(err) != mdsearch.KindNotFound {
			t.Errorf("%s: %v, want not found", p, err)
		}
	}
	if o, err := e.Outline(bg, "[[Linky]]"); err != nil || o.Path != "Links.md" {
		t.Errorf("outline of an alias: %+v, %v", o, err)
	}
}
