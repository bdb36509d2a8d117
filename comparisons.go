package mdsearch

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Comparison is one condition of a property comparison, as Obsidian
// writes one ([duration:>5], [due:<2024-07-01]): an operator and a
// number or a date. A value is one comparison or more, separated by
// spaces, that a note's property must all meet (">=2024-01-01
// <2024-02-01", a range).
type Comparison struct {
	Op   string  // <, <=, > or >=
	Num  float64 // the number, when Date is ""
	Date string  // the date, "T" between day and time, when one
	Zone string  // the date's time zone as written ("Z", "+02:00"), or ""
}

// dateValue is a date as properties hold one: a year and month, a day,
// and a time of day after a "T" or a space, with or without its time
// zone (YAML's and TOML's dates are stored as 2024-07-01 or
// 2024-07-01T10:00:00Z).
var dateValue = regexp.MustCompile(`^\d{4}-\d{2}(-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})?)?)?$`)

// attempted is a value that opens as a comparison of a number or a date
// does: an operator, then a digit, a sign or a point.
var attempted = regexp.MustCompile(`^[<>]=?\s*[-+.\d]`)

// relativeDay is a day counted from today, as a comparison may name one:
// "today", "today-7d", "today+2w", "today-1m", "today-1y".
var relativeDay = regexp.MustCompile(`^(?i:today)(?:([+-])(\d{1,4})([dwmyDWMY]))?$`)

// Today is the day relative dates count from, in the machine's time zone
// (the day a person at it calls today); tests set it.
var Today = func() time.Time { return time.Now() }

// resolveDay is the date a relativeDay names ("2026-12-02"), or "".
func resolveDay(v string) string {
	m := relativeDay.FindStringSubmatch(v)
	if m == nil {
		return ""
	}
	day := Today()
	if m[1] != "" {
		n, _ := strconv.Atoi(m[2])
		if m[1] == "-" {
			n = -n
		}
		switch strings.ToLower(m[3]) {
		case "d":
			day = day.AddDate(0, 0, n)
		case "w":
			day = day.AddDate(0, 0, 7*n)
		case "m":
			day = addMonths(day, n)
		case "y":
			day = addMonths(day, 12*n)
		}
	}
	return day.Format(time.DateOnly)
}

// PeriodOf is the day or month a value to equal names: a date
// ("2026-12-03"), a month ("2026-12") or a day counted from today
// ("today", "today-1d"). [due:today] holds for a due date of today at any
// time of it, as [due:2026-12-03] does for that day and [due:2026-12]
// for that month (store.fieldMatch), as file.mtime reads them. ok is
// false for any other value, and for a date no calendar has (2026-02-30:
// text).
func PeriodOf(v string) (_ string, ok bool) {
	date, tz, ok := dateAndZone(strings.TrimSpace(v))
	if !ok || tz != "" || len(date) > len(time.DateOnly) {
		return "", false
	}
	_, _, err := period(date, "")
	return date, err == nil
}

// SpanOf is the comparisons that hold for the whole of the period a date
// names, in zone tz (file.mtime's; "" for a property's): a day, a month
// or a minute, at any time of it.
func SpanOf(date, tz string) []Comparison {
	return []Comparison{{Op: ">=", Date: date, Zone: tz}, {Op: "<=", Date: date, Zone: tz}}
}

// addMonths is t n months on, its day kept where that month has it, else
// the month's last: a month before March 31 is February's last day, not
// March 3.
func addMonths(t time.Time, n int) time.Time {
	y, m, d := t.Date()
	last := time.Date(y, m+time.Month(n)+1, 0, 0, 0, 0, 0, t.Location()).Day()
	return time.Date(y, m+time.Month(n), min(d, last), 0, 0, 0, 0, t.Location())
}

// zone is a date's time zone, which a comparison sets aside, as it does
// the stored dates': a date compares as written.
var zone = regexp.MustCompile(`([Zz]|[+-]\d{2}:\d{2})$`)

// Comparisons reads v as property comparisons; ok is false where it is
// none, and v is a value the property must equal. Each is an operator
// right before a number or a date: ">5", "<=2024-07-01", or a day counted
// from today, read as its date (">=today-7d"); any other value
// (">draft", "<", "a > b") is compared as text, as it is written.
func Comparisons(v string) (_ []Comparison, ok bool) {
	var parts []string // each from an operator on: a time may follow its date after a space
	for _, f := range strings.Fields(v) {
		if n := len(parts); n > 0 && !strings.ContainsAny(f[:1], "<>") {
			parts[n-1] += " " + f
		} else {
			parts = append(parts, f)
		}
	}
	var out []Comparison
	for _, part := range parts {
		c, ok := parseComparison(part)
		if !ok {
			return nil, false
		}
		out = append(out, c)
	}
	return out, len(out) > 0
}

// IsComparison reports whether v is a property comparison (Comparisons).
func IsComparison(v string) bool {
	_, ok := Comparisons(v)
	return ok
}

