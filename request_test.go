package mdsearch

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// Check names the field at fault, as SearchRequest's JSON does, and says
// what to send; every error is KindInvalid, so every adapter maps it as a
// bad request.
func TestCheck(t *testing.T) {
	ok := SearchRequest{Query: "starter"}.WithDefaults()
	with := func(f func(*SearchRequest)) SearchRequest {
		r := ok
		f(&r)
		return r
	}
	for _, tt := range []struct {
		req  SearchRequest
		want string // "" for none
	}{
		{ok, ""},
		{with(func(r *SearchRequest) {
			r.Tag, r.Tags, r.MaxTokens, r.Exclude = "#bread", []string{"a"}, MaxMaxTokens, []string{"./a.md"}
		}), ""},
		{with(func(r *SearchRequest) { r.Query = " \t\x00" }), "query is empty: say what to look for"},
		{with(func(r *SearchRequest) { r.Query = "\u200b\ufeff " }), "query is empty: say what to look for"}, // invisible
		{with(func(r *SearchRequest) { r.Query = "\xff" }), "query is not valid UTF-8"},
		{with(func(r *SearchRequest) { r.Query = "caf\uFFFD au lait" }), "query holds U+FFFD (the replacement character), so its text was not valid UTF-8"},
		{with(func(r *SearchRequest) { r.Query = strings.Repeat("a", MaxQueryBytes+1) }), "query is 4001 bytes: use at most 4000"},
		{with(func(r *SearchRequest) { r.Query = " " + strings.Repeat("a", MaxQueryBytes) + "\n" }), ""},
		{with(func(r *SearchRequest) { r.N = 0 }), "n is 0: use 1-50 (default 5)"},
		{with(func(r *SearchRequest) { r.N = 51 }), "n is 51: use 1-50 (default 5)"},
		{with(func(r *SearchRequest) { r.MaxPerPage = 6 }), "max_per_page is 6: use 1-5, or 0 for the default (2)"},
		{with(func(r *SearchRequest) { r.MaxPerPage = -1 }), "max_per_page is -1: use 1-5, or 0 for the default (2)"},
		{with(func(r *SearchRequest) { r.MaxPerPage = 0 }), ""}, // the default cap
		{with(func(r *SearchRequest) { r.Mode = "fuzzy" }), `mode is "fuzzy": use hybrid, semantic or keyword`},
		{with(func(r *SearchRequest) { r.Mode = "" }), `mode is "": use hybrid, semantic or keyword`},
		{with(func(r *SearchRequest) { r.Mode = "Keyword" }), `mode is "Keyword": use hybrid, semantic or keyword; did you mean keyword?`},
		{with(func(r *SearchRequest) { r.Mode = "keywrod" }), `mode is "keywrod": use hybrid, semantic or keyword; did you mean keyword?`},
		{with(func(r *SearchRequest) { r.Mode = "sem" }), `mode is "sem": use hybrid, semantic or keyword; did you mean semantic?`},
		{with(func(r *SearchRequest) { r.Sort = "Modified" }), `sort is "Modified": use path (by path, the default) or modified (last changed first); it orders a list of notes (no words); did you mean modified?`},
		{with(func(r *SearchRequest) { r.MaxTokens = -1 }), "max_tokens is -1: use 1-1048576, or 0 for no limit"},
		{with(func(r *SearchRequest) { r.Offset = -1 }), "offset is -1: use 0-1048576, the notes a list skips (default 0)"},
		{with(func(r *SearchRequest) { r.Offset = MaxOffset + 1 }), "offset is 1048577: use 0-1048576"},
		{with(func(r *SearchRequest) { r.Tags = []string{strings.Repeat("t", MaxFieldBytes+1)} }), "tag is 4097 bytes: use at most 4096"},
		{with(func(r *SearchRequest) { r.PathPrefix = strings.Repeat("/", 100000) }), "path_prefix is 100000 bytes: use at most 4096"},
		{with(func(r *SearchRequest) { r.Where = map[string]string{"k": strings.Repeat("v", MaxFieldBytes)} }), "where is 4098 bytes: use at most 4096"},
		{with(func(r *SearchRequest) { r.Exclude = []string{strings.Repeat("e", MaxFieldBytes+1)} }), "exclude is 4097 bytes"},
		{with(func(r *SearchRequest) { r.Collection = strings.Repeat("c", MaxFieldBytes) }), ""},
		{with(func(r *SearchRequest) { r.MinScore = 1 }), ""},
		{with(func(r *SearchRequest) { r.MinScore = -0.1 }), "min_score is -0.1: use 0-1 (0: keep every result)"},
		{with(func(r *SearchRequest) { r.MinScore = 30 }), "min_score is 30: use 0-1 (a score of 30% is 0.3)"},
		{with(func(r *SearchRequest) { r.MinScore = math.NaN() }), "min_score is NaN: use 0-1"},
		{with(func(r *SearchRequest) { r.Exclude = make([]string, MaxExclude+1) }), "exclude names 101 notes: name at most 100"},
		{with(func(r *SearchRequest) { r.Exclude = []string{"a.md", " ./ "} }), "exclude holds an empty path"},
		{with(func(r *SearchRequest) { r.Tag, r.Tags = "a", make([]string, MaxFilters-1) }), `tag "" is empty`},
		{with(func(r *SearchRequest) { r.Tag, r.Tags = "a", make([]string, MaxFilters) }), "tag is given 21 times: give at most 20 (a note carries every tag asked)"},
		{with(func(r *SearchRequest) { r.Tags = make([]string, MaxFilters+1) }), "tag is given 21 times: give at most 20"},
		{with(func(r *SearchRequest) { r.Where = manyFields(MaxFilters) }), ""},
		{with(func(r *SearchRequest) { r.Where = manyFields(MaxFilters + 1) }), "where is given 21 times: give at most 20 (a note matches every condition)"},
		{with(func(r *SearchRequest) { r.Tags = []string{"a", "# "} }), `tag "# " is empty`},
		{with(func(r *SearchRequest) { r.Tag = "#" }), `tag "#" is empty`},
		{with(func(r *SearchRequest) { r.Where = map[string]string{" ": "x"} }), `where has an empty field name (value "x")`},
	} {
		err := tt.req.Check()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%+v: %v", tt.req, err)
		case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want) || KindOf(err) != KindInvalid):
			t.Errorf("%.80q: %v (kind %v), want %q", tt.req.Query, err, KindOf(err), tt.want)
		}
	}
	if r := (SearchRequest{}).WithDefaults(); r.N != DefaultN || r.MaxPerPage != 0 || r.PerNote() != DefaultMaxPerPage || r.Mode != ModeHybrid {
		t.Errorf("defaults %+v", r)
	}
}

// manyFields is n frontmatter conditions.
func manyFields(n int) map[string]string {
	m := map[string]string{}
	for i := range n {
		m[fmt.Sprint("f", i)] = "x"
	}
	return m
}

// A query is quoted back whole up to 120 characters and 12 words.
func TestShortQuery(t *testing.T) {
	for _, tc := range []struct {
		q     string
		short bool
	}{
		{"defineProps typescript", true},
		{strings.Repeat("é", MaxShortQueryChars), true}, // characters, not bytes
		{strings.Repeat("a", MaxShortQueryChars+1), false},
		{strings.Repeat("a ", MaxShortQueryWords), true},
		{strings.Repeat("a ", MaxShortQueryWords+1), false},
	} {
		if got := ShortQuery(tc.q); got != tc.short {
			t.Errorf("ShortQuery(%.20q) = %v", tc.q, got)
		}
	}
}
