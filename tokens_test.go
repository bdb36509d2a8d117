package mdsearch

import "testing"

func TestReadingTokens(t *testing.T) {
	for _, c := range []struct {
		words, bytes int
		want         int
	}{
		{10, 50, 13},  // prose: 1.3 a word
		{1, 400, 100}, // one long word of code: a token per 4 bytes
		{0, 0, 0},
	} {
		if got := ReadingTokens(c.words, c.bytes); got != c.want {
			t.Errorf("ReadingTokens(%d, %d) = %v, want %v", c.words, c.bytes, got, c.want)
		}
	}
}
