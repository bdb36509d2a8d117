package engine

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/render"
)

// TestListNotes: a request without words lists the notes its filters keep,
// by collection and path, each by its opening, unscored, and says how
// many match; the operators alone, tags, a folder and properties list
// alike, and their negations too.
func TestListNotes(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "work/b.md", "---\ntags: [meeting]\nstatus: draft\n---\n# Standup B\n\nNotes of the standup.\n\n## Later\n\nMore.\n")
	write(t, vault, "work/a.md", "# Standup A\n\nWe met. #meeting\n")
	write(t, vault, "home/c.md", "# Garden\n\nTomatoes. #meeting/family\n")
	write(t, vault, "home/d.md", "# Recipes\n\nBread.\n")
	write(t, vault, "home/Dahlia.md", "# Dahlia\n\nTubers. #meeting\n") // after c.md, whatever the case
	write(t, vault, "home/empty.md", "")                                // no passage to show: the notice names it
	for i := range 4 {
		write(t, vault, fmt.Sprintf("blank/e%d.md", i), "\n")
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, tt := range []struct {
		name   string
		req    mdsearch.SearchRequest
		want   string // paths, in order
		notice string
	}{
		{"a tag", mdsearch.SearchRequest{Tag: "meeting"}, "home/c.md home/Dahlia.md work/a.md work/b.md",
			`4 notes match tag "meeting", listed by path, each by its opening, unranked`},
		{"an operator", mdsearch.SearchRequest{Query: "tag:meeting"}, "home/c.md home/Dahlia.md work/a.md work/b.md", "4 notes match"},
		{"a negation", mdsearch.SearchRequest{Query: "-tag:meeting"}, "home/d.md", "1 note matches"},
		// The tags property is the tags, wherever written.
		{"the tags property", mdsearch.SearchRequest{Where: map[string]string{"Tags": "#meeting"}}, "home/c.md home/Dahlia.md work/a.md work/b.md", "4 notes match"},
		{"the tags property, negated", mdsearch.SearchRequest{Query: "-[tags:meeting]"}, "home/d.md", "1 note matches"},
		{"a folder", mdsearch.SearchRequest{PathPrefix: "work/"}, "work/a.md work/b.md", `2 notes match path prefix "work/"`},
		{"path and a property", mdsearch.SearchRequest{Query: "path:work [status:draft]"}, "work/b.md", "1 note matches"},
		{"fewer shown", mdsearch.SearchRequest{Tag: "meeting", N: 2}, "home/c.md home/Dahlia.md",
			`4 notes match tag "meeting": the first 2 by path, each by its opening, unranked; offset 2 gives the next (or raise n)`},
		{"the next page", mdsearch.SearchRequest{Tag: "meeting", N: 2, Offset: 2}, "work/a.md work/b.md",
			`4 notes match tag "meeting": notes 3-4 by path, the last of them`},
		{"a page in the middle", mdsearch.SearchRequest{Query: "tag:meeting", N: 1, Offset: 1}, "home/Dahlia.md",
			`4 notes match tag "meeting": note 2 by path, each by its opening, unranked; offset 2 gives the next, or add words`},
		{"past the last", mdsearch.SearchRequest{Tag: "meeting", Offset: 4}, "", `4 notes match tag "meeting"; offset 4 is past the last of them: use 0-3`},
		{"one shown", mdsearch.SearchRequest{Tag: "meeting", N: 1, MinScore: 0.5}, "home/c.md",
			`4 notes match tag "meeting": the first by path, each by its opening, unranked; offset 1 gives the next (or raise n), or add words to search in them; min_score does not apply`},
		{"none", mdsearch.SearchRequest{Tag: "meetnig"}, "", `no note has the tag "meetnig"; did you mean "meeting" (4 notes)?`},
		{"grouped", mdsearch.SearchRequest{Query: "tag:meeting (path:work OR path:home)"}, "",
			"OR and parentheses do not group filters here: every filter must match (tag:meeting, path:work, path:home)"},
		{"an empty note", mdsearch.SearchRequest{PathPrefix: "home/"}, "home/c.md home/d.md home/Dahlia.md",
			`3 notes match path prefix "home/", listed by path, each by its opening, unranked: add words to search in them; home/empty.md is not listed: it holds no text`},
		{"empty notes", mdsearch.SearchRequest{PathPrefix: "blank/"}, "",
			`no note with text matches path prefix "blank/"; 4 notes are not listed, as they hold no text: blank/e0.md, blank/e1.md, blank/e2.md and 1 more`},
		{"none of a known tag", mdsearch.SearchRequest{Tag: "meeting", PathPrefix: "nowhere/"}, "", `no note matches tag "meeting", path prefix "nowhere/"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp := search(t, e, tt.req)
			var got []string
			for _, r := range resp.Results {
				got = append(got, r.Path)
				if r.Score != 0 || r.ChunkIndex != 0 {
					t.Errorf("%s: score %v, chunk %d; want 0, its first passage", r.Path, r.Score, r.ChunkIndex)
				}
			}
			if strings.Join(got, " ") != tt.want || !resp.Listing || resp.Total != len(got) || resp.Matching < len(got) {
				t.Errorf("listed %q (listing %v, total %d, matching %d), want %q", got, resp.Listing, resp.Total, resp.Matching, tt.want)
			}
			if !strings.Contains(resp.Notice, tt.notice) {
				t.Errorf("notice %q, want %q", resp.Notice, tt.notice)
			}
		})
	}
	// A budget that drops notes says which it kept, and the offset that
	// follows them.
	if resp := search(t, e, mdsearch.SearchRequest{Tag: "meeting", N: 4, MaxTokens: 150}); len(resp.Results) == 0 || len(resp.Results) == 4 ||
		!strings.Contains(resp.Notice, fmt.Sprintf("offset %d gives the next", len(resp.Results))) || strings.Contains(resp.Notice, "raise n") ||
		!strings.Contains(resp.Notice, fmt.Sprintf("%d more notes did not fit max_tokens 150", 4-len(resp.Results))) && !strings.Contains(resp.Notice, "1 more note did not fit") {
		t.Errorf("a list cut to a budget: %d shown, notice %q", len(resp.Results), resp.Notice)
	}
	// Words search, as before; nothing but a collection, or nothing at
	// all, is no list.
	if resp := search(t, e, mdsearch.SearchRequest{Query: "standup", Tag: "meeting"}); resp.Listing || len(resp.Results) == 0 || resp.Matching != 0 {
		t.Errorf("a search with words listed: %s (matching %d)", paths(resp), resp.Matching)
	}
	// A search with words shows its best n: no offset pages it.
	if _, err := e.Search(bg, mdsearch.SearchRequest{Query: "standup tag:meeting", Offset: 5}); mdsearch.KindOf(err) != mdsearch.KindInvalid ||
		!strings.Contains(err.Error(), "offset pages a list of notes") {
		t.Errorf("a search with words and an offset: %v, want it refused", err)
	}
	for _, req := range []mdsearch.SearchRequest{{Collection: "v"}, {}, {Query: "  "}} {
		if _, err := e.Search(bg, req); mdsearch.KindOf(err) != mdsearch.KindInvalid || !strings.Contains(err.Error(), "to list the notes that have it") {
			t.Errorf("%+v: %v, want the request refused", req, err)
		}
	}
}

// listNotice counts the notes, says which of them are shown, and how to
// see the others: offset, or n where it can be raised.
func TestListNotice(t *testing.T) {
	for _, tt := range []struct {
		total, offset, shown int
		most                 bool
		want                 string
	}{
		{0, 0, 0, false, `no note matches tag "x"`},
		{1, 0, 1, false, `1 note matches tag "x", listed by path`},
		{60, 0, 50, true, `60 notes match tag "x": the first 50 by path, each by its opening, unranked; offset 50 gives the next, or narrow it (a folder, another tag), or add words`},
		{60, 0, 10, false, `the first 10 by path, each by its opening, unranked; offset 10 gives the next (or raise n), or add words`},
		{60, 10, 10, false, `60 notes match tag "x": notes 11-20 by path, each by its opening, unranked; offset 20 gives the next, or add words`},
		{60, 50, 10, true, `60 notes match tag "x": notes 51-60 by path, the last of them, each by its opening, unranked`},
		{60, 70, 0, false, `60 notes match tag "x"; offset 70 is past the last of them: use 0-59`},
		{1, 1, 0, false, `1 note matches tag "x"; offset 1 is past the last of them: use 0`},
	} {
		more := moreRaise
		if tt.most {
			more = moreNarrow
		}
		if got := listNotice(tt.total, tt.offset, tt.shown, more, `tag "x"`, notesListed, "by path"); !strings.HasPrefix(got, tt.want) && !strings.Contains(got, tt.want) {
			t.Errorf("listNotice(%d, %d, %d, %v) = %q, want %q", tt.total, tt.offset, tt.shown, tt.most, got, tt.want)
		}
	}
}

// A list shows each note's opening, not its whole first passage: a long
// one is cut, and its hint reads the rest.
func TestListCutsOpenings(t *testing.T) {
	vault := t.TempDir()
	long := strings.Repeat("The migration moved every table to the new cluster over a weekend. ", 30)
	write(t, vault, "ops.md", "# Ops\n\n#runbook\n\n"+long+"\n\n"+long+"\n")
	write(t, vault, "short.md", "# Short\n\nOne line. #runbook\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	resp := search(t, e, mdsearch.SearchRequest{Tag: "runbook"})
	if len(resp.Results) != 2 {
		t.Fatalf("listed %s", paths(resp))
	}
	cut, whole := resp.Results[0], resp.Results[1]
	if got := closeFence("# Code\n\n```go\nfunc a() {\n\tb()"); got != "# Code\n\n```go\nfunc a() {\n\tb()\n```" {
		t.Errorf("an opening cut inside code: %q", got)
	}
	if got := closeFence("```\nx\n```\ny"); got != "```\nx\n```\ny" {
		t.Errorf("a closed block: %q", got)
	}
	if !cut.Truncated || !strings.Contains(cut.ReadHint, "a list shows each note's opening") || EstimateTokens(cut.Text) > 2*listPreview {
		t.Errorf("a long opening: truncated %v, hint %q, %d tokens", cut.Truncated, cut.ReadHint, EstimateTokens(cut.Text))
	}
	if whole.Truncated || !strings.Contains(whole.Text, "One line.") {
		t.Errorf("a short one: %+v", whole)
	}
}

// A list under max_tokens counts each opening's read hint: what it shows
// fits the budget.
func TestListBudget(t *testing.T) {
	vault := t.TempDir()
	long := strings.Repeat("The migration moved every table to the new cluster over a weekend. ", 30)
	for i := range 30 {
		write(t, vault, fmt.Sprintf("n%02d.md", i), fmt.Sprintf("# Note %d\n\n#ops\n\n%s\n", i, long))
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	resp := search(t, e, mdsearch.SearchRequest{Tag: "ops", N: 50, MaxTokens: 800})
	var b strings.Builder
	if err := render.Results(&b, resp, render.Options{}); err != nil {
		t.Fatal(err)
	}
	if spent := EstimateTokens(b.String()); len(resp.Results) < 2 || len(resp.Results) == 30 || spent > 800 {
		t.Errorf("%d notes listed in %d tokens of 800", len(resp.Results), spent)
	}
}

// A path filter that matched nothing names the path text meant, where
// one reads as it does but for spaces, hyphens and underscores.
func TestNearPathNotice(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "leadership-council/a.md", "# A\n\nThe council meets.\n")
	write(t, vault, "a b/x.md", "# X\n\nNothing.\n")
	write(t, vault, "long/a-b/yyyyyy.md", "# Y\n\nNothing.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, tt := range []struct {
		req  mdsearch.SearchRequest
		want string
	}{
		{mdsearch.SearchRequest{Query: `path:"leadership council"`}, `no note's path holds "leadership council"; did you mean "leadership-council"?`},
		{mdsearch.SearchRequest{Query: "council", PathPrefix: "leadership council", Mode: mdsearch.ModeKeyword}, `no note's path starts with "leadership council"; did you mean "leadership-council"?`},
		{mdsearch.SearchRequest{Query: "path:a-b tag:nope"}, ""}, // a path holds a-b: the tag is why
	} {
		resp := search(t, e, tt.req)
		if len(resp.Results) != 0 || tt.want != "" && !strings.Contains(resp.Notice, tt.want) || tt.want == "" && strings.Contains(resp.Notice, "no note's path") {
			t.Errorf("%+v: %d results, notice %q", tt.req, len(resp.Results), resp.Notice)
		}
	}
}

// With several collections, the notes a list cannot show are named as
// read takes them, COLLECTION:PATH: two empty notes of one path are two.
func TestListEmptyNotesCollections(t *testing.T) {
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	for _, name := range []string{"a", "b"} {
		vault := t.TempDir()
		write(t, vault, "drafts/new.md", "")
		write(t, vault, "drafts/old.md", "# Old\n\nText.\n")
		index(t, e, vault, name)
	}
	resp := search(t, e, mdsearch.SearchRequest{PathPrefix: "drafts/"})
	if want := "2 notes are not listed, as they hold no text: a:drafts/new.md, b:drafts/new.md"; len(resp.Results) != 2 || !strings.Contains(resp.Notice, want) {
		t.Errorf("%d results, notice %q; want 2 and %q", len(resp.Results), resp.Notice, want)
	}
}
