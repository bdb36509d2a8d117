package store

import (
	"slices"
	"strings"
	"testing"
)

// A passage's RowText holds what its keyword row holds: its text,
// heading path and title; HoldingTexts gives those of the passages
// matching a term, within a filter; NotDocs leaves notes out of a list.
func TestRowTexts(t *testing.T) {
	s := keywordFixture(t, map[string]string{
		"rye":   "a sourdough starter of rye flour",
		"wheat": "a sourdough starter of wheat flour",
		"cake":  "a rye cake",
	})
	ids, err := s.Holding(ctx, []string{`"rye"`}, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var held []int64
	for id := range ids {
		held = append(held, id)
	}
	texts, err := s.RowTexts(ctx, append(held, 9999)) // one no longer stored
	if err != nil {
		t.Fatal(err)
	}
	if len(texts) != 2 {
		t.Fatalf("RowTexts: %d, want the two passages holding rye", len(texts))
	}
	for _, id := range held {
		if tx := texts[id].Text; !strings.Contains(tx, "rye") || !strings.Contains(tx, "Top >") || texts[id].Doc == 0 {
			t.Errorf("RowText %d: %+v, want its text and heading path", id, texts[id])
		}
	}
	var docs []int64
	var got []string
	err = s.HoldingTexts(ctx, []string{`"rye"`}, Filter{PathHas: []string{"cake"}}, func(id int64, t RowText) {
		docs, got = append(docs, t.Doc), append(got, t.Text)
	})
	if err != nil || len(got) != 1 || !strings.Contains(got[0], "rye cake") {
		t.Fatalf("HoldingTexts within path cake: %q, %v", got, err)
	}
	all, n, _, err := s.ListNotes(ctx, Filter{}, ByPath, 10, 0)
	if err != nil || n != 3 {
		t.Fatalf("ListNotes: %d, %v", n, err)
	}
	left, n, _, err := s.ListNotes(ctx, Filter{NotDocs: docs}, ByPath, 10, 0)
	if err != nil || n != 2 || len(left) != 2 || slices.ContainsFunc(left, func(l Listed) bool { return l.DocID == docs[0] }) || len(all) != 3 {
		t.Errorf("ListNotes without the cake: %d %+v, %v", n, left, err)
	}
}
