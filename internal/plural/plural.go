// Package plural writes counts as people read them: "1 word", "2 words".
//
// Under the pipeline (docs/architecture.md), beside internal/wordcount:
// the engine's notices, render's results and outlines and the CLI's
// reports count with it, so no count of one reads "1 words".
package plural

import (
	"strconv"
	"strings"
)

// Count is n followed by one when n is 1, else by many: Count(1, "word",
// "words") is "1 word".
func Count(n int, one, many string) string {
	return strconv.Itoa(n) + " " + Noun(n, one, many)
}

// Noun is one when n is 1, else many, for a count written apart from its
// noun ("1 of 3 windows").
func Noun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// List names items as a sentence does: "a", "a and b", "a, b and c"; ""
// for none.
func List(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
