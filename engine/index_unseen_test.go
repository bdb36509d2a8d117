package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/fsfault"
)

// deny makes the walk meet the vault-relative paths of dir ("." the vault
// itself) as a user without permission does, even when the test runs as
// root; the returned func lifts it.
func deny(t *testing.T, dir string, rels ...string) (undo func()) {
	t.Helper()
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	var abs []string
	for _, rel := range rels {
		abs = append(abs, filepath.Join(real, filepath.FromSlash(rel)))
	}
	undo = fsfault.Deny(abs...)
	t.Cleanup(undo)
	return undo
}

// TestIndexKeepsUnseen: the notes of a folder the walk cannot list, or a
// note it cannot stat, are not deleted: they are kept as indexed, counted
// unchanged, and the skip says so. Once readable again, the next run
// catches up with what changed meanwhile.
func TestIndexKeepsUnseen(t *testing.T) {
	notes := map[string]string{"a.md": "# A\n\nalpha\n", "x.md": "# X\n\nxenon\n", "sub/s.md": "# S\n\nbeacon\n",
		"sub/deep/d.md": "# D\n\ndelta\n", "other/o.md": "# O\n\nomega\n"}
	cases := []struct {
		name             string
		deny             string
		skip             string // the skip that names it
		reason           string
		meantime         func(dir string) // changes made while it is unreadable
		changed, deleted int              // what the run after catches up with
		word             string           // a word of a kept note, still found
	}{
		{name: "folder", deny: "sub", skip: "sub/",
			reason: "cannot read folder: permission denied; the 2 notes indexed under it are kept as they were until it can be read",
			meantime: func(dir string) {
				write(t, dir, "sub/s.md", "# S\n\nedited\n")
				os.Remove(filepath.Join(dir, "sub/deep/d.md"))
			}, changed: 1, deleted: 1, word: "beacon"},
		{name: "nested folder", deny: "sub/deep", skip: "sub/deep/",
			reason:   "cannot read folder: permission denied; the note indexed under it is kept as it was until it can be read",
			meantime: func(dir string) { os.Remove(filepath.Join(dir, "sub/deep/d.md")) }, deleted: 1, word: "delta"},
		{name: "note", deny: "x.md", skip: "x.md",
			reason:   "cannot stat: permission denied; the note is kept as it was indexed until it can be read",
			meantime: func(dir string) { write(t, dir, "x.md", "# X\n\nedited\n") }, changed: 1, word: "xenon"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for p, text := range notes {
				write(t, dir, p, text)
			}
			e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
			index(t, e, dir, "v")
			undo := deny(t, dir, c.deny)
			c.meantime(dir)
			st := index(t, e, dir, "v")
			if st.Deleted != 0 || st.Files != len(notes) || st.Unchanged != len(notes) || st.Changed+st.Added != 0 {
				t.Errorf("run with %s unreadable: %+v; want all %d notes unchanged, none deleted", c.deny, st, len(notes))
			}
			if len(st.Skipped) != 1 || st.Skipped[0].Path != c.skip || st.Skipped[0].Reason != c.reason {
				t.Errorf("skipped %+v; want %s: %s", st.Skipped, c.skip, c.reason)
			}
			if s, err := e.Status(bg); err != nil || s.Files != len(notes) || s.Collections[0].Stale != 0 {
				t.Errorf("status %+v, %v: want %d notes, none stale (what changed cannot be seen)", s, err, len(notes))
			}
			resp := search(t, e, mdsearch.SearchRequest{Query: c.word, Mode: mdsearch.ModeKeyword})
			if len(resp.Results) == 0 {
				t.Errorf("%q not found: the kept note is not searchable", c.word)
			}
			// Read, it is refused for the folder, not for an ignore file
			// the folder may not even hold.
			if c.deny != "x.md" {
				_, err := e.Read(bg, mdsearch.ReadRequest{Path: resp.Results[0].Path})
				if err == nil || !strings.Contains(err.Error(), "cannot read folder: permission denied") || strings.Contains(err.Error(), ".mdsearchignore") {
					t.Errorf("read %s: %v", resp.Results[0].Path, err)
				}
			}
			undo()
			st = index(t, e, dir, "v")
			if st.Changed != c.changed || st.Deleted != c.deleted || len(st.Skipped) != 0 {
				t.Errorf("run once readable: %+v; want %d changed, %d deleted", st, c.changed, c.deleted)
			}
		})
	}
}

// TestIndexKeepsUnseenOnly: a vault whose every note is in a folder the
// walk cannot list is not said to have nothing searchable.
func TestIndexKeepsUnseenOnly(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "sub/s.md", "# S\n\nbeacon\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, dir, "v")
	deny(t, dir, "sub")
	st := index(t, e, dir, "v")
	if st.Deleted != 0 || st.Files != 1 || strings.Contains(st.Notice, "nothing is searchable") {
		t.Errorf("run: %+v; want the note kept, and no notice that nothing is searchable", st)
	}
}

