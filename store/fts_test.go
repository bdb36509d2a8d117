package store

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestKeywordAny checks both paths: rows holding every term answer when
// there are tierRows of them (with the scores the OR query gives them),
// the OR query's other rows following where more are asked for, and the
// OR query answers when they are fewer, whatever the limit.
func TestKeywordAny(t *testing.T) {
	// Three passages hold both words; two hold "lifetime" alone, many
	// times, which gives them a better bm25 than some of the three.
	s := keywordFixture(t, map[string]string{
		"both1": "lifetime elision rules",
		"both2": "lifetime elision in practice, with more words around it to make it long",
		"both3": "elision of a lifetime, and a long passage around it so it ranks low among the rest",
		"one1":  "lifetime lifetime lifetime lifetime",
		"one2":  "lifetime lifetime lifetime",
		"none":  "unrelated text",
	})
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
	names := func(hits []KeywordHit) string { return hitSections(t, s, hits) }
	defer func(n int) { tierRows = n }(tierRows)
	cases := []struct {
		terms       []string
		tier, limit int
		want        string // "" : the OR query's answer
	}{
		{terms, 3, 3, "both1 both2 both3"}, // all three hold both words: the OR query's "one1" is left out
		{terms, 3, 2, "both1 both2"},
		{terms, 3, 4, "both1 both2 both3 one1"}, // then the OR query's best other rows
		{terms, 2, 2, "both1 both2"},
		{terms, 4, 2, ""}, // three hold both: too few for the tier, so the OR query answers
		{terms, 4, 10, ""},
		{terms[:1], 1, 2, ""},
	}
	for _, tc := range cases {
		tierRows = tc.tier
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
			t.Errorf("%v tier %d limit %d: %s, want %s", tc.terms, tc.tier, tc.limit, g, want)
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

// TestKeywordAnyTiers checks the all-but-one tier: with one row holding
// all three terms, the rows missing one term fill the list, with the
// scores the OR query gives them, ahead of rows holding a single term
// many times.
func TestKeywordAnyTiers(t *testing.T) {
	s := keywordFixture(t, map[string]string{
		"abc":  "question mark operator in a long passage with a good many other words in it too",
		"ab1":  "question mark, and a long passage with a good many other words in it as well",
		"ab2":  "a question with a mark, in a long passage with a good many other words in it",
		"bc":   "mark the operator, in a long passage with a good many other words in it again",
		"a1":   "question question question question",
		"a2":   "question question question",
		"none": "unrelated",
	})
	terms := []string{`"question"`, `"mark"`, `"operator"`}
	or, err := s.Keyword(ctx, strings.Join(terms, " OR "), Filter{}, DefaultWeights, 10)
	if err != nil {
		t.Fatal(err)
	}
	score := map[int64]float64{}
	for _, h := range or {
		score[h.ChunkID] = h.BM25
	}
	if got := hitSections(t, s, or); got != "abc bc a1 a2 ab1 ab2" {
		t.Fatalf("OR query: %s; the fixture no longer tells the tiers apart from it", got)
	}
	defer func(n int) { tierRows = n }(tierRows)
	cases := []struct {
		tier, limit int
		want        string
	}{
		{4, 4, "abc bc ab1 ab2"},    // one row holds all three, three hold two: they fill the tier
		{4, 2, "abc bc"},            // the same tier, cut
		{4, 5, "abc bc ab1 ab2 a1"}, // then the OR query's best other row
		{5, 4, "abc bc a1 a2"},      // too few hold two terms or more: the OR query answers
		{1, 1, "abc"},               // the rows holding every term fill the tier alone
		{1, 2, "abc bc"},
	}
	for _, tc := range cases {
		tierRows = tc.tier
		got, err := s.KeywordAny(ctx, terms, Filter{}, DefaultWeights, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		if g := hitSections(t, s, got); g != tc.want {
			t.Errorf("tier %d limit %d: %s, want %s", tc.tier, tc.limit, g, tc.want)
		}
		for _, h := range got {
			if h.BM25 != score[h.ChunkID] {
				t.Errorf("limit %d: chunk %d bm25 %v, the OR query gives %v", tc.limit, h.ChunkID, h.BM25, score[h.ChunkID])
			}
		}
	}
	// Whatever the tier, a shorter list is the start of a longer one: a
	// search's candidates do not depend on how many results it asks for.
	for tier := 1; tier <= 7; tier++ {
		tierRows = tier
		long, err := s.KeywordAny(ctx, terms, Filter{}, DefaultWeights, 7)
		if err != nil {
			t.Fatal(err)
		}
		for limit := 1; limit < 7; limit++ {
			got, err := s.KeywordAny(ctx, terms, Filter{}, DefaultWeights, limit)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := hitSections(t, s, got), hitSections(t, s, long[:min(limit, len(long))]); g != w {
				t.Errorf("tier %d limit %d: %s, not the start of %s", tier, limit, g, hitSections(t, s, long))
			}
		}
	}
}

// keywordFixture is a store with one collection holding one passage per
// text, named (note and section) by its key.
func keywordFixture(t *testing.T, texts map[string]string) *Store {
	t.Helper()
	s := open(t)
	c, err := s.AddCollection(ctx, "c", "/vault/c")
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range texts {
		put(t, s, c.ID, name+".md", name, nil, chunk(name+".md", 0, name, text))
	}
	return s
}

// hitSections names the hits' sections in order, space-separated.
func hitSections(t *testing.T, s *Store, hits []KeywordHit) string {
	t.Helper()
	rows, err := s.Chunks(ctx, hitIDs(hits))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = rows[h.ChunkID].Section
	}
	return strings.Join(out, " ")
}

func hitIDs(hits []KeywordHit) []int64 {
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.ChunkID
	}
	return ids
}

// TestTermRows: the row count read from FTS5's own record is the index's,
// and each term's count is its matching rows, capped at the limit.
func TestTermRows(t *testing.T) {
	s := open(t)
	if total, err := s.KeywordRows(ctx); err != nil || total != 0 {
		t.Fatalf("empty index: %d rows, %v", total, err)
	}
	c, _ := s.AddCollection(ctx, "notes", "/v")
	for _, p := range []string{"a.md", "b.md", "c.md"} {
		put(t, s, c.ID, p, "T", nil, chunk(p, 0, "A", "apple banana"), chunk(p, 1, "B", "cherry"))
	}
	var want int
	if err := s.w.QueryRow(`SELECT count(*) FROM chunks_fts`).Scan(&want); err != nil {
		t.Fatal(err)
	}
	counts, err := s.TermRows(ctx, []string{`"apple"`, `"cherry"`, `"apple banana"`, `"zzz"`}, 2)
	if err != nil {
		t.Fatal(err)
	}
	total, err := s.KeywordRows(ctx)
	if err != nil || total != want || want != 6 {
		t.Fatalf("%d rows, want %d (6): %v", total, want, err)
	}
	if got := fmt.Sprint(counts); got != "[2 2 2 0]" {
		t.Errorf("counts capped at 2: got %s, want [2 2 2 0]", got)
	}
	// After a note is replaced, and after another is deleted.
	put(t, s, c.ID, "a.md", "T", nil, chunk("a.md", 0, "A", "apple"))
	var id int64 // before the transaction: it holds the one writing connection
	if err := s.w.QueryRow(`SELECT id FROM documents WHERE path = 'b.md'`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	deleteDoc(t, s, id)
	if err := s.w.QueryRow(`SELECT count(*) FROM chunks_fts`).Scan(&want); err != nil {
		t.Fatal(err)
	}
	if total, err := s.KeywordRows(ctx); err != nil || total != want || want != 3 {
		t.Errorf("after a replace and a delete: %d rows, want %d (3): %v", total, want, err)
	}
}

// TestTermsInScope: a term is in scope when a row the filter lets
// through matches it.
func TestTermsInScope(t *testing.T) {
	s, a, b := twoCollections(t)
	terms := []string{`"apple"`, `"banana"`, `"zzz"`}
	for _, c := range []struct {
		f    Filter
		want []bool
	}{
		{Filter{}, []bool{true, true, false}},
		{Filter{CollectionID: a.ID}, []bool{true, false, false}},
		{Filter{CollectionID: b.ID}, []bool{false, true, false}},
		{Filter{Exclude: []string{"x.md"}}, []bool{false, false, false}},
		{Filter{Exclude: []string{"y.md"}}, []bool{true, true, false}},
		{Filter{ExcludeIn: []NotePath{{Collection: "a", Path: "x.md"}}}, []bool{false, true, false}},
	} {
		if got, err := s.TermsInScope(ctx, terms, c.f); err != nil || !slices.Equal(got, c.want) {
			t.Errorf("TermsInScope(%+v) = %v, %v; want %v", c.f, got, err, c.want)
		}
	}
	if got, err := s.TermsInScope(ctx, nil, Filter{}); err != nil || len(got) != 0 {
		t.Errorf("no terms: %v, %v", got, err)
	}
}

func TestVarint(t *testing.T) {
	cases := []struct {
		in   []byte
		want uint64
		ok   bool
	}{
		{[]byte{0x00}, 0, true},
		{[]byte{0x7f, 0xff}, 127, true},
		{[]byte{0x81, 0x00}, 128, true},
		{[]byte{0x83, 0x74, 0x07}, 500, true},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 1<<64 - 1, true},
		{[]byte{0x81}, 0, false},
		{nil, 0, false},
	}
	for _, c := range cases {
		got, size := varint(c.in)
		if ok := size > 0; got != c.want || ok != c.ok {
			t.Errorf("varint(% x) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// twoCollections is an index of collections a and b, each holding x.md:
// a's of the word apple, b's of banana.
func twoCollections(t *testing.T) (s *Store, a, b *Collection) {
	s = open(t)
	a, _ = s.AddCollection(ctx, "a", "/a")
	b, _ = s.AddCollection(ctx, "b", "/b")
	put(t, s, a.ID, "x.md", "T", nil, chunk("x.md", 0, "A", "apple"))
	put(t, s, b.ID, "x.md", "T", nil, chunk("x.md", 0, "B", "banana"))
	return s, a, b
}

// KeywordHolding keeps the chunks that hold one of must, each with the
// bm25 KeywordAny gives it (each phrase named once), within a filter too;
// Holding names the same chunks.
func TestKeywordHolding(t *testing.T) {
	s := keywordFixture(t, map[string]string{
		"tab1":  "open in new tab with a middle click",
		"tab2":  "a new tab opens; open in new tab from the menu, the tab bar",
		"words": "open the menu, a tab, new things",
		"none":  "unrelated text",
	})
	terms := []string{`"open in new tab"`, `"menu"`}
	must := []string{`"open in new tab"`}
	all, err := s.KeywordAny(ctx, terms, Filter{}, DefaultWeights, 10)
	if err != nil {
		t.Fatal(err)
	}
	score := map[int64]float64{}
	for _, h := range all {
		score[h.ChunkID] = h.BM25
	}
	for _, f := range []Filter{{}, {PathPrefix: "tab"}} {
		for _, terms := range [][]string{terms, must} {
			kept, err := s.KeywordHolding(ctx, terms, must, f, DefaultWeights, 10)
			if err != nil {
				t.Fatal(err)
			}
			if got := hitSections(t, s, kept); got != "tab2 tab1" && got != "tab1 tab2" {
				t.Errorf("filter %+v, terms %q: %q, want tab1 and tab2", f, terms, got)
			}
			if len(terms) == 1 {
				continue // bm25 of the phrase alone: another query
			}
			for _, h := range kept {
				if math.Abs(h.BM25-score[h.ChunkID]) > 1e-9 {
					t.Errorf("filter %+v: bm25 %v holding, %v of every term", f, h.BM25, score[h.ChunkID])
				}
			}
		}
		held, err := s.Holding(ctx, must, f)
		if err != nil {
			t.Fatal(err)
		}
		if len(held) != 2 {
			t.Errorf("filter %+v: Holding %v, want tab1 and tab2", f, held)
		}
	}
}
