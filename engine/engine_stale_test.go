package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
)

func TestStaleResults(t *testing.T) {
	vault := copyDir(t, sampleVault)
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	staleOf := func(what string) map[string]bool {
		t.Helper()
		out := map[string]bool{}
		for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeSemantic, mdsearch.ModeHybrid} {
			for _, r := range search(t, e, mdsearch.SearchRequest{Query: "sourdough starter backups restore knife tomatoes", N: 50, Mode: mode}).Results {
				if prev, ok := out[r.Path]; ok && prev != r.Stale {
					t.Errorf("%s: %s is stale in one mode only", what, r.Path)
				}
				out[r.Path] = r.Stale
			}
		}
		return out
	}
	for p, s := range staleOf("fresh index") {
		if s {
			t.Errorf("fresh index: %s marked stale", p)
		}
	}
	sour := filepath.Join(vault, "kitchen", "Sourdough.md")
	src, _ := os.ReadFile(sour)
	write(t, vault, "kitchen/Sourdough.md", string(src)+"\nAn edit nothing watched.\n")
	os.Chtimes(sour, time.Now().Add(time.Minute), time.Now().Add(time.Minute))
	os.Remove(filepath.Join(vault, "homelab", "Backups.md"))
	knife := filepath.Join(vault, "kitchen", "Knife Care.md") // touched only
	os.Chtimes(knife, time.Now().Add(time.Minute), time.Now().Add(time.Minute))
	tom := filepath.Join(vault, "garden", "Tomatoes.md") // same size, other bytes
	src, _ = os.ReadFile(tom)
	write(t, vault, "garden/Tomatoes.md", strings.Replace(string(src), "e", "E", 1))
	os.Chtimes(tom, time.Now().Add(time.Minute), time.Now().Add(time.Minute))
	got := staleOf("after edits")
	if _, err := e.Read(bg, mdsearch.ReadRequest{Path: "homelab/Backups.md"}); mdsearch.KindOf(err) != mdsearch.KindNotFound ||
		!strings.Contains(err.Error(), "deleted since it was indexed") {
		t.Errorf("read of a note deleted since indexed: %v", err)
	}
	for path, want := range map[string]bool{"kitchen/Sourdough.md": true, "homelab/Backups.md": true,
		"kitchen/Knife Care.md": false, "garden/Tomatoes.md": true} {
		if s, ok := got[path]; ok && s != want {
			t.Errorf("after edits: %s stale = %v, want %v", path, s, want)
		} else if !ok && want {
			t.Errorf("after edits: %s not among the results", path)
		}
	}
	index(t, e, vault, "v")
	for p, s := range staleOf("re-indexed") {
		if s {
			t.Errorf("re-indexed: %s still marked stale", p)
		}
	}
}

