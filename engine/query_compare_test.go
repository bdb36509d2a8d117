package engine

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch"
)

// Obsidian's [property:>value] and [property:<value], and --where's
// field>value, compare numbers as numbers and dates as dates, as YAML
// and TOML frontmatter store them, each item of a list on its own; two
// on one property make a range, and a "-" leaves out the notes that meet
// one.
func TestPropertyComparisons(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "a.md", "---\nrating: 4\ndue: 2024-06-30\n---\n# Alpha\n\nThe garden plan for spring.\n")
	write(t, vault, "b.md", "---\nrating: 2.5\ndue: 2024-07-15T10:30\n---\n# Beta\n\nThe garden plan for summer.\n")
	write(t, vault, "c.md", "---\nrating: \"5\"\ndue: [2024-08-01, 2023-01-01]\nmeta:\n  size: 12\n---\n# Gamma\n\nThe garden plan for autumn.\n")
	write(t, vault, "d.md", "# Delta\n\nThe garden plan with no properties.\n")
	write(t, vault, "e.md", "+++\nrating = -1\ndue = 2024-07-01T09:00:00Z\n+++\n\n# Epsilon\n\nThe garden plan in TOML.\n")
	write(t, vault, "f.md", "---\nrating: true\ndue: next week\ntags: [plan]\n---\n# Zeta\n\nThe garden plan, undated.\n")
	write(t, vault, "g.md", "---\ndue: 2024-09-01T00:00:00Z\nstatus: \"<% tp.file.title %>\"\n---\n# Eta\n\nThe garden plan at midnight.\n") // stored as 2024-09-01
	write(t, vault, "h.md", "---\ndue: 2024-09-02T10:00:00+02:00\n---\n# Theta\n\nThe garden plan with a zone.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, tt := range []struct {
		query string
		where map[string]string
		want  string
	}{
		{query: "[rating:>3] garden", want: "a.md"}, // "5" is text, true a boolean
		{query: "[rating:>=2.5] garden", want: "a.md b.md"},
		{query: "[rating:<0] garden", want: "e.md"},
		{query: "[rating:>-1.5] [rating:<3] garden", want: "b.md e.md"},
		{query: "[due:<2024-07-01] garden", want: "a.md c.md"},                      // c's 2023-01-01
		{query: "[due:>=2024-07-01] [due:<2024-09] garden", want: "b.md c.md e.md"}, // e's day, whatever its time
		{query: "[due:>2024-07-01T09:00] [due:<2024-09] garden", want: "b.md c.md"}, // e's time is not after it
		{query: "[due:>2024-07-01 09:00] [due:<2024-09] garden", want: "b.md c.md"}, // a space before the time
		{query: "[due:>2024-07] [due:<2024-09] garden", want: "c.md"},               // after July
		{query: "[due:>2024-07-01] [due:<2024-08-01] garden", want: "b.md"},         // c has neither item in the range
		{query: "-[due:<2024-07-01] garden", want: "b.md d.md e.md f.md g.md h.md"}, // no due, or none before
		{query: "[meta.size:>10] garden", want: "c.md"},                             // inside a map
		{query: "garden", where: map[string]string{"rating": ">3"}, want: "a.md"},
		{query: "garden", where: map[string]string{"due": ">2024-07-01 <2024-08-01"}, want: "b.md"},
		{query: "[rating:>3]", want: "a.md"},                                                      // alone, a list of notes
		{query: "[due:>=2024-09-01T00:00] garden", want: "g.md h.md"},                             // a day is its midnight
		{query: "[due:<2024-09-01T00:00:01] [due:>2024-08-31] garden", want: "g.md"},              // and before its first second
		{query: "[due:>=2024-09-02T10:00:00Z] [due:<2024-09-02T10:00:00.5] garden", want: "h.md"}, // zones set aside
		{query: "[due:<=2024-07-01T09:00:00.0] [due:>2024-06-30T23:59] garden", want: "e.md"},     // TOML's 09:00:00Z, its zone aside
		{query: `[status:"<% tp.file.title %>"] garden`, want: "g.md"},                            // text, not a comparison
	} {
		req := mdsearch.SearchRequest{Query: tt.query, Where: tt.where, Mode: mdsearch.ModeKeyword, N: 10}
		resp := search(t, e, req)
		if got := sortedPaths(resp); got != tt.want {
			t.Errorf("%s %v: %q, want %q (%s)", tt.query, tt.where, got, tt.want, resp.Notice)
		}
	}

	// A day alone, counted from today or a date, holds for that day's
	// dates at any time (e's TOML 09:00:00Z), a month for its days, and
	// each for the words themselves.
	write(t, vault, "i.md", "---\ndue: today\n---\n# Iota\n\nThe garden plan, due in words.\n")
	index(t, e, vault, "v")
	defer func(today func() time.Time) { mdsearch.Today = today }(mdsearch.Today)
	mdsearch.Today = func() time.Time { return time.Date(2024, 7, 15, 12, 0, 0, 0, time.Local) }
	for q, want := range map[string]string{"[due:today] garden": "b.md i.md", "[due:Today-14d] garden": "e.md", "[due:today-1d] garden": "", "[due:2024-07-01] garden": "e.md", "[due:2024-07] garden": "b.md e.md",
		"[due:2024-07] [due:>2024-07-01] garden": "b.md", "[due:today] [due:<2024-07-15T12:00] garden": "b.md",
		"-[due:today] garden": "a.md c.md d.md e.md f.md g.md h.md"} {
		resp := search(t, e, mdsearch.SearchRequest{Query: q, Mode: mdsearch.ModeKeyword, N: 10})
		if got := sortedPaths(resp); got != want {
			t.Errorf("%s: %q, want %q (%s)", q, got, want, resp.Notice)
		}
		if q == "[due:today-1d] garden" && !strings.Contains(resp.Notice, "due=2024-07-14") {
			t.Errorf("%s: notice %q, want the date named", q, resp.Notice)
		}
	}

	// Notices name a comparison as written, and the values the property holds when none meets it.
	resp := search(t, e, mdsearch.SearchRequest{Query: "[rating:<-5] garden", Mode: mdsearch.ModeKeyword})
	if len(resp.Results) != 0 || !strings.Contains(resp.Notice, "rating<-5") || !strings.Contains(resp.Notice, `the property "rating" holds`) {
		t.Errorf("[rating:<-5]: %q %s", resp.Notice, paths(resp))
	}
	resp = search(t, e, mdsearch.SearchRequest{Query: "[due:>2024-01-01] [due:<2024-07-01]"})
	if !strings.Contains(resp.Notice, "due>2024-01-01 and due<2024-07-01") {
		t.Errorf("range notice: %q", resp.Notice)
	}

	// A value that opens as a comparison but is none is refused, not matched
	// as text, and so is a comparison of tags, which are names.
	for _, q := range []string{"[rating:>3 stars] garden", "-[due:<2024-7-1] garden", "[rating:4] [rating:>2] garden", "[tags:>3] garden", "-[tags:<2] garden"} {
		if _, err := e.Search(bg, mdsearch.SearchRequest{Query: q}); mdsearch.KindOf(err) != mdsearch.KindInvalid {
			t.Errorf("%s: %v, want an invalid request", q, err)
		}
	}
}

