package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// An excluded note is named as read names it: by its path in the vault
// (every collection's note there), as COLLECTION:PATH (that collection's
// alone, as a result's read_path names it) or by its full path inside an
// indexed folder, through a symlink too.
func TestExcludeForms(t *testing.T) {
	home, work := filepath.Join(t.TempDir(), "home"), filepath.Join(t.TempDir(), "work")
	write(t, home, "homelab/Backups.md", "# Backups\n\nRestic copies the laptop to the NAS.\n")
	write(t, home, "Other.md", "# Other\n\nRestic also copies the server.\n")
	write(t, work, "homelab/Backups.md", "# Backups\n\nRestic copies the work laptop nightly.\n")
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(home, link); err != nil {
		t.Fatal(err)
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, home, "home")
	index(t, e, work, "work")
	all := []string{"home:Other.md", "home:homelab/Backups.md", "work:homelab/Backups.md"}
	for _, tt := range []struct {
		exclude string
		want    []string
	}{
		{"", all},
		{"homelab/Backups.md", []string{"home:Other.md"}},
		{"./homelab/Backups", []string{"home:Other.md"}}, // as read takes it, without .md
		{"home:homelab/Backups.md", []string{"home:Other.md", "work:homelab/Backups.md"}},
		{"work:homelab/Backups.md", []string{"home:Other.md", "home:homelab/Backups.md"}},
		{filepath.Join(home, "homelab", "Backups.md"), []string{"home:Other.md", "work:homelab/Backups.md"}},
		{filepath.Join(link, "homelab", "Backups.md"), []string{"home:Other.md", "work:homelab/Backups.md"}},
		{work + "/homelab/../homelab//Backups.md", []string{"home:Other.md", "home:homelab/Backups.md"}},
		{"nope:homelab/Backups.md", all},
		{filepath.Join(t.TempDir(), "homelab", "Backups.md"), all},
		// The forms read opens by a link or a name: the note's alone.
		{"[[Other]]", []string{"home:homelab/Backups.md", "work:homelab/Backups.md"}},
		{"Other", []string{"home:homelab/Backups.md", "work:homelab/Backups.md"}},
		{"other.md", []string{"home:homelab/Backups.md", "work:homelab/Backups.md"}},
		{"[[Other#Part|shown]]", []string{"home:homelab/Backups.md", "work:homelab/Backups.md"}},
		{"[[work:homelab/Backups]]", []string{"home:Other.md", "home:homelab/Backups.md"}},
		{"Backups", all}, // two notes have the name: read names both, and so excludes neither
	} {
		req := mdsearch.SearchRequest{Query: "restic", Mode: mdsearch.ModeKeyword, N: 10}
		if tt.exclude != "" {
			req.Exclude = []string{tt.exclude}
		}
		var got []string
		for _, r := range search(t, e, req).Results {
			got = append(got, r.Collection+":"+r.Path)
		}
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("exclude %q: %v, want %v", tt.exclude, got, tt.want)
		}
	}
}

// An excluded note that names no indexed note is said, each by the name
// given; one that names a note is not.
func TestUnknownExcludes(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	write(t, home, "homelab/Backups.md", "# Backups\n\nRestic copies the laptop to the NAS.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, home, "home")
	elsewhere := filepath.Join(t.TempDir(), "x.md")
	for _, tt := range []struct {
		exclude []string
		want    string
	}{
		{nil, ""},
		{[]string{"homelab/Backups.md", "home:homelab/Backups.md", filepath.Join(home, "homelab/Backups.md")}, ""},
		{[]string{"nope.md"}, `exclude: no indexed note at "nope.md"`},
		{[]string{"homelab/Backups.md", "home:nope.md", elsewhere}, `exclude: no indexed note at "home:nope.md" or "` + elsewhere + `"`},
		{[]string{"nope:homelab/Backups.md"}, `exclude: no indexed note at "nope:homelab/Backups.md"`}, // no such collection
	} {
		_, got := e.resolveExcludes(bg, tt.exclude)
		if got != tt.want {
			t.Errorf("%q: %q, want %q", tt.exclude, got, tt.want)
		}
	}
	// A search says so beside its results: a mistyped path is not left
	// out silently.
	resp := search(t, e, mdsearch.SearchRequest{Query: "restic", Mode: mdsearch.ModeKeyword, Exclude: []string{"homelab/Backup.md"}})
	if len(resp.Results) != 1 || !strings.Contains(resp.Notice, `exclude: no indexed note at "homelab/Backup.md"`) {
		t.Errorf("%d results, notice %q", len(resp.Results), resp.Notice)
	}
	if resp := search(t, e, mdsearch.SearchRequest{Query: "restic", Mode: mdsearch.ModeKeyword, Exclude: []string{"homelab/Backups.md"}}); strings.Contains(resp.Notice, "exclude:") {
		t.Errorf("a known exclude: notice %q", resp.Notice)
	}
}

// An exclude that several notes answer to leaves none out, and the notice
// names them, not "no indexed note".
func TestExcludeSeveral(t *testing.T) {
	home := t.TempDir()
	write(t, home, "a/Note.md", "# A\n\nRestic copies the laptop.\n")
	write(t, home, "b/Note.md", "# B\n\nRestic copies the server.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, home, "home")
	resp := search(t, e, mdsearch.SearchRequest{Query: "restic", Mode: mdsearch.ModeKeyword, Exclude: []string{"Note"}})
	if len(resp.Results) != 2 || !strings.Contains(resp.Notice, `exclude: "Note" left out nothing: several notes have this name: a/Note.md, b/Note.md`) ||
		strings.Contains(resp.Notice, "no indexed note") {
		t.Errorf("%d results, notice %q", len(resp.Results), resp.Notice)
	}
}
