package mdsearch

import (
	"strings"
	"testing"
)

func TestParseLines(t *testing.T) {
	for _, c := range []struct {
		in         string
		start, end int
		ok         bool
	}{
		{"40-80", 40, 80, true}, {"40-", 40, 0, true}, {"40", 40, 40, true}, {" 3 - 4 ", 3, 4, true},
		{"0", 0, 0, false}, {"5-4", 0, 0, false}, {"-4", 0, 0, false}, {"a-b", 0, 0, false}, {"", 0, 0, false}, {"1-x", 0, 0, false},
		{"1-99999999999999999999", 0, 0, false},
		{"162\u2013231", 162, 231, true}, {"7\u2014", 7, 0, true}, {"3 \u2212 4", 3, 4, true}, {"\u20134", 0, 0, false},
	} {
		start, end, err := ParseLines(c.in)
		if (err == nil) != c.ok || start != c.start || end != c.end {
			t.Errorf("ParseLines(%q) = %d, %d, %v", c.in, start, end, err)
		}
	}
	if _, _, err := ParseLines("1-99999999999999999999"); err == nil || !strings.Contains(err.Error(), "leave the end out") {
		t.Errorf("a line number out of range: %v", err)
	}
}
