package engine

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/render"
)

// TestBudgetRendered: an answer with a token budget, printed as agents
// get it (headers, merged sections' names, footers with section names and
// read hints), stays within the budget, for passages that merged stub
// sections as for long ones. (A budget under what one result's header,
// footer and a dozen words cost is not held: the first result is kept.)
func TestBudgetRendered(t *testing.T) {
	dir := t.TempDir()
	for i := range 6 {
		var b strings.Builder
		fmt.Fprintf(&b, "# Widget note %d\n\n", i)
		for _, h := range []string{"Setup", "Usage", "Options", "Caveats", "Examples"} {
			fmt.Fprintf(&b, "## %s of the widget %d\n\nThe widget %s is short.\n\n", h, i, strings.ToLower(h))
		}
		fmt.Fprintf(&b, "## Long part\n\n%s\n\n%s\n", strings.Repeat("The widget runs long here. ", 40), strings.Repeat("More widget words. ", 40))
		write(t, dir, fmt.Sprintf("folder/sub/widget-%d.md", i), b.String())
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, dir, "notes")
	for _, budget := range []int{100, 150, 200, 300, 450, 600, 900} {
		resp := search(t, e, mdsearch.SearchRequest{Query: "widget", Mode: mdsearch.ModeKeyword, N: 10, MaxTokens: budget})
		var b strings.Builder
		if err := render.Results(&b, resp, render.Options{SectionPaths: true}); err != nil {
			t.Fatal(err)
		}
		notice := 0
		if resp.Notice != "" {
			notice = EstimateTokens("Note: " + resp.Notice)
		}
		if got := EstimateTokens(b.String()) - notice; got > budget+budget/20 {
			t.Errorf("budget %d: the answer is about %d tokens (%d results)\n%s", budget, got, len(resp.Results), b.String())
		}
	}
}
