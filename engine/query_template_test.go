package engine

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A query that is a heading many notes share is told that its results
// are some of many, the notes counted whether the heading's section
// stands alone or is a stub merged into the next; one that names more
// than the heading, a heading few notes have, or a search narrowed to
// few notes is not.
func TestTemplateNotice(t *testing.T) {
	vault := t.TempDir()
	const notes = templateNotes + 2
	for i := range notes {
		long := strings.Repeat(fmt.Sprintf("Proposal %d adds widget number %d to the toolbox. ", i, i), 8) // no stub: not merged
		summary := long
		if i%2 == 1 {
			summary = "Short." // a stub, merged into the section after it
		}
		rare := ""
		if i == 0 {
			rare = "## Rare part\n\n" + long + "\n"
		}
		write(t, vault, fmt.Sprintf("rfc-%02d.md", i), fmt.Sprintf("# RFC %d\n\n%s\n\n## Summary\n\n%s\n\n## Design\n\n%s\n\n%s", i, long, summary, long, rare))
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, tt := range []struct {
		req  mdsearch.SearchRequest
		want string // the notice's count, or "" for none
	}{
		{mdsearch.SearchRequest{Query: "summary"}, fmt.Sprint(notes)},
		{mdsearch.SearchRequest{Query: "Summary?"}, fmt.Sprint(notes)},
		{mdsearch.SearchRequest{Query: "## Summary:"}, fmt.Sprint(notes)},
		{mdsearch.SearchRequest{Query: `"summary"`}, fmt.Sprint(notes)},
		{mdsearch.SearchRequest{Query: "summary of widget 3"}, ""},
		{mdsearch.SearchRequest{Query: "the summary"}, fmt.Sprint(notes)}, // common words aside
		{mdsearch.SearchRequest{Query: "what is the summary?"}, fmt.Sprint(notes)},
		{mdsearch.SearchRequest{Query: "what's the summary?"}, fmt.Sprint(notes)}, // its clitic read
		{mdsearch.SearchRequest{Query: "The Summary’s"}, fmt.Sprint(notes)},
		{mdsearch.SearchRequest{Query: "rare part"}, ""},
		{mdsearch.SearchRequest{Query: "summary", PathPrefix: "rfc-0"}, "10"}, // rfc-00 … rfc-09
		{mdsearch.SearchRequest{Query: "summary", PathPrefix: "rfc-1"}, ""},   // two notes
		{mdsearch.SearchRequest{Query: "summary", Exclude: []string{"rfc-00.md", "rfc-01.md", "rfc-02.md"}}, ""},
	} {
		tt.req.Mode = mdsearch.ModeKeyword
		n := search(t, e, tt.req).Notice
		said := strings.Contains(n, `"Summary" is a heading of`)
		if said != (tt.want != "") || said && !strings.Contains(n, `"Summary" is a heading of `+tt.want+` notes`) {
			t.Errorf("%+v: notice %q, want the count %q", tt.req, n, tt.want)
		}
	}
}
