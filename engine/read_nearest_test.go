package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// TestReadNearestSection: a section the note lacks is an error that names
// the nearest headings first, as a mistyped path gets "did you mean".
func TestReadNearestSection(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "api.md", "# Reactivity API: Core\n\n## ref()\n\nA ref.\n\n## watchEffect()\n\nRuns.\n\n"+
		"## watchPostEffect()\n\nAfter.\n\n## watch()\n\nWatches.\n\n## Prop Validation\n\nChecks.\n\n"+
		"## Validating References with Lifetimes\n\nBorrows.\n\n### In Struct Definitions\n\nHeld.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	for _, tt := range []struct{ section, want, not string }{
		{"Watch Effect", `did you mean "watchEffect()"?`, ""},
		{"Prop Validatoin", `did you mean "Prop Validation"?`, ""},
		{"Lifecycle hooks", "sections: ", "did you mean"}, // nothing near
		// Nothing spelled near, but the words of a heading path.
		{"Lifetimes in structs", `did you mean "In Struct Definitions"?`, ""},
	} {
		_, err := e.Read(context.Background(), mdsearch.ReadRequest{Path: "api.md", Section: tt.section})
		if mdsearch.KindOf(err) != mdsearch.KindNotFound || !strings.Contains(err.Error(), tt.want) ||
			tt.not != "" && strings.Contains(err.Error(), tt.not) {
			t.Errorf("section %q: %v; want it to hold %q", tt.section, err, tt.want)
		}
	}
	// A section no heading could be is refused, not quoted back.
	_, err := e.Read(context.Background(), mdsearch.ReadRequest{Path: "api.md", Section: strings.Repeat("x", 300<<10)})
	if mdsearch.KindOf(err) != mdsearch.KindInvalid || len(err.Error()) > 200 || !strings.Contains(err.Error(), "section is 307200 bytes") {
		t.Errorf("a 300 KB section: %.300v", err)
	}
}

// TestReadSectionInPart: a section read by words inside its heading (a
// link to a heading since renamed) says which section it is; one read by
// its heading says nothing.
func TestReadSectionInPart(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "n.md", "# Top\n\nx\n\n## Release notes\n\nbody\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for section, want := range map[string]string{
		"notes":         `no heading is "notes": this is "Top > Release notes", the one heading that holds it`,
		"Release notes": "",
		"#notes":        `no heading is "notes": this is "Top > Release notes", the one heading that holds it`, // a link's fragment
	} {
		resp, err := e.Read(context.Background(), mdsearch.ReadRequest{Path: "n.md", Section: section})
		if err != nil || resp.Notice != want || !strings.Contains(resp.Content, "body") {
			t.Errorf("section %q: notice %q, %v; want %q", section, resp.Notice, err, want)
		}
	}
}
