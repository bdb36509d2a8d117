package sections

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mdsearch/mdsearch/internal/testenv"
)

// nest builds a note whose item i is nested i+1 levels deep.
func nest(levels int, line func(i int) string) string {
	var b strings.Builder
	for i := range levels {
		b.WriteString(line(i) + "\n")
	}
	return b.String()
}

func list(i int) string    { return strings.Repeat("  ", i) + "- item" }
func ordered(i int) string { return strings.Repeat("   ", i) + "1. item" }
func quote(i int) string   { return strings.Repeat("> ", i+1) + "quote" }
func mixed(i int) string   { return strings.Repeat("> - ", i/2+1) + "x" }

func TestCheckNesting(t *testing.T) {
	deepCode := "```\n" + nest(300, list) + "```\n"
	cases := []struct {
		name string
		src  string
		line int // 0: accepted
	}{
		{"prose", "# T\n\nText with > and - inside.\n\n- a\n  - b\n    - c\n", 0},
		{"list at the limit", nest(MaxNesting, list), 0},
		{"list past the limit", nest(MaxNesting+1, list), MaxNesting + 1},
		{"ordered lists", nest(MaxNesting, ordered), 68},
		{"blockquotes at the limit", nest(MaxNesting, quote), 0},
		{"blockquotes past the limit", nest(MaxNesting+1, quote), MaxNesting + 1},
		{"quotes and lists", nest(3*MaxNesting, mixed), 101},
		{"one deep line", strings.Repeat(">", 500) + " x\n", 1},
		{"indented code in a fence", deepCode, 0},
		{"deep after a closed fence", deepCode + nest(MaxNesting+1, quote), 300 + 2 + MaxNesting + 1},
		{"a backtick info string opens no fence", "``` a`b\n" + nest(MaxNesting+1, quote), MaxNesting + 2},
		{"a fence with text after it closes nothing", "~~~\n~~~ x\n" + nest(MaxNesting+1, quote), 0},
		{"a shorter fence closes nothing", "````\n```\n" + nest(MaxNesting+1, quote) + "````\n", 0},
		{"a line of spaces", strings.Repeat(" ", 500) + "\n", 0},
		{"text indented by tabs", strings.Repeat("\t", 60) + "x\n", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckNesting([]byte(c.src))
			var ne *NestingError
			switch {
			case c.line == 0 && err != nil:
				t.Errorf("refused: %v", err)
			case c.line != 0 && (!errors.As(err, &ne) || ne.Line != c.line || ne.Depth <= MaxNesting):
				t.Errorf("got %v, want a NestingError at line %d", err, c.line)
			case c.line != 0 && !strings.Contains(err.Error(), "levels deep"):
				t.Errorf("message: %v", err)
			}
		})
	}
}

// TestNestingBound: what CheckNesting accepts parses quickly, and the 9 MB
// note of 3,000 nested list items that took goldmark most of a minute is
// refused in a fraction of a second.
func TestNestingBound(t *testing.T) {
	for _, src := range []string{nest(MaxNesting, list), nest(MaxNesting, quote), strings.Repeat(nest(MaxNesting, list), 50)} {
		if err := CheckNesting([]byte(src)); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		Parse("x.md", []byte(src))
		if d := time.Since(start); d > 2*time.Second*testenv.RaceSlowdown() {
			t.Errorf("parsing an accepted note of %d bytes took %v", len(src), d)
		}
	}
	huge := []byte(nest(3000, list))
	start := time.Now()
	if CheckNesting(huge) == nil {
		t.Fatal("3,000 levels accepted")
	}
	if d := time.Since(start); d > time.Second*testenv.RaceSlowdown() {
		t.Errorf("checking %d bytes took %v", len(huge), d)
	}
}

// TestTableBound: a note of more table cells than maxTablePipes parses its
// tables as text, in bounded memory; a long table under the bound stays a
// table.
func TestTableBound(t *testing.T) {
	table := func(cols, rows int) []byte {
		row := strings.Repeat("| x ", cols) + "|\n"
		return []byte("# T\n\n" + strings.Repeat("| h ", cols) + "|\n" + strings.Repeat("|---", cols) + "|\n" + strings.Repeat(row, rows))
	}
	kinds := func(d *Document) (tables int) {
		for _, s := range d.Sections {
			for _, b := range s.Blocks {
				if b.Kind == Table {
					tables++
				}
			}
		}
		return tables
	}
	if d := Parse("ok.md", table(10, 1000)); kinds(d) != 1 {
		t.Errorf("a table of 10,000 cells: %d tables", kinds(d))
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	d := Parse("wide.md", table(5000, 100)) // 500,000 cells, 1 MB
	runtime.ReadMemStats(&after)
	if kinds(d) != 0 {
		t.Errorf("a table of 500,000 cells parsed as a table")
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("parsing 1 MB of table cells allocated %d MB", grew>>20)
	}
}
