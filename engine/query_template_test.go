package engine

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A query that is a heading many notes share is told that its results
// are some of many; one that names more than the heading, or a heading
// few notes have, is not.
func TestTemplateNotice(t *testing.T) {
	vault := t.TempDir()
	for i := range templateNotes + 2 {
		long := strings.Repeat(fmt.Sprintf("Proposal %d adds widget number %d to the toolbox. ", i, i), 8) // no stub: not merged
		rare := ""
		if i == 0 {
			rare = "## Rare part\n\n" + long + "\n"
		}
		write(t, vault, fmt.Sprintf("rfc-%02d.md", i), fmt.Sprintf("# RFC %d\n\n%s\n\n## Summary\n\n%s\n\n%s", i, long, long, rare))
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, tt := range []struct {
		query string
		says  bool
	}{{"summary", true}, {"Summary?", true}, {"summary of widget 3", false}, {"rare part", false}} {
		n := search(t, e, mdsearch.SearchRequest{Query: tt.query, Mode: mdsearch.ModeKeyword}).Notice
		if says := strings.Contains(n, fmt.Sprintf(`"Summary" is a heading of %d notes`, templateNotes+2)); says != tt.says {
			t.Errorf("%q: notice %q, want it said: %v", tt.query, n, tt.says)
		}
	}
}
