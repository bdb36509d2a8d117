package mdsearch

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestComparisons(t *testing.T) {
	for _, tt := range []struct {
		value string
		want  []Comparison
	}{
		{">5", []Comparison{{Op: ">", Num: 5}}},
		{"<=-2.5", []Comparison{{Op: "<=", Num: -2.5}}},
		{">=1e3", []Comparison{{Op: ">=", Num: 1000}}},
		{"<2024-07-01", []Comparison{{Op: "<", Date: "2024-07-01"}}},
		{">2024-07", []Comparison{{Op: ">", Date: "2024-07"}}},
		{">2024-07-01 10:30", []Comparison{{Op: ">", Date: "2024-07-01T10:30"}}},
		{">=2024-07-01T10:30:15.5", []Comparison{{Op: ">=", Date: "2024-07-01T10:30:15.5"}}},
		{">=2024-01-01 <2024-02-01", []Comparison{{Op: ">=", Date: "2024-01-01"}, {Op: "<", Date: "2024-02-01"}}},
		{"2024", nil}, // no operator: a value to equal
		{">draft", nil},
		{">", nil},
		{"<>3", nil},
		{">Inf", nil},
		{">NaN", nil},
		{">0x10", nil},
		{">1e400", nil},
		{">2024-7-1", nil},
		{">=2024-07-01T10:00:00Z", []Comparison{{Op: ">=", Date: "2024-07-01T10:00:00", Zone: "Z"}}}, // its zone kept apart: properties compare as written
		{"<2024-07-01T10:00+02:00", []Comparison{{Op: "<", Date: "2024-07-01T10:00", Zone: "+02:00"}}},
		{">2024-07-01Z", nil},
		{">3 draft", nil},
		{">= 3", []Comparison{{Op: ">=", Num: 3}}},
		{">3 <", nil},
		{"=3", nil},
		{"", nil},
	} {
		got, ok := Comparisons(tt.value)
		if ok != (tt.want != nil) || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Comparisons(%q) = %+v %v, want %+v", tt.value, got, ok, tt.want)
		}
	}
}

func TestConditionText(t *testing.T) {
	for _, tt := range []struct{ field, value, want string }{
		{"owner", "alice", `owner="alice"`},
		{"rating", ">3.50", "rating>3.5"},
		{"due", ">=2024-01-01 <2024-02-01", "due>=2024-01-01 and due<2024-02-01"},
		{"title", "a > b", `title="a > b"`},
	} {
		if got := ConditionText(tt.field, tt.value); got != tt.want {
			t.Errorf("ConditionText(%q, %q) = %q, want %q", tt.field, tt.value, got, tt.want)
		}
	}
}

// The request check refuses a where value that opens as a comparison of
// a number or a date but is none, and more comparisons than filters; a
// value to equal, even one opening with "<", and a comparison pass.
func TestCheckComparison(t *testing.T) {
	for value, bad := range map[string]string{
		"alice":                    "",
		"":                         "",
		">3":                       "",
		"<July":                    "", // text: no number or date was meant
		">":                        "",
		"<% tp.file.title %>":      "", // a template's value, as text
		"<b>x</b>":                 "",
		">3 apples":                `> compares with a number or a date, and "3 apples" is neither`,
		"<2024-7-1":                "< compares",
		">= .5.5":                  ">= compares",
		strings.Repeat(">1 ", 50):  "comparisons",
		"a<b":                      "",
		">=2024-01-01 <2024-02-01": "",
		">=2024-01-01 <2024-02-xx": ">= compares",
	} {
		err := SearchRequest{Query: "x", Where: map[string]string{"f": value}}.WithDefaults().Check()
		if (bad == "") != (err == nil) || err != nil && (KindOf(err) != KindInvalid || !strings.Contains(err.Error(), bad)) {
			t.Errorf("where f=%q: %v, want %q", value, err, bad)
		}
	}
	// Tags are names: a comparison of them is refused, not read as the
	// tag ">3"; a tag that merely opens with ">" is still a tag.
	for _, c := range []struct{ field, value, bad string }{
		{"tags", ">3", "tags are names"},
		{"Tag", "<=2024-01-01", "tags are names"},
		{"tags", ">draft", ""},
		{"tagline", ">3", ""},
	} {
		err := SearchRequest{Query: "x", Where: map[string]string{c.field: c.value}}.WithDefaults().Check()
		if (c.bad == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.bad) {
			t.Errorf("where %s=%q: %v, want %q", c.field, c.value, err, c.bad)
		}
	}
}

// FuzzComparisons: whatever the value, a comparison read holds an
// operator and a number or a date, and reads the same once named again
// (ConditionText's parts, the field's name taken off, and the zone it
// says a property sets aside).
func FuzzComparisons(f *testing.F) {
	for _, s := range []string{">5", ">=2024-01-01 <2024-02-01", ">2024-07-01 10:30", ">draft", "<", "> 3", ">-0", ">1e3", ">=2024-07-01T10:00+02:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		cs, ok := Comparisons(v)
		if !ok {
			return
		}
		var again []string
		for _, part := range strings.Split(ConditionText("f", v), " and ") {
			part, _, _ = strings.Cut(part, " (") // "(+02:00 set aside)"
			again = append(again, strings.TrimPrefix(part, "f"))
		}
		for i := range cs {
			cs[i].Zone = ""
		}
		back, ok := Comparisons(strings.Join(again, " "))
		if !ok || !reflect.DeepEqual(back, cs) {
			t.Fatalf("%q: %+v, named again %q: %+v", v, cs, again, back)
		}
		for _, c := range cs {
			if !strings.Contains("< <= > >=", c.Op) || c.Op == "" {
				t.Fatalf("%q: operator %q", v, c.Op)
			}
		}
	})
}

// A comparison may count its day from today: read as that day's date,
// in the machine's time zone.
func TestRelativeDays(t *testing.T) {
	defer func(today func() time.Time) { Today = today }(Today)
	Today = func() time.Time { return time.Date(2026, 3, 31, 23, 30, 0, 0, time.Local) }
	for v, want := range map[string]string{
		">=today":        "due>=2026-03-31",
		"<Today-7d":      "due<2026-03-24",
		">today+2w":      "due>2026-04-14",
		">=today-1m":     "due>=2026-02-28", // March 31 less a month: February's last day
		">=today-13m":    "due>=2025-02-28",
		"<=today+1y":     "due<=2027-03-31",
		">=today-10000d": `due=">=today-10000d"`, // five digits: text
		">tomorrow":      `due=">tomorrow"`,
	} {
		if got := ConditionText("due", v); got != want {
			t.Errorf("%s: %s, want %s", v, got, want)
		}
	}
}