// BenchmarkComparisons times warm keyword searches and lists of a vault
// of 5,000 notes, each with a number and a date property, under a
// property equal to a value ([rating:5]) beside the range that keeps the
// same notes ([rating:>=5] [rating:<=5]), query by query in turn on one
// engine: what comparing costs beside the filter it replaces, on the same
// results. The vault is made here, so the benchmark needs no corpus.
func BenchmarkComparisons(b *testing.B) {
	vault := b.TempDir()
	words := []string{"garden", "soil", "compost", "tomato", "harvest", "seed", "water", "frost"}
	for i := range 5000 {
		write(b, vault, fmt.Sprintf("n/%04d.md", i), fmt.Sprintf("---\nrating: %d\ndue: 2024-%02d-%02d\n---\n# Note %d\n\nThe garden plan: %s and %s, then %s.\n",
			i%10, 1+i%12, 1+i%28, i, words[i%8], words[(i/8)%8], words[(i/64)%8]))
	}
	e := openEngine(b, filepath.Join(b.TempDir(), "index.db"), nil)
	index(b, e, vault, "v")
	// Every note holds "garden plan", so each query has results.
	queries := []string{"garden plan soil %s", "%s garden plan compost", "%s", "plan harvest %s"}
	conds := [][2]string{{"rating", "5"}, {"due", "2024-06-06"}, {"rating", "2"}, {"due", "2024-03-03"}}
	ask := func(compared bool) func(string) error {
		return func(q string) error {
			c := conds[slices.Index(queries, q)]
			cond := "[" + c[0] + ":" + c[1] + "]"
			if compared {
				cond = "[" + c[0] + ":>=" + c[1] + "] [" + c[0] + ":<=" + c[1] + "]"
			}
			_, err := e.Search(bg, mdsearch.SearchRequest{Query: fmt.Sprintf(q, cond), Mode: mdsearch.ModeKeyword})
			return err
		}
	}
	benchPair(b, queries, "equal", ask(false), "compared", ask(true))
}
