package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
)

// TestHostileVault indexes a vault of broken and oversized files: every
// bad file is skipped with its reason, everything else is searchable.
func TestHostileVault(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "normal.md", "# Normal\n\nA perfectly ordinary note about lighthouses.\n")
	write(t, dir, "binary.md", "# Binary\n\x00\x01\x02 lighthouse")
	write(t, dir, "latin1.md", "# Caf\xe9\n\nInvalid UTF-8 \xff\xfe but a lighthouse keeper lives here.\n")
	write(t, dir, "badyaml.md", "---\ntitle: [unclosed\ntags: {{{\n---\n# Bad YAML\n\nThe lighthouse still counts.\n")
	var keys strings.Builder // yaml.v3 compares each two keys: 20,000 took 1.2 s
	for i := range 20000 {
		fmt.Fprintf(&keys, "k%d: v\n", i)
	}
	write(t, dir, "manykeys.md", "---\n"+keys.String()+"---\n# Many keys\n\nThe lighthouse still counts.\n")
	var b strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&b, "%s Heading %d\n\nlighthouse line %d\n\n", strings.Repeat("#", 1+i%6), i, i)
	}
	write(t, dir, "headings.md", b.String())
	huge, err := os.Create(filepath.Join(dir, "huge.md"))
	if err != nil {
		t.Fatal(err)
	}
	huge.Truncate(50 << 20)
	huge.Close()
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.Symlink("..", filepath.Join(dir, "sub", "loop"))
	os.Symlink("self.md", filepath.Join(dir, "self.md"))
	outside := t.TempDir()
	write(t, outside, "secret.md", "# Secret lighthouse\n")
	os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(dir, "escape.md"))
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	wantSkips := map[string]string{
		"binary.md":   "binary file",
		"huge.md":     "50.0 MB, over the 10.0 MB size limit",
		"sub/loop":    "a loop",
		"self.md":     "symlink loop",
		"escape.md":   "outside the vault",
		"fifo.md":     "named pipe",
		"unreadable/": "",
	}
	// Root reads anything, so a permission-denied file only tests something
	// for other users; a FIFO above covers the unreadable case for root.
	if os.Geteuid() != 0 {
		write(t, dir, "secret.md", "# no access")
		os.Chmod(filepath.Join(dir, "secret.md"), 0)
		wantSkips["secret.md"] = "permission denied"
		os.Mkdir(filepath.Join(dir, "unreadable"), 0)
		wantSkips["unreadable/"] = "cannot read folder"
		t.Cleanup(func() { os.Chmod(filepath.Join(dir, "unreadable"), 0o755) })
	} else {
		t.Log("running as root: permission-denied files are not unreadable to root; covered by the FIFO instead")
		delete(wantSkips, "unreadable/")
	}

	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	start := time.Now()
	st := index(t, e, dir, "hostile")
	t.Logf("indexed in %v: %d files, %d chunks", time.Since(start), st.Files, st.Chunks)
	if s, err := e.Status(bg); err != nil || s.Files != st.Files {
		t.Errorf("the run counted %d files, the status %d (%v): skipped files are in neither", st.Files, s.Files, err)
	}
	got := map[string]string{}
	for _, s := range st.Skipped {
		got[s.Path] = s.Reason
	}
	for p, frag := range wantSkips {
		if !strings.Contains(got[p], frag) {
			t.Errorf("skip %s: got %q, want it to mention %q", p, got[p], frag)
		}
		delete(got, p)
	}
	for p, r := range got {
		t.Errorf("unexpected skip %s: %s", p, r)
	}
	// A watcher names the same files, and gets the same words.
	rst, err := e.Refresh(bg, "hostile", []string{"self.md", "escape.md", "fifo.md", "binary.md"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rst.Skipped {
		if frag := wantSkips[s.Path]; frag == "" || !strings.Contains(s.Reason, frag) || strings.Contains(s.Reason, "resolve") {
			t.Errorf("refresh skip %s: got %q, want it to mention %q as the walk does", s.Path, s.Reason, frag)
		}
	}
	if len(rst.Skipped) != 4 {
		t.Errorf("refresh skipped %v, want 4", rst.Skipped)
	}
	var warned []string
	for _, w := range st.Warnings {
		warned = append(warned, w.Path)
		if w.Path == "manykeys.md" && !strings.Contains(w.Reason, "frontmatter has 20000 keys, more than") {
			t.Errorf("manykeys.md warned %q, want the keys counted", w.Reason)
		}
	}
	t.Logf("warnings for %v", warned)
	if !slices.Contains(warned, "manykeys.md") {
		t.Error("manykeys.md not warned of")
	}

	resp := search(t, e, mdsearch.SearchRequest{Query: "lighthouse", N: 50, MaxPerPage: 1, Mode: mdsearch.ModeKeyword})
	found := map[string]bool{}
	for _, r := range resp.Results {
		found[r.Path] = true
	}
	for _, p := range []string{"normal.md", "latin1.md", "badyaml.md", "manykeys.md", "headings.md"} {
		if !found[p] {
			t.Errorf("%s not searchable; found %v", p, found)
		}
	}
	if found["escape.md"] || found["binary.md"] {
		t.Errorf("skipped file found: %v", found)
	}
	// A note over the size limit says how to index it.
	if _, err := e.Read(bg, mdsearch.ReadRequest{Path: "huge.md"}); err == nil || !strings.Contains(err.Error(), "--max-file-size 51MB") {
		t.Errorf("read of a note over the size limit: %v, want a hint with --max-file-size 51MB", err)
	}
	r, err := e.Read(bg, mdsearch.ReadRequest{Path: "headings.md", Section: "Heading 9999"})
	if err != nil || !strings.Contains(r.Content, "lighthouse line 9999") {
		t.Errorf("read in a 10,000-heading note: %v", err)
	}
}
