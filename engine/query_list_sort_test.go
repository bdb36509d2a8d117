package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
)

// TestListSorted: sort=modified orders a list last changed first, by the
// files' times as indexed, each result saying when; alone it lists every
// note; a task list and a page of either follow it; a search with words
// refuses it.
func TestListSorted(t *testing.T) {
	vault := t.TempDir()
	day := time.Date(2026, 11, 1, 9, 30, 0, 0, time.UTC)
	for i, n := range []struct{ path, text string }{
		{"b.md", "# Bee\n\nOldest. #garden\n"},
		{"a.md", "# Ant\n\n- [ ] feed the ants\n"},
		{"z.md", "# Zebra\n\nNewest. #garden\n\n- [ ] water the zebra\n"},
		{"sub/c.md", "# Cat\n\nMiddle. #garden\n"},
	} {
		write(t, vault, n.path, n.text)
		at := day.Add(time.Duration(i) * 24 * time.Hour)
		if err := os.Chtimes(filepath.Join(vault, n.path), at, at); err != nil {
			t.Fatal(err)
		}
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, tt := range []struct {
		req    mdsearch.SearchRequest
		want   string // paths, in order
		notice string
	}{
		{mdsearch.SearchRequest{Sort: mdsearch.SortModified}, "sub/c.md z.md a.md b.md", "4 notes in all, listed last changed first, each by its opening"},
		{mdsearch.SearchRequest{Sort: mdsearch.SortPath}, "a.md b.md sub/c.md z.md", "4 notes in all, listed by path"},
		{mdsearch.SearchRequest{Tag: "garden", Sort: mdsearch.SortModified}, "sub/c.md z.md b.md", `3 notes match tag "garden", listed last changed first`},
		{mdsearch.SearchRequest{Tag: "garden", Sort: mdsearch.SortModified, N: 1, Offset: 1}, "z.md", "note 2, last changed first, each by its opening, unranked; offset 2 gives the next"},
		{mdsearch.SearchRequest{Query: "task-todo:", Sort: mdsearch.SortModified}, "z.md a.md", `2 passages match "task-todo:", listed last changed first, each to its last such task`},
		{mdsearch.SearchRequest{Query: "task-todo:"}, "a.md z.md", "listed by path"},
	} {
		resp := search(t, e, tt.req)
		var got []string
		for _, r := range resp.Results {
			got = append(got, r.Path)
			if (r.Modified != "") != (tt.req.Sort == mdsearch.SortModified) {
				t.Errorf("%+v: %s modified %q", tt.req, r.Path, r.Modified)
			}
		}
		if strings.Join(got, " ") != tt.want || !strings.Contains(resp.Notice, tt.notice) || !resp.Listing {
			t.Errorf("%+v: %q, notice %q; want %q, %q", tt.req, got, resp.Notice, tt.want, tt.notice)
		}
	}
	resp := search(t, e, mdsearch.SearchRequest{Sort: mdsearch.SortModified, N: 1})
	if m := resp.Results[0].Modified; m != "2026-11-04T09:30:00Z" {
		t.Errorf("modified %q, want the file's time in UTC", m)
	}
	for _, req := range []mdsearch.SearchRequest{{Query: "zebra", Sort: mdsearch.SortModified}, {Query: "zebra", Sort: mdsearch.SortPath}, {Sort: "newest"}} {
		if _, err := e.Search(bg, req); mdsearch.KindOf(err) != mdsearch.KindInvalid || !strings.Contains(err.Error(), "sort is") {
			t.Errorf("%+v: %v, want sort refused", req, err)
		}
	}
}

// BenchmarkListOrder times a list of 5,000 notes last changed first
// beside the same list by path, in turn on one engine: the first page
// and a late one.
func BenchmarkListOrder(b *testing.B) {
	vault := b.TempDir()
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 5000 {
		p := fmt.Sprintf("notes/%04d.md", (i*7919)%5000) // times unlike paths' order
		write(b, vault, p, fmt.Sprintf("# Note %d\n\nSome text of note %d.\n", i, i))
		at := day.Add(time.Duration(i) * time.Hour)
		if err := os.Chtimes(filepath.Join(vault, p), at, at); err != nil {
			b.Fatal(err)
		}
	}
	e := openEngine(b, filepath.Join(b.TempDir(), "index.db"), newBow("bow"))
	index(b, e, vault, "v")
	for _, offset := range []int{0, 4000} {
		list := func(sort string) func(string) error {
			return func(string) error {
				_, err := e.Search(bg, mdsearch.SearchRequest{PathPrefix: "notes/", Sort: sort, N: 20, Offset: offset})
				return err
			}
		}
		b.Run(fmt.Sprintf("offset_%d", offset), func(b *testing.B) {
			benchPair(b, []string{""}, "path", list(mdsearch.SortPath), "modified", list(mdsearch.SortModified))
		})
	}
}

// file.mtime, as Obsidian's Bases name it, is when the note's file last
// changed: compared with dates (a day counted from today too), or equal
// to a date's whole day or month, in a list, a search or negated.
func TestFileTime(t *testing.T) {
	vault := t.TempDir()
	for i, p := range []string{"b.md", "a.md", "z.md", "c.md"} {
		write(t, vault, p, fmt.Sprintf("# Note %s\n\nThe garden plan %d.\n", p, i))
		at := time.Date(2026, 11, 1+i, 12, 0, 0, 0, time.Local)
		if err := os.Chtimes(filepath.Join(vault, p), at, at); err != nil {
			t.Fatal(err)
		}
	}
	defer func(today func() time.Time) { mdsearch.Today = today }(mdsearch.Today)
	mdsearch.Today = func() time.Time { return time.Date(2026, 11, 4, 8, 0, 0, 0, time.Local) }
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, tt := range []struct {
		req    mdsearch.SearchRequest
		want   string
		notice string
	}{
		{mdsearch.SearchRequest{Query: "[file.mtime:>=2026-11-03]"}, "c.md z.md", "2 notes match file.mtime>=2026-11-03"},
		{mdsearch.SearchRequest{Query: "[file.mtime:2026-11-02]"}, "a.md", ""},
		{mdsearch.SearchRequest{Query: "[file.mtime:>2026-11-02]"}, "c.md z.md", ""}, // after that day
		{mdsearch.SearchRequest{Query: "[file.mtime:<=2026-11-02]"}, "a.md b.md", ""},
		{mdsearch.SearchRequest{Query: "[FILE.MTIME:<2026-11-02]"}, "b.md", ""},
		{mdsearch.SearchRequest{Query: "[file.mtime:>2026-11-02T11:59] [file.mtime:<=2026-11-03]"}, "a.md z.md", ""},
		{mdsearch.SearchRequest{Where: map[string]string{"file.mtime": ">=today-1d"}}, "c.md z.md", "file.mtime>=2026-11-03"},
		{mdsearch.SearchRequest{Where: map[string]string{"file.mtime": "today"}}, "c.md", ""},
		{mdsearch.SearchRequest{Query: "[file.mtime:2026-11]"}, "a.md b.md c.md z.md", ""},
		{mdsearch.SearchRequest{Query: "-[file.mtime:>=2026-11-03]"}, "a.md b.md", ""},
		{mdsearch.SearchRequest{Query: "garden plan [file.mtime:>=today-1d]", Mode: mdsearch.ModeKeyword}, "c.md z.md", ""},
	} {
		resp := search(t, e, tt.req)
		var got []string
		for _, r := range resp.Results {
			got = append(got, r.Path)
		}
		slices.Sort(got)
		if strings.Join(got, " ") != tt.want || !strings.Contains(resp.Notice, tt.notice) {
			t.Errorf("%+v: %q, notice %q; want %q, %q", tt.req, got, resp.Notice, tt.want, tt.notice)
		}
	}
	for _, q := range []string{"[file.mtime:>3] garden", "[file.mtime:yesterday] garden", "-[file.mtime:soon]"} {
		if _, err := e.Search(bg, mdsearch.SearchRequest{Query: q}); mdsearch.KindOf(err) != mdsearch.KindInvalid || !strings.Contains(err.Error(), "compares with dates") {
			t.Errorf("%s: %v, want refused", q, err)
		}
	}
}

// BenchmarkFileTime times keyword searches of 5,000 notes with a
// file.mtime range that keeps a tenth of them beside the same range of a
// frontmatter date, in turn on one engine.
func BenchmarkFileTime(b *testing.B) {
	vault := b.TempDir()
	day := time.Date(2026, 1, 1, 12, 0, 0, 0, time.Local)
	words := []string{"garden", "soil", "compost", "tomato", "harvest", "seed", "water", "frost"}
	for i := range 5000 {
		at := day.AddDate(0, 0, i%100)
		p := fmt.Sprintf("n/%04d.md", i)
		write(b, vault, p, fmt.Sprintf("---\ndue: %s\n---\n# Note %d\n\nThe garden plan: %s and %s.\n", at.Format(time.DateOnly), i, words[i%8], words[(i/8)%8]))
		if err := os.Chtimes(filepath.Join(vault, p), at, at); err != nil {
			b.Fatal(err)
		}
	}
	e := openEngine(b, filepath.Join(b.TempDir(), "index.db"), nil)
	index(b, e, vault, "v")
	queries := []string{"garden plan soil", "compost", "plan harvest", "seed water"}
	ask := func(field string) func(string) error {
		return func(q string) error {
			_, err := e.Search(bg, mdsearch.SearchRequest{Query: q + " [" + field + ":>=2026-03-01] [" + field + ":<2026-03-11]", Mode: mdsearch.ModeKeyword})
			return err
		}
	}
	benchPair(b, queries, "due", ask("due"), "mtime", ask("file.mtime"))
}
