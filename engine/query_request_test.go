package engine

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

func TestRequestFrame(t *testing.T) {
	for _, tc := range []struct{ query, frame, rest string }{
		{"list notes about backups", "list notes about", "backups"},
		{"find my notes on the NAS", "find my notes on", "the NAS"},
		{"Show me everything about sourdough", "Show me everything about", "sourdough"},
		{"which pages mention hooch", "which pages mention", "hooch"},
		{"what notes talk about restore drills", "what notes talk about", "restore drills"},
		{"search for all notes related to tax", "search for all notes related to", "tax"},
		{"notes about backups", "notes about", "backups"},
		{"show me the backup schedule", "show me", "the backup schedule"},
		{"please list all pages regarding VPN", "please list all pages regarding", "VPN"},
		// Words of the query, not a frame.
		{"list comprehension", "", "list comprehension"},
		{"find command in linux", "", "find command in linux"},
		{"which notes", "", "which notes"},
		{"list notes about", "", "list notes about"}, // nothing after it
		{"release notes for 2.0", "", "release notes for 2.0"},
		{"files with spaces", "", "files with spaces"},
		{"find files on linux", "", "find files on linux"},
		{"list of files on the server", "", "list of files on the server"},
		{"search for documents about tax", "", "search for documents about tax"},
		{"what is a note about", "", "what is a note about"},
	} {
		frame, rest := requestFrame(tc.query)
		if frame != tc.frame || rest != tc.rest {
			t.Errorf("%q: frame %q, rest %q; want %q and %q", tc.query, frame, rest, tc.frame, tc.rest)
		}
	}
}

// A query framed as a request for notes scores as its words alone, and
// says what it searched for, in every mode.
func TestRequestFrameSearched(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "backups.md", "# Backups\n\nThe NAS copies every share to the cloud each night; a restore drill runs monthly.\n")
	write(t, vault, "garden.md", "# Garden\n\nTomatoes want sun, water and a stake.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeHybrid, mdsearch.ModeSemantic} {
		plain := search(t, e, mdsearch.SearchRequest{Query: "backups", Mode: mode})
		framed := search(t, e, mdsearch.SearchRequest{Query: "list notes about backups", Mode: mode})
		if len(plain.Results) == 0 || len(framed.Results) == 0 || framed.Results[0].Path != plain.Results[0].Path || framed.Results[0].Score != plain.Results[0].Score {
			t.Fatalf("%s: framed %+v, plain %+v", mode, framed.Results, plain.Results)
		}
		// Misspelled, its respelling's results shown, the frame is still named.
		typo := search(t, e, mdsearch.SearchRequest{Query: "list notes about backupps", Mode: mode})
		if !typo.Respelled || typo.Suggestion != "backups" || !strings.Contains(typo.Notice, `"list notes about" was read as asking for notes`) {
			t.Errorf("%s: misspelled: respelled %v, suggestion %q, notice %q", mode, typo.Respelled, typo.Suggestion, typo.Notice)
		}
		if !strings.Contains(framed.Notice, `"list notes about" was read as asking for notes`) || framed.Query != "backups" { // the words searched for, as with operators
			t.Errorf("%s: notice %q, query searched %q", mode, framed.Notice, framed.Query)
		}
	}
}
