package store

import (
	"strings"
	"time"

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
// time as indexed) as v says, and its arguments: comparisons of dates
// (">=2026-11-01", ">=today-7d") or a date, which holds for its whole
// period (2026-11-30 for that day, 2026-11 for the month). A date is read
// in the machine's time zone, a person's day; one that is none
// (mdsearch.CheckCondition refuses it) holds for no note.
func fileTimeCond(v string) (string, []any) {
	cs, ok := mdsearch.Comparisons(v)
	if !ok {
		date, _ := mdsearch.DateOf(strings.TrimSpace(v))
		cs = []mdsearch.Comparison{{Op: ">=", Date: date}, {Op: "<=", Date: date}}
	}
	parts := make([]string, len(cs))
	args := make([]any, len(cs))
	for i, c := range cs {
		from, to, ok := period(c.Date)
		if !ok {
			return `0`, nil
		}
		switch c.Op {
		case ">":
			parts[i], args[i] = `d.mtime >= ?`, to.UnixNano()
		case ">=":
			parts[i], args[i] = `d.mtime >= ?`, from.UnixNano()
		case "<":
			parts[i], args[i] = `d.mtime < ?`, from.UnixNano()
		default: // <=
			parts[i], args[i] = `d.mtime < ?`, to.UnixNano()
		}
	}
	return `(` + strings.Join(parts, " AND ") + `)`, args
}

// period is the span a comparison's date names in the machine's time
// zone, from its start to the next's: a month, a day, a minute, a second.
func period(date string) (from, to time.Time, ok bool) {
	for _, p := range []struct {
		layout string
		next   func(time.Time) time.Time
	}{
		{"2006-01", func(t time.Time) time.Time { return t.AddDate(0, 1, 0) }},
		{time.DateOnly, func(t time.Time) time.Time { return t.AddDate(0, 0, 1) }},
		{"2006-01-02T15:04", func(t time.Time) time.Time { return t.Add(time.Minute) }},
		{"2006-01-02T15:04:05", func(t time.Time) time.Time { return t.Add(time.Second) }},
	} {
		if len(date) == len(p.layout) {
			t, err := time.ParseInLocation(p.layout, date, time.Local)
			return t, p.next(t), err == nil
		}
	}
	if t, err := time.ParseInLocation("2006-01-02T15:04:05.999999999", date, time.Local); err == nil {
		return t, t.Add(time.Nanosecond), true
	}
	return time.Time{}, time.Time{}, false
}
