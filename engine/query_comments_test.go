package engine

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/chunks"
)

// An Obsidian comment is in no result: the passage that runs across it
// shows the text on both sides, the comment's lines blank; a big one cuts
// its section in two.
func TestCommentsInNoResult(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "zoo.md", "# Zoo\n\nThe zebra herd grazes by the gate every morning.\n\n"+
		"%%\n## Private\nThe zebra keeper's salary is a secret.\n%%\n\n"+
		"The zebra foals sleep in the barn at night.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeHybrid} {
		resp := search(t, e, mdsearch.SearchRequest{Query: "zebra", Mode: mode})
		if len(resp.Results) != 1 {
			t.Fatalf("%s: %d results: %s", mode, len(resp.Results), paths(resp))
		}
		r := resp.Results[0]
		if strings.Contains(r.Text, "secret") || strings.Contains(r.Text, "%%") || strings.Contains(r.Text, "Private") {
			t.Errorf("%s: result %d-%d shows the comment: %q", mode, r.StartLine, r.EndLine, r.Text)
		}
		// The text on both sides, its lines the note's: the comment's blank.
		if !strings.Contains(r.Text, "every morning.\n\n\n\n\n\n\nThe zebra foals") || r.StartLine != 1 || r.EndLine != 10 {
			t.Errorf("%s: result %d-%d: %q", mode, r.StartLine, r.EndLine, r.Text)
		}
	}
	if resp := search(t, e, mdsearch.SearchRequest{Query: "salary secret", Mode: mdsearch.ModeKeyword}); len(resp.Results) != 0 {
		t.Errorf("the comment's words found: %s", paths(resp))
	}
	out, err := e.Outline(bg, "zoo.md")
	if err != nil || len(out.Sections) != 1 {
		t.Errorf("outline: %+v, %v", out, err)
	}
	// A big comment (a hidden draft, over chunks.BigComment lines) cuts
	// the section: two results, never one of its blank lines.
	write(t, vault, "zoo.md", "# Zoo\n\nThe zebra herd grazes by the gate every morning.\n\n"+
		"%%\n"+strings.Repeat("The zebra keeper's salary is a secret.\n", chunks.BigComment)+"%%\n\n"+
		"The zebra foals sleep in the barn at night.\n")
	index(t, e, vault, "v")
	for _, mode := range []mdsearch.Mode{mdsearch.ModeKeyword, mdsearch.ModeHybrid} {
		resp := search(t, e, mdsearch.SearchRequest{Query: "zebra", Mode: mode})
		if len(resp.Results) != 2 {
			t.Fatalf("%s: %d results: %s", mode, len(resp.Results), paths(resp))
		}
		for _, r := range resp.Results {
			if strings.Contains(r.Text, "secret") || strings.Contains(r.Text, "%%") || r.EndLine-r.StartLine > 2 {
				t.Errorf("%s: result %d-%d shows the comment or spans it: %q", mode, r.StartLine, r.EndLine, r.Text)
			}
		}
	}
}

// The weaker passage of a section cut off at a big comment ranks by its
// own score: it does not push a better result of another note out of the n.
func TestCommentRunRanksAlone(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "a.md", "# A\n\nzebra zebra zebra zebra zebra stripes.\n\n%%\n"+strings.Repeat("private\n", chunks.BigComment)+"%%\n\n"+
		strings.Repeat("Other words about the savanna and its grass. ", 30)+"One zebra.\n")
	write(t, vault, "b.md", "# B\n\nThe zebra and the zebra foal.\n")
	for i := range 40 {
		write(t, vault, fmt.Sprintf("filler%02d.md", i), fmt.Sprintf("# Filler %d\n\nNothing about stripes here, note %d.\n", i, i))
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	resp := search(t, e, mdsearch.SearchRequest{Query: "zebra", Mode: mdsearch.ModeKeyword, N: 2})
	if got := paths(resp); !strings.Contains(got, "a.md") || !strings.Contains(got, "b.md") {
		t.Errorf("n=2: %s", got)
	}
	for i := 1; i < len(resp.Results); i++ {
		if resp.Results[i].Score > resp.Results[i-1].Score {
			t.Errorf("out of order: %s", paths(resp))
		}
	}
}

// A comment within a line, or one that opens or closes mid-line, is in no
// result either: its words find nothing and show nowhere, while the text
// around it does, with its lines still the note's.
func TestInlineCommentsInNoResult(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "c.md", "# Note\n\nIntro line %%\nmidlinecommentword spans lines\n%% after the zebra.\n\n"+
		"Inline %%inlinecommentword #secret%% zebra here, and `%%literal%%` code.\n\n## Tail\n\nLast zebra line.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	for _, q := range []string{"midlinecommentword", "inlinecommentword", "secret"} {
		if resp := search(t, e, mdsearch.SearchRequest{Query: q, Mode: mdsearch.ModeKeyword}); len(resp.Results) != 0 {
			t.Errorf("%s found: %s", q, paths(resp))
		}
	}
	resp := search(t, e, mdsearch.SearchRequest{Query: "intro zebra", Mode: mdsearch.ModeKeyword, MaxPerPage: 1})
	if len(resp.Results) == 0 {
		t.Fatal("intro zebra: no result")
	}
	r := resp.Results[0]
	if strings.Contains(r.Text, "commentword") || !strings.Contains(r.Text, "after the zebra") || !strings.Contains(r.Text, "`%%literal%%`") {
		t.Errorf("text %q", r.Text)
	}
	if lines := strings.Count(r.Text, "\n") + 1; r.StartLine != 1 || lines != r.EndLine-r.StartLine+1 {
		t.Errorf("lines %d–%d, %d lines of text %q", r.StartLine, r.EndLine, lines, r.Text)
	}
	if resp := search(t, e, mdsearch.SearchRequest{Query: "literal", Mode: mdsearch.ModeKeyword}); len(resp.Results) != 1 {
		t.Errorf("literal: %s", paths(resp))
	}
}
