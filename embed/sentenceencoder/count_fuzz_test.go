package sentenceencoder

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzCount holds the count path to the reference on arbitrary text:
// Count equals the reference lattice's count and the length of Encode, also
// when the text's words come again at other bases (the text twice), with a
// warm cache.
func FuzzCount(f *testing.F) {
	for _, c := range loadReference(f).TokenCases {
		f.Add(c.Text)
	}
	for _, s := range []string{
		"", " ", "  leading and trailing  ", "tab\tand\nnewline\r\n", "\x00\x01\x7f",
		"ﬁne ﬂow", "ＦＵＬＬ　ｗｉｄｔｈ", "①②③ ㎏ ㍻", "e\u0301 n\u0303 a\u030a", "\u0301 leading mark",
		"emoji 🎉👍🏽 👨‍👩‍👧", "ﾊﾝｶｸ ｶﾀｶﾅ", "\u00a0nbsp\u2009thin\u3000ideographic",
		"▁literal▁separator", "“quotes” — dash – 2015·", "12:30 :00 :) ://", "\xff\xfe invalid \xc3",
		"`code` **bold** [link](http://x.y/z?q=1)", "Ωmega ǅ ﬀ ℌ ⅷ",
	} {
		f.Add(s)
	}
	if files, _ := filepath.Glob(filepath.Join(benchCorpus, "*.md")); len(files) > 0 {
		for _, name := range files[:min(5, len(files))] {
			if data, err := os.ReadFile(name); err == nil {
				f.Add(string(data[:min(600, len(data))]))
			}
		}
	}
	tok := testTokenizer(f)
	f.Fuzz(func(t *testing.T, text string) {
		for _, s := range []string{text, text + " " + text, "x " + text} {
			want := refCount(tok, s)
			if got := tok.Count(s); got != want {
				t.Fatalf("Count(%q) = %d, reference %d", s, got, want)
			}
			if n := len(tok.Encode(s)); n != want {
				t.Fatalf("len(Encode(%q)) = %d, reference count %d", s, n, want)
			}
		}
	})
}
