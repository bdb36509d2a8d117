package sections

import (
	"strings"
	"testing"
)

// TestPlainWhenCostly: a note whose structure would cost more than
// maxParseCost to parse is read as plain text, one section of blocks that
// tile its body; an ordinary note, however long its lines, is parsed.
func TestPlainWhenCostly(t *testing.T) {
	cases := []struct {
		name  string
		src   string
		plain bool
	}{
		{"ordinary note", "# A\n\ntext #tag\n\n## B\n\n- x\n- y\n", false},
		{"one long line", strings.Repeat("word ", 1<<20), false},
		{"long fenced code", "```\n" + strings.Repeat("x\n", 100_000) + "```\n", false},
		{"many headings", strings.Repeat("# h\n", 60_000), true},
		{"deep lists", strings.Repeat(strings.Repeat("- ", 100)+"x\n", 2_000), true},
		{"many short lines", strings.Repeat("a\n", 500_000), true},
		{"long heading", "# " + strings.Repeat("*a* ", 20_000) + "\n", true},
		{"long setext heading", strings.Repeat("[a](b) ", 10_000) + "\n===\n", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := Parse("n.md", []byte(c.src))
			plain := len(d.Warnings) > 0 && strings.Contains(d.Warnings[0], "read as plain text")
			if plain != c.plain {
				t.Fatalf("plain %v, want %v (warnings %q)", plain, c.plain, d.Warnings)
			}
			if !c.plain {
				return
			}
			if len(d.Sections) != 1 || len(d.Headings) != 0 || d.Sections[0].Level != 0 {
				t.Fatalf("%d sections, %d headings; want the preamble alone", len(d.Sections), len(d.Headings))
			}
			checkPlainBlocks(t, d)
		})
	}
}

// checkPlainBlocks checks that the blocks are in order, start at line
// starts and count every word.
func checkPlainBlocks(t *testing.T, d *Document) {
	s := d.Sections[0]
	end := s.BodyStart
	for _, b := range s.Blocks {
		if b.StartByte < end || (b.StartByte > 0 && d.Src[b.StartByte-1] != '\n') {
			t.Fatalf("block %d-%d after %d, or not at a line start", b.StartByte, b.EndByte, end)
		}
		end = b.EndByte
	}
	if s.BodyWords != d.WordCount {
		t.Errorf("blocks count %d words, the note %d", s.BodyWords, d.WordCount)
	}
}

// TestPlainKeepsFrontmatter: frontmatter is still read, and its tags kept.
func TestPlainKeepsFrontmatter(t *testing.T) {
	src := "---\ntitle: Big\ntags: [x]\n---\n" + strings.Repeat("# h #t\n", 60_000)
	d := Parse("n.md", []byte(src))
	if d.Title != "Big" || len(d.Tags) != 1 || d.Tags[0] != "x" || d.Body == 0 {
		t.Errorf("title %q, tags %q, body %d", d.Title, d.Tags, d.Body)
	}
}

// TestPlainLeavesOutAnchors: read as plain text, a block that is HTML
// anchors alone is left out of passage text as in a parsed note: the
// block is no passage's, so its markup must not show in one either.
func TestPlainLeavesOutAnchors(t *testing.T) {
	const anchors = 20 // 15 bytes a line: the first plain block is 13 of them alone
	src := strings.Repeat(`<a id="x"></a>`+"\n", anchors) + strings.Repeat("# h\n", 60_000)
	d := Parse("n.md", []byte(src))
	if len(d.Warnings) == 0 || !strings.Contains(d.Warnings[0], "read as plain text") {
		t.Fatalf("not read as plain text: %q", d.Warnings)
	}
	s := d.Sections[0]
	shown := strings.Count(d.PassageText(s.BodyStart, s.EndByte), "<a ")
	left := 0
	for _, r := range d.LeftOut() {
		left += strings.Count(string(d.Src[r[0]:r[1]]), "<a ")
	}
	if left == 0 || shown+left != anchors {
		t.Errorf("%d anchors shown, %d left out; want some left out, %d in all", shown, left, anchors)
	}
	checkPlainBlocks(t, d)
}
