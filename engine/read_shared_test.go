package engine

import (
	"cmp"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// TestSharedPathResults: a result whose path another collection holds too
// names its note as COLLECTION:PATH (ReadPath), which reads it where the
// path alone is refused as ambiguous; a path one collection holds, or any
// path of an index of one collection, needs none.
func TestSharedPathResults(t *testing.T) {
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, copyDir(t, sampleVault), "home")
	query := mdsearch.SearchRequest{Query: "restore drill", Mode: mdsearch.ModeKeyword, N: 10}
	for _, r := range search(t, e, query).Results {
		if r.ReadPath != "" {
			t.Errorf("one collection: %s has read path %q", r.Path, r.ReadPath)
		}
	}
	work := t.TempDir()
	write(t, work, "homelab/Backups.md", "# Backups\n\nThe work laptop has a restore drill every month.\n")
	write(t, work, "Drills.md", "# Drills\n\nA restore drill checklist.\n")
	index(t, e, work, "work")
	for _, coll := range []string{"", "home", "work"} {
		query.Collection = coll
		resp := search(t, e, query)
		seen := map[string]bool{}
		for _, r := range resp.Results {
			want := ""
			if r.Path == "homelab/Backups.md" {
				want = r.Collection + ":" + r.Path
			}
			if r.ReadPath != want {
				t.Errorf("collection %q: %s of %s has read path %q, want %q", coll, r.Path, r.Collection, r.ReadPath, want)
			}
			if r.ReadPath == "" {
				continue
			}
			seen[r.Collection] = true
			if got, err := e.Read(bg, mdsearch.ReadRequest{Path: r.ReadPath}); err != nil || got.Collection != r.Collection {
				t.Errorf("read %s: %+v, %v", r.ReadPath, got, err)
			}
			if _, err := e.Read(bg, mdsearch.ReadRequest{Path: r.Path}); mdsearch.KindOf(err) != mdsearch.KindInvalid {
				t.Errorf("read %s alone: %v, want it refused as ambiguous", r.Path, err)
			}
		}
		if (coll == "" && len(seen) != 2) || (coll != "" && !seen[coll]) {
			t.Errorf("collection %q: shared path found in %v", coll, seen)
		}
	}
}

// TestReadSectionResults: a result whose section path another section of
// the note reads the same (one heading twice under one parent, or a
// heading holding '/') carries ReadSection, and reading it returns that
// section; a path that names one section needs none.
func TestReadSectionResults(t *testing.T) {
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	work := t.TempDir()
	// Each section over the stub size, so none merges into the next.
	long := func(s string) string { return s + strings.Repeat(" Filler words to pass the stub size.", 10) + "\n\n" }
	write(t, work, "dup.md", "# Dup\n\n"+long("Intro.")+"## Rollback\n\n"+long("First.")+"### Steps\n\n"+long("The harbour bucket first.")+
		"## Rollback\n\n"+long("Second.")+"### Steps\n\n"+long("Page the walrus on call.")+"## Unique\n\n"+long("A tundra tracker."))
	write(t, work, "net.md", "# Net\n\n"+long("Intro.")+"## TCP/IP\n\n"+long("The stack as a whole.")+"## TCP\n\n"+long("Segments.")+
		"### IP\n\n"+long("Addresses of the axolotl."))
	index(t, e, work, "work")
	for _, tt := range []struct{ query, path, readSection, text string }{
		{"walrus", "dup.md", "#steps-1", "walrus"},
		{"harbour bucket", "dup.md", "#steps", "harbour"},
		{"axolotl", "net.md", "#ip", "axolotl"},
		{"stack whole", "net.md", "#tcpip", "stack"},
		{"tundra tracker", "dup.md", "", "tundra"},
	} {
		resp := search(t, e, mdsearch.SearchRequest{Query: tt.query, Mode: mdsearch.ModeKeyword, N: 1})
		if len(resp.Results) != 1 || resp.Results[0].Path != tt.path {
			t.Errorf("%q: %+v", tt.query, resp.Results)
			continue
		}
		r := resp.Results[0]
		if r.ReadSection != tt.readSection {
			t.Errorf("%q: read section %q, want %q", tt.query, r.ReadSection, tt.readSection)
		}
		section := cmp.Or(r.ReadSection, strings.Join(r.SectionPath, "/"))
		got, err := e.Read(bg, mdsearch.ReadRequest{Path: r.Path, Section: section})
		if err != nil || !strings.Contains(got.Content, tt.text) {
			t.Errorf("%q: read %s section %q: %v, %v", tt.query, r.Path, section, got, err)
		}
	}
}

// A passage with stub sections merged in names each by the name that
// reads it: "#id" where another section of the note has its path, so a
// heading repeated among the stubs reads each of its sections.
func TestReadSectionsMerged(t *testing.T) {
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	work := t.TempDir()
	write(t, work, "post.md", "# Post\n\n## Setup\n\nFirst snargleplex.\n\n## Config\n\nSet it.\n\n## Setup\n\nSecond trillobyte.\n")
	index(t, e, work, "work")
	resp := search(t, e, mdsearch.SearchRequest{Query: "snargleplex", Mode: mdsearch.ModeKeyword, N: 1})
	if len(resp.Results) != 1 {
		t.Fatalf("results: %+v", resp.Results)
	}
	r := resp.Results[0]
	if len(r.ReadSections) != len(r.Sections) || len(r.Sections) < 3 {
		t.Fatalf("sections %q, read as %q", r.Sections, r.ReadSections)
	}
	var texts []string
	for i, p := range r.Sections {
		got, err := e.Read(bg, mdsearch.ReadRequest{Path: r.Path, Section: cmp.Or(r.ReadSections[i], strings.Join(p, "/"))})
		if err != nil {
			t.Fatalf("read %q (%q): %v", p, r.ReadSections[i], err)
		}
		texts = append(texts, got.Content)
	}
	all := strings.Join(texts, "\n")
	for _, w := range []string{"snargleplex", "Set it", "trillobyte"} {
		if !strings.Contains(all, w) {
			t.Errorf("no section read holds %q: %q", w, texts)
		}
	}
}
