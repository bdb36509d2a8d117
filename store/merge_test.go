package store

import (
	"fmt"
	"testing"
)

func TestSegmentCount(t *testing.T) {
	v2 := "\x00\x00\x00\x07\xff\x00\x00\x01"
	for _, tt := range []struct {
		name  string
		block string
		want  int
		ok    bool
	}{
		{"one segment", v2 + "\x06\x01\x8c\x72\x00", 1, true},
		{"seventeen", v2 + "\x04\x11\x8c\x72\x00", 17, true},
		{"two-byte count", v2 + "\x04\x81\x00\x01", 128, true},
		{"first version", "\x00\x00\x00\x07\x04\x11\x01", 0, false},
		{"cut short", v2 + "\x04", 0, false},
		{"cut inside a varint", v2 + "\x04\x81", 0, false},
		{"empty", "", 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := segmentCount([]byte(tt.block))
			if (err == nil) != tt.ok || got != tt.want {
				t.Errorf("segmentCount = %d, %v; want %d (ok %v)", got, err, tt.want, tt.ok)
			}
		})
	}
}

// TestOptimizeKeywords: notes written in separate transactions leave a
// keyword segment each; merged, one is left and every lookup answers as
// before.
func TestOptimizeKeywords(t *testing.T) {
	s := open(t)
	c, err := s.AddCollection(ctx, "c", "/vault/c")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		path := fmt.Sprintf("n%d.md", i)
		put(t, s, c.ID, path, fmt.Sprintf("Note %d", i), nil,
			chunk(path, 0, "Sowing", fmt.Sprintf("rye and wheat %d, starter fed daily", i)))
	}
	segs, err := s.KeywordSegments(ctx)
	if err != nil || segs < 2 {
		t.Fatalf("%d segments after 6 transactions (%v): the test needs several", segs, err)
	}
	lookups := func() string {
		var out string
		for _, q := range []string{"rye", "starter OR note", `"wheat 3"`, "sow*"} {
			hits, err := s.Keyword(ctx, q, Filter{}, DefaultWeights, 10)
			if err != nil {
				t.Fatal(err)
			}
			out += fmt.Sprintf("%s: %v\n", q, hits)
		}
		return out
	}
	before := lookups()
	if err := s.OptimizeKeywords(ctx); err != nil {
		t.Fatal(err)
	}
	if segs, err := s.KeywordSegments(ctx); err != nil || segs != 1 {
		t.Errorf("%d segments after merging (%v), want 1", segs, err)
	}
	if after := lookups(); after != before {
		t.Errorf("lookups changed by merging:\n%s\nwant\n%s", after, before)
	}
	if n, err := s.PassageCount(ctx); err != nil || n != 6 {
		t.Errorf("PassageCount = %d, %v; want 6", n, err)
	}
}
