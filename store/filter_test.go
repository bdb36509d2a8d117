package store

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A tag filter keeps the notes that carry the tag or a tag nested under
// it, and no other tag that starts with its letters; its negation leaves
// out the same notes.
func TestTagRange(t *testing.T) {
	docs := map[int64]string{}
	var notes []Document
	for _, tag := range []string{"work", "work/p1", "work/é/deep", "work-old", "work0", "workout", "wor", "w/work"} {
		notes = append(notes, Document{Path: tag + ".md", Tags: []string{tag}})
	}
	s, ids := storeOf(t, notes)
	for i, id := range ids {
		docs[id] = notes[i].Tags[0]
	}
	for _, tt := range []struct {
		f    Filter
		want string
	}{
		{Filter{Tag: "work"}, "work work/p1 work/é/deep"},
		{Filter{Tag: "Work/É"}, "work/é/deep"},
		{Filter{NotTags: []string{"work"}}, "w/work wor work-old work0 workout"},
	} {
		hits, err := s.Keyword(ctx, `"zebra"`, tt.f, DefaultWeights, 100)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range hits {
			got = append(got, docs[h.DocID])
		}
		slices.Sort(got)
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%+v: %q, want %q", tt.f, got, tt.want)
		}
	}
}

// NearPath finds the text of a path that a filter meant but for its
// spaces, hyphens and underscores, shortest paths first.
func TestNearPath(t *testing.T) {
	s, _ := storeOf(t, []Document{{Path: "3392-leadership-council/Leadership-Council-RFC.md"}, {Path: "Daily_Notes/2024 Review.md"}, {Path: "x.md"}})
	for _, tt := range []struct{ text, want string }{
		{"leadership council", "leadership-council"}, // the shorter path's, first in it
		{"Daily Notes", "Daily_Notes"},
		{"2024-review", "2024 Review"},
		{"nowhere", ""},
		{"   ", ""},
		{"2024 review", ""}, // held as written: nothing to suggest
	} {
		got, ok, err := s.NearPath(ctx, tt.text, false)
		if err != nil || got != tt.want || ok != (tt.want != "") {
			t.Errorf("%q: %q %v %v, want %q", tt.text, got, ok, err, tt.want)
		}
	}
	// A prefix is near only at a path's start.
	for text, want := range map[string]string{"3392 leadership": "3392-leadership", "leadership council": "", "daily notes/": "Daily_Notes/"} {
		if got, ok, err := s.NearPath(ctx, text, true); err != nil || got != want || ok != (want != "") {
			t.Errorf("prefix %q: %q %v %v, want %q", text, got, ok, err, want)
		}
	}
}

// storeOf is a new store of one collection holding notes (their path and
// tags), each of one passage that reads "zebra", and their IDs.
func storeOf(t *testing.T, notes []Document) (*Store, []int64) {
	t.Helper()
	s, _, err := Open(ctx, filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	coll, err := s.AddCollection(ctx, "c", "/c")
	if err != nil {
		t.Fatal(err)
	}
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, len(notes))
	for i, d := range notes {
		d.CollectionID, d.Title, d.Hash = coll.ID, "T", []byte{1}
		if ids[i], err = tx.PutDocument(d, []mdsearch.Chunk{chunk(d.Path, 0, "S", "zebra")}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return s, ids
}
