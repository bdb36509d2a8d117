package sentenceencoder

import (
	"slices"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// FuzzTokenizer checks invariants on arbitrary input: no panic, counts agree
// with encodings, truncation keeps a prefix, ids are valid, and runs of
// unknown tokens are merged.
func FuzzTokenizer(f *testing.F) {
	ref := loadReference(f)
	for _, c := range ref.TokenCases {
		f.Add(c.Text)
	}
	f.Add("\xff\xfe invalid utf-8 \xc3")
	tok := testTokenizer(f)
	f.Fuzz(func(t *testing.T, text string) {
		ids := tok.Encode(text)
		if n := tok.Count(text); n != len(ids) {
			t.Fatalf("Count = %d, len(Encode) = %d", n, len(ids))
		}
		for _, limit := range []int{0, 3, Window} {
			got, n := tok.EncodeLimit(text, limit)
			if n != len(ids) || !slices.Equal(got, ids[:min(limit, len(ids))]) && len(got)+len(ids) > 0 {
				t.Fatalf("EncodeLimit(%d) = %v, %d; Encode = %v", limit, got, n, ids)
			}
		}
		for i, id := range ids {
			if id < 0 || int(id) >= tok.VocabSize() || id > 0 && id < reservedIDs {
				t.Fatalf("id %d at %d is not a text token", id, i)
			}
			if i > 0 && id == 0 && ids[i-1] == 0 {
				t.Fatalf("unmerged unknown tokens at %d: %v", i, ids)
			}
		}
		if (len(ids) == 0) != (norm.NFKC.String(text) == "") {
			t.Fatalf("%d ids for %q", len(ids), text)
		}
	})
}