func TestReadNotices(t *testing.T) {
	vault := copyDir(t, sampleVault)
	long := "# Long\n\n" + strings.Repeat("## Part\n\n"+strings.Repeat("word ", 400)+"\n\n", 4)
	write(t, vault, "long.md", long)
	write(t, vault, "flat.md", "# Flat\n\n"+strings.Repeat("word ", 1600)+"\n")
	write(t, vault, "h2.md", "# H2\n\n## Same Name\n\nOuter.\n\n### Same Name\n\nInner.\n\n# Other\n\n## Same Name\n\nAgain.\n\n## Same Name\n\nTwice.\n")
	if err := os.Symlink("kitchen/Sourdough.md", filepath.Join(vault, "bread.md")); err != nil {
		t.Fatal(err)
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	write(t, vault, "new.md", "# New\n\ntext\n")
	write(t, vault, "kitchen/Knife Care.md", "# Knife Care\n\nedited\n")
	for _, c := range []struct {
		name    string
		req     mdsearch.ReadRequest
		outline bool   // answered with the outline
		notice  string // "" means none
	}{
		{"indexed and current", mdsearch.ReadRequest{Path: "kitchen/Sourdough.md"}, false, ""},
		{"the same, written loosely", mdsearch.ReadRequest{Path: "kitchen//./Sourdough.md"}, false, ""},
		{"changed since indexed", mdsearch.ReadRequest{Path: "kitchen/Knife Care.md"}, false, "index is behind"},
		{"not indexed", mdsearch.ReadRequest{Path: "new.md"}, false, "not indexed yet"},
		{"a link to a note indexed under its own path", mdsearch.ReadRequest{Path: "bread.md"}, false,
			"this note is a symlink to kitchen/Sourdough.md, which is indexed under that path"},
		{"long note", mdsearch.ReadRequest{Path: "long.md"}, true, "1605 words (over 1500): here is its outline; read one of its sections, or the whole note"},
		{"long note, full", mdsearch.ReadRequest{Path: "long.md", Full: true}, false, ""},
		{"long note, a section of four that share a path", mdsearch.ReadRequest{Path: "long.md", Section: "Long > Part"}, false,
			`other sections share the path "Long/Part": this is #part; the others are #part-1, #part-2, #part-3`},
		{"the third of them, by its id", mdsearch.ReadRequest{Path: "long.md", Section: "#part-2"}, false, "this is #part-2; the others are #part, #part-1, #part-3"},
		{"a heading repeated under other parents: the first", mdsearch.ReadRequest{Path: "h2.md", Section: "Same Name"}, false,
			`"Same Name" names 4 sections: this is the first in the note, "H2/Same Name"; read the others as "H2/Same Name/Same Name", #same-name-2 ("Other/Same Name"), #same-name-3 ("Other/Same Name")`},
		{"the same as a link", mdsearch.ReadRequest{Path: "h2#Same Name"}, false, `"Same Name" names 4 sections: this is the first in the note, "H2/Same Name"`},
		{"long note with one heading", mdsearch.ReadRequest{Path: "flat.md"}, false, "with no outline to choose from: here is its start, to line 3 cut after"},
	} {
		r, err := e.Read(bg, c.req)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := r.Outline != nil; got != c.outline || (c.outline && (r.Content != "" || len(r.Outline) != 5)) ||
			(!c.outline && r.Content == "") {
			t.Errorf("%s: outline %d entries, content %d bytes", c.name, len(r.Outline), len(r.Content))
		}
		if (c.notice == "") != (r.Notice == "") || !strings.Contains(r.Notice, c.notice) {
			t.Errorf("%s: notice %q, want one with %q", c.name, r.Notice, c.notice)
		}
	}
}

func TestMoreFilters(t *testing.T) {
	vault := copyDir(t, sampleVault)
	write(t, vault, "Projects/Plan.md", "---\nowner: Alice\nRating: 4.50\nscores: [1, 2.0]\nmeta: {lead: carol, team: {members: [dan, eve]}}\nstatus: [draft, review]\ndone: false\ntags: [work, q3]\n---\n# Plan\n\nThe starter plan for the quarter.\n")
	write(t, vault, "projects/Other.md", "---\nowner: bob\nv1.2: yes\ntags: [work]\nrelated: [\"[[Budget 2024|the budget]]\", \"[[Roadmap#Q3]]\"]\nup: \"[[Home]]\"\n---\n# Other\n\nAnother starter plan.\n")
	write(t, vault, "Работа/План.md", "---\nАвтор: Иван\nСтатус: Черновик\n---\n# План\n\nThe starter plan, in Russian.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	for _, c := range []struct {
		name string
		req  mdsearch.SearchRequest
		want string // sorted result paths
	}{
		{"tags AND", mdsearch.SearchRequest{Tags: []string{"work", "q3"}}, "Projects/Plan.md"},
		{"tag and tags AND", mdsearch.SearchRequest{Tag: "work", Tags: []string{"#Q3"}}, "Projects/Plan.md"},
		{"one tag", mdsearch.SearchRequest{Tags: []string{"work"}}, "Projects/Plan.md projects/Other.md"},
		{"path prefix, any case", mdsearch.SearchRequest{PathPrefix: "PROJECTS/"}, "Projects/Plan.md projects/Other.md"},
		{"path prefix, segment", mdsearch.SearchRequest{PathPrefix: "Kitchen"}, "kitchen/Knife Care.md kitchen/Sourdough.md"},
		{"where scalar, any case", mdsearch.SearchRequest{Where: map[string]string{"owner": "alice"}}, "Projects/Plan.md"},
		{"where, any case in any script", mdsearch.SearchRequest{Where: map[string]string{"автор": "иван", "СТАТУС": "черновик"}}, "Работа/План.md"},
		{"path prefix, any case in any script", mdsearch.SearchRequest{PathPrefix: "работа"}, "Работа/План.md"},
		{"where list", mdsearch.SearchRequest{Where: map[string]string{"status": "Review"}}, "Projects/Plan.md"},
		{"where bool", mdsearch.SearchRequest{Where: map[string]string{"done": "false"}}, "Projects/Plan.md"},
		{"where AND", mdsearch.SearchRequest{Where: map[string]string{"owner": "bob", "status": "draft"}}, ""},
		{"where and tag", mdsearch.SearchRequest{Tag: "work", Where: map[string]string{"owner": "bob"}}, "projects/Other.md"},
		{"where field name, any case", mdsearch.SearchRequest{Where: map[string]string{"OWNER": "alice"}}, "Projects/Plan.md"},
		{"where number as written", mdsearch.SearchRequest{Where: map[string]string{"rating": "4.50"}}, "Projects/Plan.md"},
		{"where number", mdsearch.SearchRequest{Where: map[string]string{"rating": "4.5"}}, "Projects/Plan.md"},
		{"where number in a list", mdsearch.SearchRequest{Where: map[string]string{"scores": "2"}}, "Projects/Plan.md"},
		{"where other number", mdsearch.SearchRequest{Where: map[string]string{"rating": "4"}}, ""},
		{"where map value", mdsearch.SearchRequest{Where: map[string]string{"meta": "carol"}}, "Projects/Plan.md"},
		{"where nested field", mdsearch.SearchRequest{Where: map[string]string{"Meta.LEAD": "Carol"}}, "Projects/Plan.md"},
		{"where nested list", mdsearch.SearchRequest{Where: map[string]string{"meta.team.members": "dan"}}, "Projects/Plan.md"},
		{"where nested, other field", mdsearch.SearchRequest{Where: map[string]string{"meta.owner": "carol"}}, ""},
		{"where dotted name", mdsearch.SearchRequest{Where: map[string]string{"v1.2": "yes"}}, "projects/Other.md"},
		{"where list as text", mdsearch.SearchRequest{Where: map[string]string{"scores": "[1,2.0]"}}, ""},
		{"where missing field", mdsearch.SearchRequest{Where: map[string]string{"nope": "x"}}, ""},
		{"where link by its note", mdsearch.SearchRequest{Where: map[string]string{"related": "budget 2024"}}, "projects/Other.md"},
		{"where link as written", mdsearch.SearchRequest{Where: map[string]string{"up": "[[home]]"}}, "projects/Other.md"},
		{"where link by its note, heading aside", mdsearch.SearchRequest{Where: map[string]string{"related": "[[Roadmap]]"}}, "projects/Other.md"},
		{"where link, other note", mdsearch.SearchRequest{Where: map[string]string{"related": "budget"}}, ""},
	} {
		for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeSemantic, mdsearch.ModeHybrid} {
			req := c.req
			req.Query, req.Mode, req.N, req.MaxPerPage = "starter plan knife", mode, 50, 1
			if got := sortedPaths(search(t, e, req)); got != c.want {
				t.Errorf("%s, %s: got %q, want %q", c.name, mode, got, c.want)
			}
		}
	}
	// No results under filters says which filters.
	resp, err := e.Search(bg, mdsearch.SearchRequest{Query: "starter", Mode: mdsearch.ModeKeyword, Tag: "work",
		Where: map[string]string{"owner": "bob", "status": "draft"}})
	if err != nil || len(resp.Results) != 0 ||
		!strings.Contains(resp.Notice, `no passage matched with these filters: tag "work", owner="bob", status="draft"`) {
		t.Errorf("empty filtered search: %v %q", err, resp.Notice)
	}
	// Words no passage holds: the filters are not to blame.
	resp, err = e.Search(bg, mdsearch.SearchRequest{Query: "zxqvblorft", Mode: mdsearch.ModeKeyword, Tag: "work"})
	if err != nil || len(resp.Results) != 0 || !strings.Contains(resp.Notice, `no passage holds these words, with or without the filters (tag "work")`) {
		t.Errorf("unknown words under a filter: %v %q", err, resp.Notice)
	}
	_, err = e.Search(bg, mdsearch.SearchRequest{Query: "x", Where: map[string]string{" ": "x"}})
	if mdsearch.KindOf(err) != mdsearch.KindInvalid || !strings.Contains(err.Error(), "empty field name") {
		t.Errorf("empty field name: %v", err)
	}
	_, err = e.Search(bg, mdsearch.SearchRequest{Query: "x", Tags: []string{"work", " "}})
	if mdsearch.KindOf(err) != mdsearch.KindInvalid || !strings.Contains(err.Error(), `tag " " is empty`) {
		t.Errorf("empty tag: %v", err)
	}
}

