package mdsearch

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseWhere(t *testing.T) {
	tests := []struct {
		pairs []string
		want  map[string]string
		bad   bool
	}{
		{nil, nil, false},
		{[]string{"owner=alice", " status = done "}, map[string]string{"owner": "alice", "status": "done"}, false},
		{[]string{"owner=alice", "owner=ALICE"}, map[string]string{"owner": "ALICE"}, false},
		{[]string{"owner=alice", "owner=bob"}, nil, true},
		{[]string{"owner=alice", "Owner=bob"}, nil, true}, // field names ignore case
		{[]string{"owner=alice", "OWNER=alice"}, map[string]string{"owner": "alice"}, false},
		{[]string{"owner=", "owner=bob"}, nil, true}, // an empty value is a value too
		{[]string{"owner"}, nil, true},
		{[]string{"=x"}, nil, true},
		{[]string{"rating>3", "due <= 2024-07-01"}, map[string]string{"rating": ">3", "due": "<= 2024-07-01"}, false},
		{[]string{"due>=2024-01-01", "Due<2024-02-01"}, map[string]string{"due": ">=2024-01-01 <2024-02-01"}, false},    // a range
		{[]string{"title=a>b"}, map[string]string{"title": "a>b"}, false},                                               // "=" first: text
		{[]string{"rating=4", "rating>3"}, nil, true},                                                                   // a value and a comparison
		{[]string{"due=2024-07", "due>2024-07-10"}, map[string]string{"due": ">=2024-07 <=2024-07 >2024-07-10"}, false}, // a month and a comparison: a range
		{[]string{"due>2024-07-10", "due=2024-07-31"}, map[string]string{"due": ">2024-07-10 >=2024-07-31 <=2024-07-31"}, false},
		{[]string{"due=2024-07", "due=2024-08"}, nil, true}, // two days or months: two values
		{[]string{"due<July"}, nil, true},                   // no number or date
		{[]string{">3"}, nil, true},
	}
	for _, tt := range tests {
		got, err := ParseWhere(tt.pairs)
		if (err != nil) != tt.bad || (!tt.bad && !reflect.DeepEqual(got, tt.want)) {
			t.Errorf("ParseWhere(%q) = %v, %v", tt.pairs, got, err)
		}
	}
}

func TestSplitTags(t *testing.T) {
	for _, tt := range []struct {
		list []string
		tag  string
		tags []string
		bad  bool
	}{
		{list: []string{"#a", "b", "#c/d"}, tag: "a", tags: []string{"b", "c/d"}},
		{list: []string{" #a "}, tag: "a"},
		{list: nil},
		{list: []string{""}, bad: true},
		{list: []string{"a", "#"}, bad: true},
		{list: []string{"  "}, bad: true},
		{list: []string{"##"}, bad: true},
		{list: []string{"# #"}, bad: true},
		{list: []string{"##a"}, tag: "a"},
	} {
		tag, tags, err := SplitTags(tt.list)
		if tt.bad {
			if KindOf(err) != KindInvalid || !strings.Contains(err.Error(), "empty") {
				t.Errorf("SplitTags(%q): %v, want an empty-tag error", tt.list, err)
			}
			continue
		}
		if err != nil || tag != tt.tag || !reflect.DeepEqual(tags, tt.tags) {
			t.Errorf("SplitTags(%q) = %q %q %v", tt.list, tag, tags, err)
		}
	}
}
