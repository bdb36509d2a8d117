package chunks

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Sentences end at '.', '!' or '?' before a space, and at the full stops
// of Chinese and Japanese with no space after them.
func TestSentenceCuts(t *testing.T) {
	for _, tt := range []struct {
		text string
		want []string
	}{
		{"One. Two! Three? Four", []string{"One. ", "Two! ", "Three? ", "Four"}},
		{"e.g. this", []string{"e.g. ", "this"}},
		{"我们去了。然后回家！真的吗？好", []string{"我们去了。", "然后回家！", "真的吗？", "好"}},
		{"他说：「走吧。」然后走了。", []string{"他说：「走吧。」", "然后走了。"}},
		{"終わり。 次", []string{"終わり。 ", "次"}},
		{"ＡＢ。", []string{"ＡＢ。"}},
	} {
		src := []byte(tt.text)
		var got []string
		start := 0
		for _, c := range append(sentenceCuts(src, 0, len(src)), len(src)) {
			got = append(got, string(src[start:c]))
			start = c
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("sentenceCuts(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// A cut inside a run of characters never leaves a mark at the start of a
// piece: it moves back before the character the mark is written on.
func TestPieceStartMarks(t *testing.T) {
	src := []byte("ที่นี่") // ท ี ่ น ี ่, three bytes each: pieces start at 0 or 9
	for c := 0; c < len(src); c++ {
		if got := pieceStart(src, 0, c); got != 0 && got != 9 || got > c {
			t.Errorf("pieceStart(%d) = %d, want 0 or 9 (before น), at most %d", c, got, c)
		}
	}
	if got := pieceStart([]byte("e\u0301x"), 0, 1); got != 0 {
		t.Errorf("inside e + accent: %d, want 0", got)
	}
}

// A long block quote or callout is cut at its lines: each passage and
// window of it starts at a line, with the quote's "> ", never mid-line
// after a sentence's full stop.
func TestQuoteCutAtLines(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Note\n\n> [!note] Aside\n")
	for i := range 120 {
		fmt.Fprintf(&b, "> Sentence %d ends here. Another begins on word%d and runs\n", i, i)
	}
	opts := DefaultOptions()
	opts.MaxTokens, opts.PassageWords = 48, 120
	src := b.String()
	_, cs := split(t, src, opts)
	if len(cs) < 3 {
		t.Fatalf("%d passages, want the quote cut", len(cs))
	}
	for i, c := range cs[1:] {
		if !strings.HasPrefix(c.Text, "> ") {
			t.Errorf("passage %d starts %q, want a quote line", i+1, c.Text[:min(30, len(c.Text))])
		}
		for j, w := range c.Windows {
			if !w.Heading && (src[w.StartByte-1] != '\n' || src[w.StartByte] != '>') {
				t.Errorf("passage %d window %d starts %q, want a quote line", i+1, j, src[w.StartByte:w.StartByte+30])
			}
		}
	}
}