func sortedPaths(resp *mdsearch.SearchResponse) string {
	var out []string
	for _, r := range resp.Results {
		out = append(out, r.Path)
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// A file the index run skips is not a note: status never counts it stale,
// whether it is binary or over the size limit the collection was indexed
// with (status may run with another).
func TestStatusSkippedNotStale(t *testing.T) {
	vault := copyDir(t, sampleVault)
	write(t, vault, "binary.md", "# Binary\n\x00\x01\x02 not text\n")
	write(t, vault, "big.md", "# Big\n\n"+strings.Repeat("word ", 400)+"\n")
	dbPath := filepath.Join(t.TempDir(), "index.db")
	e, err := Open(bg, Options{IndexPath: dbPath, MaxFileSize: 1800})
	if err != nil {
		t.Fatal(err)
	}
	st := index(t, e, vault, "v")
	if len(st.Skipped) != 2 { // every sample note is under 1800 bytes
		t.Fatalf("skipped %+v; want binary.md and big.md", st.Skipped)
	}
	e.Close()
	staleNow := func(what string, want int) {
		t.Helper()
		other := openEngine(t, dbPath, nil) // the default size limit
		s, err := other.Status(bg)
		if err != nil {
			t.Fatal(err)
		}
		if s.Stale != want {
			t.Errorf("%s: %d stale, want %d", what, s.Stale, want)
		}
	}
	staleNow("just indexed", 0)
	write(t, vault, "new.md", "# New\n\ntext\n")
	staleNow("a new note", 1)
}

// A folder without notes is indexed (it may gain some), with a notice
// saying it holds none.
func TestEmptyVaultNotice(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "readme.txt", "not a note\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	st := index(t, e, dir, "empty")
	if !strings.Contains(st.Notice, "no notes (.md or .markdown files) under ") || !strings.Contains(st.Notice, "`mdsearch drop empty` removes it") ||
		shellWord("x;y $HOME") != `'x;y $HOME'` || shellWord("it's") != `'it'\''s'` {
		t.Errorf("notice %q; want one saying the folder holds no notes", st.Notice)
	}
	write(t, dir, "a.md", "# A\n\ntext\n")
	if st := index(t, e, dir, "empty"); strings.Contains(st.Notice, "no notes") {
		t.Errorf("notice %q once the folder holds a note", st.Notice)
	}
	// Notes that are all skipped are not "no notes".
	small, err := Open(bg, Options{IndexPath: filepath.Join(t.TempDir(), "small.db"), MaxFileSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	if st := index(t, small, dir, "small"); !strings.Contains(st.Notice, "every note under "+dir+" was skipped (1)") {
		t.Errorf("notice %q when the size limit skips every note", st.Notice)
	}
}

// A folder indexed under a name of its own is brought up to date when it
// is indexed again without one, not made a second collection; a name
// given makes one.
func TestFolderNamedBefore(t *testing.T) {
	vault := copyDir(t, sampleVault)
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "notes")
	st := index(t, e, vault, "")
	if st.Collection != "notes" || !strings.Contains(st.Notice, "this folder is collection notes, indexed again as it") {
		t.Errorf("index again without a name: collection %q, notice %q", st.Collection, st.Notice)
	}
	if colls, _ := e.Collections(bg); len(colls) != 1 {
		t.Errorf("%d collections, want 1", len(colls))
	}
	// One of the folder's own name is the folder's, as before.
	index(t, e, vault, filepath.Base(vault))
	if st := index(t, e, vault, ""); st.Collection != filepath.Base(vault) || strings.Contains(st.Notice, "indexed again as it") {
		t.Errorf("with a collection of the folder's name: collection %q, notice %q", st.Collection, st.Notice)
	}
}

// A second collection of the same folder is indexed, with a notice.
func TestSameFolderTwiceNotice(t *testing.T) {
	vault := copyDir(t, sampleVault)
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	if st := index(t, e, vault, "a"); strings.Contains(st.Notice, "also collection") {
		t.Errorf("first collection: notice %q", st.Notice)
	}
	st := index(t, e, vault, "b")
	if !strings.Contains(st.Notice, "this folder is also collection a") {
		t.Errorf("second collection of one folder: notice %q", st.Notice)
	}
	if st := index(t, e, vault, "b"); strings.Contains(st.Notice, "also collection") {
		t.Errorf("re-index of b: notice %q; the warning is for the new collection only", st.Notice)
	}
	// The answer says how many collections it searched, for COLLECTION:PATH.
	if n := search(t, e, mdsearch.SearchRequest{Query: "sourdough", Mode: mdsearch.ModeKeyword}).CollectionCount; n != 2 {
		t.Errorf("search of both: %d collections, want 2", n)
	}
	if n := search(t, e, mdsearch.SearchRequest{Query: "sourdough", Mode: mdsearch.ModeKeyword, Collection: "a"}).CollectionCount; n != 2 {
		t.Errorf("search of a: %d collections, want 2 (b holds its paths too)", n)
	}
	// Copies left out are made up from further down: n distinct results.
	resp := search(t, e, mdsearch.SearchRequest{Query: "the and of", Mode: mdsearch.ModeKeyword, N: 5})
	texts := map[string]bool{}
	for _, r := range resp.Results {
		texts[r.Text] = true
	}
	if len(resp.Results) != 5 || len(texts) != 5 || !strings.Contains(resp.Notice, "found in another collection too") {
		t.Errorf("n 5 over a folder indexed twice: %d results, %d distinct, notice %q", len(resp.Results), len(texts), resp.Notice)
	}
	// Folders inside one another overlap too.
	if st := index(t, e, filepath.Join(vault, "kitchen"), "k"); !strings.Contains(st.Notice, "this folder is inside collection a's") {
		t.Errorf("a folder inside a collection's: notice %q", st.Notice)
	}
	outer := filepath.Dir(vault)
	write(t, outer, "top.md", "# Top\n")
	if st := index(t, e, outer, "outer"); !strings.Contains(st.Notice, "this folder holds collection a's") {
		t.Errorf("a folder holding a collection's: notice %q", st.Notice)
	}
	if !within("/a/b", "/a") || within("/a", "/a") || within("/ab", "/a") || within("/a", "/a/b") {
		t.Error("within")
	}
}

// A run without a size limit of its own keeps the collection's: a note
// the collection's limit left out is not added, and one it let in is not
// dropped; an explicit limit changes it.
func TestCollectionKeepsItsSizeLimit(t *testing.T) {
	vault := copyDir(t, sampleVault)
	write(t, vault, "big.md", "# Big\n\n"+strings.Repeat("word ", 400)+"\n") // 2 KB
	dbPath := filepath.Join(t.TempDir(), "index.db")
	withLimit := func(limit int64) *Engine {
		e, err := Open(bg, Options{IndexPath: dbPath, MaxFileSize: limit})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		return e
	}
	has := func(e *Engine, what string, want bool) {
		t.Helper()
		s, err := e.Status(bg)
		if err != nil {
			t.Fatal(err)
		}
		_, rerr := e.Read(bg, mdsearch.ReadRequest{Path: "big.md"})
		if got := s.Files == 7; got != want || (rerr == nil) != want || s.Stale != 0 {
			t.Errorf("%s: %d files, %d stale, read big.md: %v; want big.md indexed %v", what, s.Files, s.Stale, rerr, want)
		}
	}
	small := withLimit(1800)
	index(t, small, vault, "v")
	has(small, "indexed under 1800 bytes", false)
	own := withLimit(0)
	index(t, own, vault, "v")
	has(own, "re-indexed without a limit", false)
	index(t, withLimit(4000), vault, "v")
	has(own, "re-indexed under 4000 bytes", true)
	index(t, own, vault, "v")
	has(own, "re-indexed without a limit again", true)
}

// TestAliasesSearchable: a note's frontmatter aliases are other names of
// it, found by keyword search as its title is.
func TestAliasesSearchable(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "Alpha Plan.md", "---\naliases: [Zephyr Initiative, ZI-9]\n---\n# Alpha Plan\n\nThe roadmap for next year.\n")
	write(t, vault, "One.md", "---\nalias: Quokka\n---\n# One\n\nAnother note.\n")
	write(t, vault, "Other.md", "# Other\n\nNothing to see.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for q, want := range map[string]string{"zephyr initiative": "Alpha Plan.md", "ZI-9": "Alpha Plan.md", "quokka": "One.md"} {
		resp := search(t, e, mdsearch.SearchRequest{Query: q, Mode: mdsearch.ModeKeyword})
		if len(resp.Results) == 0 || resp.Results[0].Path != want {
			t.Errorf("%q: %+v, want %s first", q, resp.Results, want)
		}
	}
}

// A collection whose folder is gone is flagged, not only counted stale:
// a plain index run cannot catch it up.
func TestStatusRootMissing(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "personal/a.md", "# A\n\ntext\n")
	write(t, dir, "work/b.md", "# B\n\ntext\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, filepath.Join(dir, "personal"), "personal")
	index(t, e, filepath.Join(dir, "work"), "work")
	if err := os.Rename(filepath.Join(dir, "personal"), filepath.Join(dir, "personal2")); err != nil {
		t.Fatal(err)
	}
	s, err := e.Status(bg)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range s.Collections {
		if want := c.Name == "personal"; c.RootMissing != want {
			t.Errorf("%s: root_missing %v, want %v", c.Name, c.RootMissing, want)
		}
	}
	// A file where the folder was is a folder gone too, with its fixes,
	// not "not a folder: pass a folder of notes".
	if err := os.RemoveAll(filepath.Join(dir, "work")); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "work", "a file now")
	if s, err = e.Status(bg); err != nil {
		t.Fatal(err)
	}
	if c := s.Collections[len(s.Collections)-1]; c.Name != "work" || !c.RootMissing || c.Unreadable != "" {
		t.Errorf("work: %+v", c)
	}
	_, err = e.Index(bg, mdsearch.IndexRequest{Name: "work"}, nil)
	if err == nil || !strings.Contains(err.Error(), "a file stands where it was") || !strings.Contains(err.Error(), "mdsearch drop work") {
		t.Errorf("index of a collection whose folder is a file: %v", err)
	}
}

// A collection whose ignore file cannot be read is not stale in every
// note (an index run stops on it and changes nothing): status says why,
// as the run would, and counts nothing.
func TestStatusUnreadable(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.md", "# A\n\ntext\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, dir, "v")
	if err := os.Mkdir(filepath.Join(dir, ".mdsearchignore"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := e.Status(bg)
	if err != nil {
		t.Fatal(err)
	}
	c := s.Collections[0]
	if c.RootMissing || c.Stale != 0 || !strings.Contains(c.Unreadable, ".mdsearchignore") {
		t.Errorf("stale %d, root_missing %v, unreadable %q", c.Stale, c.RootMissing, c.Unreadable)
	}
}

// A note over the size limit is named alike however it is met, by a whole
// run's walk or one file's refresh (a watch's): sizes rounded, as index
// prints them ("file is 2.0 KB, over the 1.8 KB size limit"), with the
// file's size in bytes, which the limit that indexes it must reach.
func TestOverLimitWords(t *testing.T) {
	vault := copyDir(t, sampleVault)
	e, err := Open(bg, Options{IndexPath: filepath.Join(t.TempDir(), "index.db"), MaxFileSize: 1800})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	index(t, e, vault, "v")
	write(t, vault, "big.md", "# Big\n\n"+strings.Repeat("word ", 400)+"\n")
	st, err := e.Refresh(bg, "v", []string{"big.md"})
	if err != nil || len(st.Skipped) != 1 {
		t.Fatalf("refresh: %+v, %v", st, err)
	}
	want := mdsearch.FileIssue{Path: "big.md", Reason: "file is 2.0 KB, over the 1.8 KB size limit", Size: 2008}
	if st.Skipped[0] != want {
		t.Errorf("refresh skipped it as %+v, want %+v", st.Skipped[0], want)
	}
	all, err := e.Index(bg, mdsearch.IndexRequest{Dir: vault, Name: "v"}, nil)
	if err != nil || len(all.Skipped) != 1 || all.Skipped[0] != want {
		t.Errorf("a whole run skipped %+v (%v), want %+v", all.Skipped, err, want)
	}
}
