package vault

import (
	"path"
	"testing"
)

func TestConflictOriginal(t *testing.T) {
	for _, tc := range []struct {
		path, want string
	}{
		{"note.sync-conflict-20240102-150405-ABCDEF1.md", "note.md"},
		{"a/b/My Note.sync-conflict-20240102-150405-7ZQ2K4P.md", "a/b/My Note.md"},
		{"v1.2 plan.sync-conflict-20240102-150405-ABCDEF1.markdown", "v1.2 plan.markdown"},
		{"note (conflicted copy 2024-01-02).md", "note.md"},
		{"log/note (Ann's conflicted copy 2024-01-02).md", "log/note.md"},
		{"note (conflicted copy 2024-01-02 153012).md", "note.md"},
		{"note.sync-conflict-20240102-150405.md", "note.md"},             // before device IDs
		{"note.sync-conflict-20240102-150405-.md", "note.md"},            // an empty device ID
		{"note.sync-conflict-20240102-150405-ABCDEF1 (1).md", "note.md"}, // a copy of the copy
		{"note (Ann's MacBook Pro (2) conflicted copy 2024-01-02).md", "note.md"},
		{"note (Conflicted Copy 2024-01-02).md", "note.md"},
		{"note (conflicted copy 2024-01-02) (1).md", "note.md"},
		{"note_conflict-20240102-153012.md", "note.md"},
		{"note_conflict.md", ""},
		{"note (1).md", ""},                                   // a copy, not a conflict
		{"note.sync-conflict.md", ""},                         // no date and device
		{"sync-conflict-20240102-150405-ABCDEF1.md", ""},      // no original name
		{".sync-conflict-20240102-150405-ABCDEF1.md", ""},     // nor here
		{"notes on (conflicted copy) semantics/x.md", ""},     // a folder's name
		{"note.sync-conflict-20240102-150405-abcdef1.md", ""}, // device IDs are upper case
		{"note (conflicted copy 2024-01-02)", ""},             // no extension
		{"plain.md", ""},
	} {
		got, ok := ConflictOriginal(tc.path)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("ConflictOriginal(%q) = %q, %v; want %q", tc.path, got, ok, tc.want)
		}
	}
}

// FuzzConflictOriginal: a conflict copy's original is a shorter name in
// the same folder, with the same extension.
func FuzzConflictOriginal(f *testing.F) {
	for _, p := range []string{"a/note.sync-conflict-20240102-150405-ABCDEF1.md", "n (x (2) conflicted copy y).md", "n_conflict-20240102-150405.md", "x.md"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		o, ok := ConflictOriginal(p)
		if !ok {
			return
		}
		dir, name := path.Split(p)
		odir, oname := path.Split(o)
		if odir != dir || len(oname) >= len(name) || oname == "" || path.Ext(oname) != path.Ext(name) {
			t.Fatalf("ConflictOriginal(%q) = %q", p, o)
		}
	})
}
