package engine

import (
	"cmp"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/internal/testenv"
)

// TestResultsReadBack: on real docs, the section each result names (its
// "#id" where its path names another, "/" before the first heading) reads
// the section the passage starts in, every time: what an agent copies from
// a footer to read on must not land elsewhere. vue-docs repeats headings
// under other parents, and two Rust RFCs repeat a path ("Example" twice
// under one parent), as real docs now and then do.
func TestResultsReadBack(t *testing.T) {
	dir := testenv.Corpora("vue-docs", "vault")
	if _, err := os.Stat(dir); err != nil {
		testenv.Absent(t, "corpus missing: %v", err)
	}
	vault := copyDir(t, dir)
	for _, rfc := range []string{"1574-more-api-documentation-conventions.md", "3519-arbitrary-self-types-v2.md"} {
		src, err := os.ReadFile(testenv.Corpora("rust-rfcs", "text", rfc))
		if err != nil {
			testenv.Absent(t, "corpus missing: %v", err)
		}
		write(t, vault, "rfcs/"+rfc, string(src))
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "docs")
	checked, byID := 0, 0
	for _, q := range []string{"options api", "composition api", "example", "usage", "props", "typing", "events",
		"slots", "details", "basic usage", "caveats", "reactivity", "component", "template", "lifecycle",
		"documentation conventions example", "arbitrary self types summary"} {
		resp := search(t, e, mdsearch.SearchRequest{Query: q, Mode: mdsearch.ModeKeyword, N: 20, MaxPerPage: 5})
		for _, r := range resp.Results {
			name := cmp.Or(r.ReadSection, strings.Join(r.SectionPath, "/"))
			if name == "" {
				name = "/"
			}
			if r.ReadSection != "" {
				byID++
			}
			got, err := e.Read(bg, mdsearch.ReadRequest{Path: cmp.Or(r.ReadPath, r.Path), Section: name, Full: true})
			if err != nil {
				t.Errorf("%q: %s lines %d-%d names section %q: %v", q, r.Path, r.StartLine, r.EndLine, name, err)
				continue
			}
			if got.StartLine > r.StartLine || r.StartLine > got.EndLine {
				t.Errorf("%q: %s lines %d-%d names section %q, which reads lines %d-%d", q, r.Path, r.StartLine, r.EndLine, name, got.StartLine, got.EndLine)
			}
			checked++
		}
	}
	t.Logf("%d results read back, %d of them by #id", checked, byID)
	if checked < 100 || byID == 0 {
		t.Errorf("%d results, %d by #id: the queries no longer test what they should", checked, byID)
	}
}
