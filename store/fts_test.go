package store

import (
	"strings"
	"testing"
)

// TestKeywordAny checks both paths: rows holding every term answer when
// they fill the limit (with the scores the OR query gives them), and the
// OR query answers when they do not.
func TestKeywordAny(t *testing.T) {
	s := open(t)
	c, err := s.AddCollection(ctx, "c", "/vault/c")
	if err != nil {
		t.Fatal(err)
	}
	// Three passages hold both words; two hold "lifetime" alone, many
	// times, which gives them a better bm25 than some of the three.
	texts := map[string]string{
		"both1": "lifetime elision rules",
		"both2": "lifetime elision in practice, with more words around it to make it long",
		"both3": "elision of a lifetime, and a long passage around it so it ranks low among the rest",
		"one1":  "lifetime lifetime lifetime lifetime",
		"one2":  "lifetime lifetime lifetime",
		"none":  "unrelated text",
	}
	for name, text := range texts {
		put(t, s, c.ID, name+".md", name, nil, chunk(name+".md", 0, name, text))
	}
	terms := []string{`"lifetime"`, `"elision"`}
	or := func(limit int) []KeywordHit {
		hits, err := s.Keyword(ctx, strings.Join(terms, " OR "), Filter{}, DefaultWeights, limit)
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}
	score := map[int64]float64{}
	for _, h := range or(10) {
		score[h.ChunkID] = h.BM25
	}
	if len(score) != 5 {
		t.Fatalf("OR matched %d passages, want 5", len(score))
	}
	names := func(hits []KeywordHit) string {
		ids := make([]int64, len(hits))
		for i, h := range hits {
			ids[i] = h.ChunkID
		}
		rows, err := s.Chunks(ctx, ids)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range hits {
			out = append(out, rows[h.ChunkID].Section)
		}
		return strings.Join(out, " ")
	}
	cases := []struct {
		terms []string
		limit int
		want  string // "" : the OR query's answer
	}{
		{terms, 3, "both1 both2 both3"}, // all three hold both words: the OR query's "one1" is left out
		{terms, 2, "both1 both2"},
		{terms, 4, ""}, // three hold both: too few, so the OR query answers
		{terms, 10, ""},
		{terms[:1], 2, ""},
	}
	for _, tc := range cases {
		got, err := s.KeywordAny(ctx, tc.terms, Filter{}, DefaultWeights, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		want := tc.want
		if want == "" {
			hits, err := s.Keyword(ctx, strings.Join(tc.terms, " OR "), Filter{}, DefaultWeights, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			want = names(hits)
		}
		if g := names(got); g != want {
			t.Errorf("%v limit %d: %s, want %s", tc.terms, tc.limit, g, want)
		}
		for _, h := range got {
			if len(tc.terms) == len(terms) && h.BM25 != score[h.ChunkID] {
				t.Errorf("%v limit %d: chunk %d bm25 %v, the OR query gives %v", tc.terms, tc.limit, h.ChunkID, h.BM25, score[h.ChunkID])
			}
		}
	}
	// The case the shortcut exists for must differ from the OR query, or
	// the test above would pass with KeywordAny being the OR query.
	if names(or(3)) == "both1 both2 both3" {
		t.Fatalf("OR top 3 is %s: the fixture no longer tells the two paths apart", names(or(3)))
	}
}
