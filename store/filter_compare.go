package store

import (
	"strings"

	"github.com/mdsearch/mdsearch"
)

// datePrefix is a value that starts as dateValue's do: the values a date
// compares with.
const datePrefix = `[0-9][0-9][0-9][0-9]-[0-9][0-9]*`

// compareCond is the condition that the json_each row x meets every
// comparison of cs, and its arguments: a number compares with a number
// property, a date with a text property that starts with one, up to the
// date's length (<2024-07-01 holds for 2024-06-30T23:59, and >2024-07
// for 2024-08-02; dateText).
func compareCond(x string, cs []mdsearch.Comparison) (string, []any) {
	parts := make([]string, len(cs))
	var args []any
	for i, c := range cs {
		if c.Date == "" {
			parts[i] = x + `.type IN ('integer', 'real') AND ` + x + `.value ` + c.Op + ` ?`
			args = append(args, c.Num)
			continue
		}
		parts[i] = x + `.type = 'text' AND ` + x + `.value GLOB '` + datePrefix + `' AND ` + dateText(x) + ` ` + c.Op + ` ?`
		args = append(args, len(c.Date), c.Date)
	}
	return `(` + strings.Join(parts, " AND ") + `)`, args
}

// dateText is the date of the json_each row x as a comparison reads it,
// its one argument the comparison's length: without its time zone (a
// date compares as written: 10:00+02:00 is 10:00), filled out to the
// nanosecond with the earliest of what it leaves out (2024-07-01 is
// 2024-07-01T00:00:00.000000000), a space before its time read as a "T",
// then cut to the comparison's length. Filled out, a day sorts with its
// midnight, not before it; cut, a comparison to the day holds for every
// time of it.
func dateText(x string) string {
	local := `(CASE WHEN ` + x + `.value GLOB '*[+-][0-9][0-9]:[0-9][0-9]' AND length(` + x + `.value) > 16` +
		` THEN substr(` + x + `.value, 1, length(` + x + `.value) - 6) ELSE rtrim(` + x + `.value, 'Zz') END)`
	full := local + ` || substr('` + earliest + `', length(` + local + `) + 1)`
	return `replace(substr(` + full + `, 1, ?), ' ', 'T')`
}

// earliest is the earliest date and time a date's text is filled out
// with.
const earliest = "0000-01-01T00:00:00.000000000"

// fileTimeCond is the condition that a note's file last changed (its
// time as indexed) as v says (mdsearch.FileTimeBounds), and its
// arguments; a value that is no date (mdsearch.CheckCondition refuses
// it) holds for no note.
func fileTimeCond(v string) (string, []any) {
	bounds, err := mdsearch.FileTimeBounds("file.mtime", v)
	if err != nil {
		return `0`, nil
	}
	parts := make([]string, len(bounds))
	args := make([]any, len(bounds))
	for i, b := range bounds {
		parts[i], args[i] = `d.mtime `+b.Op+` ?`, b.At.UnixNano()
	}
	return `(` + strings.Join(parts, " AND ") + `)`, args
}