// parseComparison reads one operator and its number or date.
func parseComparison(s string) (Comparison, bool) {
	var c Comparison
	switch {
	case strings.HasPrefix(s, "<="), strings.HasPrefix(s, ">="):
		c.Op = s[:2]
	case strings.HasPrefix(s, "<"), strings.HasPrefix(s, ">"):
		c.Op = s[:1]
	default:
		return c, false
	}
	val := strings.TrimSpace(s[len(c.Op):]) // ">= 3" as ">=3"
	if date, zone, ok := dateAndZone(val); ok {
		c.Date, c.Zone = date, zone
		return c, true
	}
	n, err := strconv.ParseFloat(val, 64)
	if err != nil || math.IsInf(n, 0) || math.IsNaN(n) || strings.ContainsAny(val, "xX") {
		return c, false // "Inf", "NaN" and hex are text
	}
	c.Num = n
	return c, true
}

// dateAndZone reads v as a comparison's date: a date as properties hold
// one, a "T" before its time ("2024-07-01T10:00"), its time zone ("Z",
// "+02:00") apart, which properties set aside and file.mtime honours; or
// a day counted from today (resolveDay). ok is false where v is none.
func dateAndZone(v string) (date, tz string, ok bool) {
	if day := resolveDay(v); day != "" {
		v = day
	}
	if !dateValue.MatchString(v) {
		return "", "", false
	}
	if len(v) > len("2024-07-01") {
		tz = zone.FindString(v)
		v = v[:len(v)-len(tz)]
	}
	return strings.Replace(v, " ", "T", 1), tz, true
}

// BothComparisons joins two values given one property, where both are
// comparisons: ">2024-01-01" and "<2024-02-01" make a range a note's
// property must meet whole. A day or month alone (PeriodOf) beside a
// comparison is read as the range it spans ("today" and ">2020-01-01").
// ok is false where either is another value to equal, of which a
// property holds one.
func BothComparisons(a, b string) (_ string, ok bool) {
	a, b = asRange(a, IsComparison(b)), asRange(b, IsComparison(a))
	if !IsComparison(a) || !IsComparison(b) {
		return "", false
	}
	return a + " " + b, true
}

// asRange is v, a day or month alone, as the comparisons of the range it
// spans (">=2026-12-03 <=2026-12-03"), where beside is a comparison; else
// v as it is.
func asRange(v string, beside bool) string {
	if period, ok := PeriodOf(v); ok && beside && !IsComparison(v) {
		return ">=" + period + " <=" + period
	}
	return v
}

// ConditionText names a where condition in a notice: owner="alice",
// rating>3, due>=2024-01-01 and due<2024-02-01.
func ConditionText(field, value string) string {
	cs, ok := Comparisons(value)
	if !ok {
		if date, tz, ok := dateAndZone(strings.TrimSpace(value)); ok && IsFileTime(field) {
			return field + "=" + date + tz // a day counted from today, as its date
		}
		if period, ok := PeriodOf(value); ok {
			return field + "=" + period // that day or month, at any time of it (store.fieldMatch)
		}
		return field + "=" + strconv.Quote(value)
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		v := c.Date
		if v == "" {
			v = strconv.FormatFloat(c.Num, 'g', -1, 64)
		} else if IsFileTime(field) {
			v += c.Zone // file.mtime honours a zone
		} else if c.Zone != "" {
			v += " (" + c.Zone + " set aside)" // properties compare dates as written
		}
		parts[i] = field + c.Op + v
	}
	return strings.Join(parts, " and ")
}

// CheckCondition refuses a where value that opens as a comparison of a
// number or a date yet is none (">3 apples", "<2024-7-1", ">= 3.5.1"):
// read as text to equal, it would match nothing where a comparison was
// meant. Other values that open with "<" or ">" are text ("<b>x</b>", a
// template's "<% tp.file.title %>", ">draft"). Tags are names, and a
// tags filter reads its value as a tag's, so a comparison of tags is
// refused rather than read as the tag ">3".
func CheckCondition(field, value string) error {
	cs, ok := Comparisons(value)
	switch {
	case ok && len(cs) > MaxFilters:
		return invalid("where %s: %d comparisons; give at most %d", field, len(cs), MaxFilters)
	case ok && IsTagsName(field):
		return invalid("where %s=%q: tags are names, not numbers or dates; filter a tag with tag:x (--tag x), or compare another property", field, value)
	case IsFileTime(field):
		_, err := FileTimeBounds(field, value)
		return err
	case !ok && attempted.MatchString(value):
		op := value[:len(value)-len(strings.TrimLeft(value, "<>="))]
		return invalid("where %s=%q: %s compares with a number or a date, and %q is neither: write one right after it (rating>3, due<=2024-07-01, [due:<2024-07-01] in a query)%s", field, value, op, strings.TrimSpace(value[len(op):]), plusHint(value))
	}
	for _, c := range cs {
		if c.Date == "" {
			continue
		}
		if _, _, err := period(c.Date, ""); err != nil {
			return invalid("where %s=%q: %s", field, value, err)
		}
	}
	return nil
}

// spacedZone is a time whose zone's "+" a URL's query turned into a space
// ("2026-11-30T09:00 05:30").
var spacedZone = regexp.MustCompile(`\d{2}:\d{2}(:\d{2})? \d{2}:\d{2}$`)

// plusHint is a hint for a value whose "+" was lost in a URL, or "".
func plusHint(value string) string {
	if spacedZone.MatchString(value) {
		return " (a + in a URL's query reads as a space: write it %2B)"
	}
	return ""
}

// IsTagsName reports whether a property name is Obsidian's tags property
// (or its older singular), which filters read as tags.
func IsTagsName(k string) bool { return strings.EqualFold(k, "tags") || strings.EqualFold(k, "tag") }
