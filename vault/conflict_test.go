package vault

import "testing"

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
