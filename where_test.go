package mdsearch

import (
	"reflect"
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
		{[]string{"owner=", "owner=bob"}, nil, true}, // an empty value is a value too
		{[]string{"owner"}, nil, true},
		{[]string{"=x"}, nil, true},
	}
	for _, tt := range tests {
		got, err := ParseWhere(tt.pairs)
		if (err != nil) != tt.bad || (!tt.bad && !reflect.DeepEqual(got, tt.want)) {
			t.Errorf("ParseWhere(%q) = %v, %v", tt.pairs, got, err)
		}
	}
}

func TestSplitTags(t *testing.T) {
	tag, tags := SplitTags([]string{"#a", "b", "#c/d"})
	if tag != "a" || !reflect.DeepEqual(tags, []string{"b", "c/d"}) {
		t.Errorf("SplitTags: %q %q", tag, tags)
	}
	if tag, tags := SplitTags(nil); tag != "" || tags != nil {
		t.Errorf("SplitTags(nil): %q %q", tag, tags)
	}
}
