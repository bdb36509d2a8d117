package render

import (
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

func TestStaleAndRead(t *testing.T) {
	r := mdsearch.Result{Path: "a.md", Section: "S", Score: 0.5, Stale: true, Text: "x", TotalChunks: 1}
	if got, want := Header(1, r), "1. **a.md** > S (50.0%) [stale: changed or deleted since indexed]"; got != want {
		t.Errorf("Header = %q, want %q", got, want)
	}
	var b strings.Builder
	Results(&b, &mdsearch.SearchResponse{Results: []mdsearch.Result{r}}, Options{})
	if !strings.Contains(b.String(), StaleMark) {
		t.Errorf("Results lacks the stale mark:\n%s", b.String())
	}
	for _, tt := range []struct {
		name string
		r    mdsearch.ReadResponse
		want []string
	}{
		{"text", mdsearch.ReadResponse{Content: "# A\n"}, []string{"# A\n"}},
		{"lines", mdsearch.ReadResponse{Content: "# A\nx", StartLine: 3, EndLine: 4, Tokens: 3}, []string{"# A\nx\n— lines 3–4 · about 3 tokens\n"}},
		{"notice", mdsearch.ReadResponse{Content: "# A\n", Notice: "the index is behind"}, []string{"Note: the index is behind\n\n# A\n"}},
		{"outline", mdsearch.ReadResponse{Path: "a.md", WordCount: 2000, Notice: "long",
			Outline: []mdsearch.OutlineEntry{{Level: 1, Heading: "A", SectionPath: []string{"B", "A"}}}},
			[]string{"Note: long\n\na.md (2000 words", `- # A — section "B/A"`}},
	} {
		var b strings.Builder
		if err := Read(&b, &tt.r); err != nil {
			t.Fatal(err)
		}
		for _, w := range tt.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: %q lacks %q", tt.name, b.String(), w)
			}
		}
	}
}
