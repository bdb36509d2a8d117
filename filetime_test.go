package mdsearch

import (
	"strings"
	"testing"
	"time"
)

// file.mtime compares with dates alone, each read in the machine's zone
// unless it names its own, and refuses a date no calendar has.
func TestFileTimeBounds(t *testing.T) {
	defer func(today func() time.Time) { Today = today }(Today)
	Today = func() time.Time { return time.Date(2026, 3, 31, 23, 30, 0, 0, time.Local) }
	local := func(y int, m time.Month, d, h, min int) time.Time {
		return time.Date(y, m, d, h, min, 0, 0, time.Local)
	}
	for _, tt := range []struct {
		value string
		want  []TimeBound // nil: refused
		text  string      // ConditionText, or the refusal's words
	}{
		{">=2026-11-01", []TimeBound{{">=", local(2026, 11, 1, 0, 0)}}, "file.mtime>=2026-11-01"},
		{"2026-11", []TimeBound{{">=", local(2026, 11, 1, 0, 0)}, {"<", local(2026, 12, 1, 0, 0)}}, `file.mtime=2026-11`},
		{"today", []TimeBound{{">=", local(2026, 3, 31, 0, 0)}, {"<", local(2026, 4, 1, 0, 0)}}, "file.mtime=2026-03-31"},
		{"<today-7d", []TimeBound{{"<", local(2026, 3, 24, 0, 0)}}, "file.mtime<2026-03-24"},
		{">2026-11-02T11:59", []TimeBound{{">=", local(2026, 11, 2, 12, 0)}}, "file.mtime>2026-11-02T11:59"},
		{">=2026-11-30T09:00Z", []TimeBound{{">=", time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}}, "file.mtime>=2026-11-30T09:00Z"},
		{"<2026-11-30T09:00+02:00", []TimeBound{{"<", time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)}}, "file.mtime<2026-11-30T09:00+02:00"},
		{"2026-11-30 09:00-05:30", []TimeBound{{">=", time.Date(2026, 11, 30, 14, 30, 0, 0, time.UTC)}, {"<", time.Date(2026, 11, 30, 14, 31, 0, 0, time.UTC)}}, "file.mtime=2026-11-30T09:00-05:30"},
		{">3", nil, "compares with dates"},
		{"yesterday", nil, "compares with dates"},
		{">=2026-11-01 <5", nil, "compares with dates"},
		{"", nil, "compares with dates"},
		{"2026-02-30", nil, "2026-02-30 is no date on the calendar"},
		{">=2026-13", nil, "no date on the calendar"},
		{"<2026-11-30T25:00", nil, "25:00 is no time of day"},
		{">=2026-11-30T09:00+99:99", nil, "+99:99 is no time zone"},
		{">=2026-11-30T09:00+24:00", nil, "+24:00 is no time zone"},
		{">=2026-11-30T09:00-05:60", nil, "-05:60 is no time zone"},
		{">=2026-11-30T09:00 05:30", nil, "write it %2B"}, // a URL's + read as a space
		{">=2026-11-30T23:59-23:59", []TimeBound{{">=", time.Date(2026, 12, 1, 23, 58, 0, 0, time.UTC)}}, "file.mtime>=2026-11-30T23:59-23:59"},
		{"2026-11-30t09:00z", nil, "compares with dates"}, // a lower-case t is no date's
	} {
		got, err := FileTimeBounds("file.mtime", tt.value)
		reqErr := SearchRequest{Query: "x", Where: map[string]string{"file.mtime": tt.value}}.WithDefaults().Check()
		if tt.want == nil {
			if err == nil || !strings.Contains(err.Error(), tt.text) || reqErr == nil || reqErr.Error() != err.Error() {
				t.Errorf("%q: %v (request: %v), want refused with %q", tt.value, err, reqErr, tt.text)
			}
			continue
		}
		if err != nil || reqErr != nil || len(got) != len(tt.want) {
			t.Errorf("%q: %v, %v (request: %v), want %v", tt.value, got, err, reqErr, tt.want)
			continue
		}
		for i := range got {
			if got[i].Op != tt.want[i].Op || !got[i].At.Equal(tt.want[i].At) {
				t.Errorf("%q: bound %d = %s %v, want %s %v", tt.value, i, got[i].Op, got[i].At, tt.want[i].Op, tt.want[i].At)
			}
		}
		if text := ConditionText("file.mtime", tt.value); text != tt.text {
			t.Errorf("%q: ConditionText %q, want %q", tt.value, text, tt.text)
		}
	}
}

// A property's date that no calendar has is refused; equal to a day, a
// value holds for that day at any time of it.
func TestCalendarDates(t *testing.T) {
	defer func(today func() time.Time) { Today = today }(Today)
	Today = func() time.Time { return time.Date(2026, 12, 3, 8, 0, 0, 0, time.Local) }
	for value, want := range map[string]string{">2026-02-30": "2026-02-30 is no date on the calendar", "<2026-13": "2026-13 is no date on the calendar",
		">=2026-11-30 24:00": "24:00 is no time of day", ">2026-02-28": "", "<=2024-02-29": "", "2026-02-30": ""} {
		err := CheckCondition("due", value)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("due=%q: %v, want %q", value, err, want)
		}
	}
	for value, want := range map[string]string{"today": "2026-12-03", " Today-1d ": "2026-12-02", "2026-12-01": "2026-12-01", "2026-02-30": "", "2026-12": "2026-12", "2026-13": "", "2026": "", "soon": ""} {
		if period, ok := PeriodOf(value); ok != (want != "") || ok && period != want {
			t.Errorf("PeriodOf(%q) = %q, %v; want %q", value, period, ok, want)
		}
	}
	for value, want := range map[string]string{"today": "due=2026-12-03", "2026-02-30": `due="2026-02-30"`,
		">=2026-12-03T09:00+05:30": "due>=2026-12-03T09:00 (+05:30 set aside)"} {
		if got := ConditionText("due", value); got != want {
			t.Errorf("ConditionText(due, %q) = %q, want %q", value, got, want)
		}
	}
}

// FuzzFileTimeBounds: whatever the value, a file.mtime condition is
// refused or read as bounds of a known operator, and a date alone as a
// span that ends after it starts; a request's check agrees.
func FuzzFileTimeBounds(f *testing.F) {
	for _, s := range []string{"today", ">=2026-11-01", "2026-11", "2026-11-30T09:00Z", "<2026-11-30 09:00:00.5+05:30", ">=today-7d <today", "2026-02-30", ">2026-11-30T24:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if cs, ok := Comparisons(v); ok && len(cs) > MaxFilters {
			return // the request refuses so many, whatever they are
		}
		bounds, err := FileTimeBounds("file.mtime", v)
		if (err != nil) != (CheckCondition("file.mtime", v) != nil) {
			t.Fatalf("%q: FileTimeBounds %v, CheckCondition disagrees", v, err)
		}
		if err != nil {
			return
		}
		for _, b := range bounds {
			if b.Op != ">=" && b.Op != "<" || b.At.IsZero() {
				t.Fatalf("%q: bound %s %v", v, b.Op, b.At)
			}
		}
		if _, ok := Comparisons(v); !ok && (len(bounds) != 2 || !bounds[0].At.Before(bounds[1].At)) {
			t.Fatalf("%q: a date alone read as %+v", v, bounds)
		}
	})
}
