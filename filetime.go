package mdsearch

import (
	"strings"
	"time"
)

// IsFileTime reports whether a where field names the note's file's time
// of last change (file.mtime, as Obsidian's Bases and Dataview name it),
// not a property: it compares with dates alone.
func IsFileTime(k string) bool { return strings.EqualFold(k, "file.mtime") }

// TimeBound is one bound of a file.mtime condition: a file's time is at
// or after At (Op ">="), or before it (Op "<").
type TimeBound struct {
	Op string
	At time.Time
}

// FileTimeBounds reads a file.mtime condition as the bounds a file's time
// must meet: comparisons of dates (">=2026-11-01", ">=today-7d") or a
// date, which holds for its whole period (2026-11-30 for that day,
// 2026-11 for the month). A date is read in the machine's time zone (a
// person's day), unless it names its own ("2026-11-30T09:00Z"). A value
// that is no date, or names one no calendar has (2026-02-30), is an
// error.
func FileTimeBounds(field, value string) ([]TimeBound, error) {
	cs, ok := Comparisons(value)
	if !ok {
		date, tz, isDate := dateAndZone(strings.TrimSpace(value))
		if !isDate {
			return nil, invalid("where %s=%q: %s is when the note's file last changed, and compares with dates: %s>=2026-11-01, %s>=today-7d, [%s:2026-11-30] (that day)", field, value, field, field, field, field)
		}
		cs = []Comparison{{Op: ">=", Date: date, Zone: tz}, {Op: "<=", Date: date, Zone: tz}}
	}
	out := make([]TimeBound, len(cs))
	for i, c := range cs {
		if c.Date == "" {
			return nil, invalid("where %s=%q: %s compares with dates, not numbers: %s>=2026-11-01, %s>=today-7d", field, value, field, field, field)
		}
		from, to, ok := period(c.Date, c.Zone)
		if !ok {
			return nil, invalid("where %s=%q: %s%s is no date on the calendar", field, value, c.Date, c.Zone)
		}
		switch c.Op {
		case ">":
			out[i] = TimeBound{">=", to}
		case ">=":
			out[i] = TimeBound{">=", from}
		case "<":
			out[i] = TimeBound{"<", from}
		default: // <=
			out[i] = TimeBound{"<", to}
		}
	}
	return out, nil
}

// period is the span a comparison's date names, from its start to the
// next's: a month, a day, a minute, a second. It is read in the zone tz
// names, or the machine's where tz is "".
func period(date, tz string) (from, to time.Time, ok bool) {
	loc := time.Local
	if tz != "" {
		t, err := time.Parse("Z07:00", strings.ToUpper(tz))
		if err != nil {
			return from, to, false
		}
		_, offset := t.Zone()
		loc = time.FixedZone(tz, offset) // the offset written, whatever the machine's zone does on that day
	}
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
			t, err := time.ParseInLocation(p.layout, date, loc)
			return t, p.next(t), err == nil
		}
	}
	if t, err := time.ParseInLocation("2006-01-02T15:04:05.999999999", date, loc); err == nil {
		return t, t.Add(time.Nanosecond), true
	}
	return from, to, false
}
