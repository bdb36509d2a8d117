package store

import "testing"

// A task's box is no word of its passage; brackets that are no box stay.
func TestWithoutTaskBoxes(t *testing.T) {
	for in, want := range map[string]string{
		"- [x] done\n- [ ] open\n":       "-     done\n-     open\n",
		"* [X] Done":                     "*     Done",
		"1. [x] first\n12) [ ] second\n": "1.     first\n12)     second\n",
		"> - [?] asked\n>> + [/] half\n": "> -     asked\n>> +     half\n",
		"  - [-] dropped\r\n":            "  -     dropped\r\n",
		"- [x]":                          "-    ",
		"- [1] Smith, 2019\n":            "- [1] Smith, 2019\n",
		"- [a] b\n":                      "- [a] b\n",
		"- [x]y\n":                       "- [x]y\n",
		"-[x] no space\n":                "-[x] no space\n",
		"see [x] here\n":                 "see [x] here\n",
		"1 [x] no marker\n":              "1 [x] no marker\n",
		"no boxes at all":                "no boxes at all",
	} {
		if got := withoutTaskBoxes(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