// TestIndexUnreadableVault: a vault whose own folder cannot be listed is
// an error naming it, before anything is written: nothing indexed from it
// is deleted, and a new one makes no collection.
func TestIndexUnreadableVault(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.md", "# A\n\nalpha\n")
	write(t, dir, "sub/s.md", "# S\n\nbeacon\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, dir, "v")
	deny(t, dir, ".")
	for _, name := range []string{"by folder", "by name"} {
		req := mdsearch.IndexRequest{Dir: dir, Name: "v"}
		if name == "by name" {
			req = mdsearch.IndexRequest{Name: "v"}
		}
		st, err := e.Index(bg, req, nil)
		if err == nil || !strings.Contains(err.Error(), "cannot read folder: permission denied") || !strings.Contains(err.Error(), dir) {
			t.Errorf("%s: %+v, %v; want an error naming the folder and the problem", name, st, err)
		}
		if st != nil {
			t.Errorf("%s: stats %+v; want none, as no run began", name, st)
		}
	}
	if s, err := e.Status(bg); err != nil || s.Files != 2 {
		t.Errorf("status %+v, %v: want both notes still indexed", s, err)
	}
	other := t.TempDir()
	write(t, other, "n.md", "# N\n")
	deny(t, other, ".")
	if _, err := e.Index(bg, mdsearch.IndexRequest{Dir: other, Name: "new"}, nil); err == nil || e.HasCollection(bg, "new") {
		t.Errorf("a new vault that cannot be listed: %v; want an error, and no collection made", err)
	}
}

// TestRefreshKeepsUnseen: a note named to Refresh (as a watcher names a
// saved note) behind a folder that cannot be searched is kept as indexed,
// not deleted. Root searches any folder, so only other users test it.
func TestRefreshKeepsUnseen(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: a folder's mode does not stop root; the walk's case is TestIndexKeepsUnseen")
	}
	dir := t.TempDir()
	write(t, dir, "sub/s.md", "# S\n\nbeacon\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, dir, "v")
	sub := filepath.Join(dir, "sub")
	if err := os.Chmod(sub, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(sub, 0o755) })
	st, err := e.Refresh(bg, "v", []string{"sub/s.md"})
	want := "cannot read a folder on its way: permission denied; the note is kept as it was indexed until it can be read"
	if err != nil || st.Deleted != 0 || st.Unchanged != 1 || len(st.Skipped) != 1 || st.Skipped[0].Reason != want {
		t.Errorf("refresh: %+v, %v; want the note kept, skipped with %q", st, err, want)
	}
	if resp := search(t, e, mdsearch.SearchRequest{Query: "beacon", Mode: mdsearch.ModeKeyword}); len(resp.Results) != 1 {
		t.Errorf("the kept note is not found: %v", paths(resp))
	}
}

// TestIndexKeepsUnreadableNote: a note edited since it was indexed that
// cannot be read now (no permission) is kept as it was indexed, not
// deleted: the skip says so, its old text is still found, shown stale,
// and once it can be read the next run takes its edit. A new note that
// cannot be read is skipped, as there is nothing to keep.
func TestIndexKeepsUnreadableNote(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.md", "# A\n\nalpha\n")
	write(t, dir, "x.md", "# X\n\nxenon\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, dir, "v")
	write(t, dir, "x.md", "# X\n\nedited\n")
	write(t, dir, "new.md", "# New\n\nnovel\n")
	real := mustEval(t, dir)
	undo := fsfault.DenyRead(filepath.Join(real, "x.md"), filepath.Join(real, "new.md"))
	t.Cleanup(undo)
	want := map[string]string{"x.md": "cannot read: permission denied; the note is kept as it was indexed until it can be read",
		"new.md": "cannot read: permission denied"}
	for _, how := range []string{"index", "refresh"} {
		var st *mdsearch.IndexStats
		if how == "index" {
			st = index(t, e, dir, "v")
		} else {
			var err error
			if st, err = e.Refresh(bg, "v", []string{"x.md", "new.md"}); err != nil {
				t.Fatal(err)
			}
		}
		if st.Deleted != 0 || st.Changed != 0 || st.Unchanged != st.Files || len(st.Skipped) != 2 {
			t.Errorf("%s: %+v; want x.md kept unchanged, new.md skipped, none deleted", how, st)
		}
		for _, s := range st.Skipped {
			if want[s.Path] != s.Reason {
				t.Errorf("%s: skipped %s: %q; want %q", how, s.Path, s.Reason, want[s.Path])
			}
		}
		resp := search(t, e, mdsearch.SearchRequest{Query: "xenon", Mode: mdsearch.ModeKeyword})
		if len(resp.Results) != 1 || !resp.Results[0].Stale {
			t.Errorf("%s: xenon found in %s; want x.md's kept text, shown stale", how, paths(resp))
		}
	}
	undo()
	if st := index(t, e, dir, "v"); st.Changed != 1 || st.Added != 1 || len(st.Skipped) != 0 {
		t.Errorf("run once readable: %+v; want x.md changed, new.md added", st)
	}
}

// TestUnreadableFolderNotStale: a note in a folder that cannot be entered
// now (no permission) is not marked changed or deleted in results: nothing
// tells that it was; status names the folder.
func TestUnreadableFolderNotStale(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "sub/s.md", "# S\n\nbeacon light\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	deny(t, vault, "sub")
	resp := search(t, e, mdsearch.SearchRequest{Query: "beacon", Mode: mdsearch.ModeKeyword})
	if len(resp.Results) == 0 || resp.Results[0].Stale {
		t.Errorf("results %+v", resp.Results)
	}
}
