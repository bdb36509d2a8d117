package store

import (
	"path/filepath"
	"testing"
	"unicode/utf8"
)

func TestEditDistance(t *testing.T) {
	cases := []struct {
		a, b string
		max  int
		want int
	}{
		{"", "", 2, 0},
		{"react", "react", 2, 0},
		{"reactivty", "reactivity", 2, 1},   // a letter left out
		{"recieve", "receive", 2, 1},        // two neighbours swapped
		{"kitten", "sitting", 3, 3},         // two substitutions and an insertion
		{"kitten", "sitting", 2, 3},         // over max: max+1
		{"propertes", "properties", 1, 1},   // inserted
		{"a", "abcdef", 2, 3},               // lengths alone rule it out
		{"ça", "ca", 2, 1},                  // runes, not bytes
		{"abcdef", "badcfe", 6, 3},          // three swaps
		{"composables", "composable", 2, 1}, // one deleted at the end
	}
	for _, c := range cases {
		if got := EditDistance([]rune(c.a), []rune(c.b), c.max); got != c.want {
			t.Errorf("EditDistance(%q, %q, %d) = %d, want %d", c.a, c.b, c.max, got, c.want)
		}
	}
}

// FuzzEditDistance checks the distance's invariants: symmetric, zero
// exactly for equal words, at least the difference in length, at most the
// longer length, and the bounded count agreeing with the full one.
func FuzzEditDistance(f *testing.F) {
	for _, s := range [][2]string{{"reactivty", "reactivity"}, {"recieve", "receive"}, {"", "x"}, {"ça", "ac"}} {
		f.Add(s[0], s[1], 2)
	}
	f.Fuzz(func(t *testing.T, a, b string, max int) {
		if !utf8.ValidString(a) || !utf8.ValidString(b) || len(a) > 64 || len(b) > 64 || max < 0 || max > 70 {
			return
		}
		ra, rb := []rune(a), []rune(b)
		full := EditDistance(ra, rb, len(ra)+len(rb))
		if back := EditDistance(rb, ra, len(ra)+len(rb)); back != full {
			t.Fatalf("not symmetric: %d, %d", full, back)
		}
		if (full == 0) != (a == b) {
			t.Fatalf("distance %d for %q, %q", full, a, b)
		}
		if d := len(ra) - len(rb); full < d || full < -d || full > max2(len(ra), len(rb)) {
			t.Fatalf("distance %d out of range for lengths %d, %d", full, len(ra), len(rb))
		}
		got := EditDistance(ra, rb, max)
		if full <= max && got != full || full > max && got != max+1 {
			t.Fatalf("bounded by %d: %d, full %d", max, got, full)
		}
	})
}

func max2(a, b int) int { return max(a, b) }

func TestRespell(t *testing.T) {
	s := open(t)
	c, _ := s.AddCollection(ctx, "notes", "/v")
	put(t, s, c.ID, "a.md", "Reactivity", nil,
		chunk("a.md", 0, "Reactivity", "The reactivity system tracks reactive state in a component."),
		chunk("a.md", 1, "Refs", "A ref holds a value; refs are reactive too. Call defineProps() first."))
	put(t, s, c.ID, "b.md", "Rendering", nil,
		chunk("b.md", 0, "Render", "Rendering reads reactive state. Components receive props."),
		chunk("b.md", 1, "Suspense", "Suspense waits for async components. How long? It depends."),
		chunk("b.md", 2, "Scarcity", "It scarcely matters."))
	cases := []struct{ word, want string }{
		{"reactivty", "reactivity"},   // its stem "reactivti" is two edits from "reactiv"
		{"recieve", "receive"},        // neighbours swapped
		{"compnent", "component"},     // its stem keeps "ent": near a start of it, "compon"
		{"suspence", "suspense"},      // "suspens" stemmed again is "suspen": found by the stem itself
		{"defineprps", "defineProps"}, // a code name keeps its case
		{"reactivt", "reactive"},      // its stem "reactivt" is one edit from "reactiv"
		{"rec", ""},                   // too short to guess
		{"refz", "refs"},              // four letters: one edit
		{"hooch", ""},                 // "how" is near a start of it, but three edits from it
		{"reactivityy", "reactivity"},
		{"rendreing", "rendering"}, // its stem keeps the swap: near "render", a start of it
		{"argumnets", ""},          // no passage holds the word
		{"zebra", ""},              // no term of its first letter
		{"scarf", ""},              // "scarc" (of "scarcely") is one edit from it, "scarcely" four
	}
	for _, tc := range cases {
		got, err := s.Respell(ctx, tc.word)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("Respell(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}

// An index written before vocabTables, opened read-only, offers no
// respelling and no error; opened for writing it gets the tables.
func TestRespellOlderIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	s, _, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := s.AddCollection(ctx, "notes", "/v")
	put(t, s, c.ID, "a.md", "T", nil, chunk("a.md", 0, "A", "reactivity"))
	for _, q := range []string{`DROP TABLE chunks_vocab`, `DROP TABLE chunks_instances`} {
		if _, err := s.w.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	for _, readOnly := range []bool{true, false} {
		s, _, err := openIndex(ctx, path, readOnly)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Respell(ctx, "reactivty")
		if want := map[bool]string{true: "", false: "reactivity"}[readOnly]; got != want || err != nil {
			t.Errorf("read-only %v: %q, %v; want %q", readOnly, got, err, want)
		}
		s.Close()
	}
}

// In a large index the stems of the word's first two letters are read
// first: a misspelled second letter is then found only when none of them
// is near.
func TestRespellNarrow(t *testing.T) {
	s := open(t)
	c, _ := s.AddCollection(ctx, "notes", "/v")
	put(t, s, c.ID, "a.md", "Remote", nil,
		chunk("a.md", 0, "Remote", "A remote component runs cmp on the server."))
	defer func(n int) { narrowRows = n }(narrowRows)
	for _, tc := range []struct {
		narrow     int
		word, want string
	}{
		{1 << 30, "cmopnent", "component"}, // a small index: every stem of the letter
		{0, "cmopnent", ""},                // a large one: "cmp" is near a start of it, and no stem of "co" is read
		{0, "rmote", "remote"},             // no stem of "rm" is near: the letter's are read
		{0, "remoet", "remote"},
	} {
		narrowRows = tc.narrow
		if got, err := s.Respell(ctx, tc.word); err != nil || got != tc.want {
			t.Errorf("narrowRows %d: Respell(%q) = %q, %v; want %q", tc.narrow, tc.word, got, err, tc.want)
		}
	}
}
