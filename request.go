package mdsearch

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// WithDefaults is r with a zero N or Mode set to its default (DefaultN,
// ModeHybrid): what the engine searches with. A zero MaxPerPage stays: it
// is the default cap (PerNote), which gives way where a strict one would
// not.
func (r SearchRequest) WithDefaults() SearchRequest {
	if r.N == 0 {
		r.N = DefaultN
	}
	if r.Mode == "" {
		r.Mode = ModeHybrid
	}
	return r
}

// Check is the one check of a search request: the engine runs it on every
// request (after WithDefaults), and each adapter on what its caller sent
// before the engine is opened, so a bad request reads the same from the
// command line, MCP and REST. A zero N is an error here: an adapter fills
// in the defaults of what was left out, so a 0 was sent. A zero
// MaxPerPage is the default cap.
//
// The error is an *Error of KindInvalid whose message starts with the
// field as SearchRequest's JSON names it and says what to send instead.
func (r SearchRequest) Check() error {
	q := TrimQuery(r.Query)
	switch {
	case q == "" && !r.narrows():
		return invalid("query is empty: say what to look for, in words, a question or a phrase in quotes; or give a tag, a folder (path_prefix) or a property (where) alone to list the notes that have it, or sort alone to list every note (sort=modified: last changed first)")
	case !utf8.ValidString(q):
		return invalid("query is not valid UTF-8: send it as UTF-8 text")
	case strings.ContainsRune(q, utf8.RuneError):
		// What a JSON decoder makes of bytes that are not UTF-8; searched,
		// the words they broke would silently go missing. (A path is not
		// refused so: results show a file name that is not UTF-8 with it.)
		return invalid("query holds U+FFFD (the replacement character), so its text was not valid UTF-8: send it as UTF-8 text")
	case len(q) > MaxQueryBytes:
		return invalid("query is %d bytes: use at most %d (the gist of a long text, not all of it)", len(q), MaxQueryBytes)
	case r.N < 1 || r.N > MaxN:
		return OutOfRange("n", strconv.Itoa(r.N))
	case !maxPerPageOK(r.MaxPerPage):
		return CheckMaxPerPage(r.MaxPerPage)
	case r.Mode != ModeHybrid && r.Mode != ModeSemantic && r.Mode != ModeKeyword:
		return invalid("mode is %q: use hybrid, semantic or keyword%s", r.Mode, meant(string(r.Mode), string(ModeHybrid), string(ModeSemantic), string(ModeKeyword)))
	case r.MaxTokens < 0 || r.MaxTokens > MaxMaxTokens:
		return OutOfRange("max_tokens", strconv.Itoa(r.MaxTokens))
	case r.Offset < 0 || r.Offset > MaxOffset:
		return OutOfRange("offset", strconv.Itoa(r.Offset))
	case math.IsNaN(r.MinScore) || r.MinScore < 0:
		return invalid("min_score is %g: use 0-1 (0: keep every result)", r.MinScore)
	case r.MinScore > 1:
		return invalid("min_score is %g: use 0-1 (a score of %g%% is %g)", r.MinScore, r.MinScore, r.MinScore/100)
	case len(r.Exclude) > MaxExclude:
		return invalid("exclude names %d notes: name at most %d", len(r.Exclude), MaxExclude)
	case r.Sort != "" && r.Sort != SortPath && r.Sort != SortModified:
		return invalid("sort is %q: use path (by path, the default) or modified (last changed first); it orders a list of notes (no words)%s", r.Sort, meant(r.Sort, SortPath, SortModified))
	}
	tags := r.Tags
	if r.Tag != "" { // "" is no tag
		tags = append([]string{r.Tag}, tags...)
	}
	switch {
	case len(tags) > MaxFilters:
		return invalid("tag is given %d times: give at most %d (a note carries every tag asked)", len(tags), MaxFilters)
	case len(r.Where) > MaxFilters:
		return invalid("where is given %d times: give at most %d (a note matches every condition)", len(r.Where), MaxFilters)
	}
	for _, t := range tags {
		if _, err := CleanTag(t); err != nil {
			return err
		}
	}
	for _, p := range r.Exclude {
		if VaultRelative(strings.TrimSpace(p)) == "" {
			return invalid("exclude holds an empty path: name a note as read does, by its path in the vault (notes/plan.md), as COLLECTION:PATH, or by its full path")
		}
	}
	if err := fieldsFit(r); err != nil {
		return err
	}
	for k, v := range r.Where {
		if strings.TrimSpace(k) == "" {
			return invalid("where has an empty field name (value %q): name a frontmatter field, e.g. owner=alice", v)
		}
		if err := CheckCondition(k, v); err != nil {
			return err
		}
	}
	return nil
}

// MaxFieldBytes bounds each text a request names besides its query: a
// collection, tag, folder, property, note or section. None is longer
// than a path (4,096 bytes on Linux), and a longer one would come back,
// quoted, in the error or notice that says it matched nothing.
const MaxFieldBytes = 4096

// TooLong is the error for a field's text over MaxFieldBytes, which it
// does not quote.
func TooLong(field string, n int) error {
	return invalid("%s is %d bytes: use at most %d", field, n, MaxFieldBytes)
}

// fieldsFit checks r's texts besides the query against MaxFieldBytes.
func fieldsFit(r SearchRequest) error {
	fields := [][2]string{{"collection", r.Collection}, {"tag", r.Tag}, {"path_prefix", r.PathPrefix}}
	for _, t := range r.Tags {
		fields = append(fields, [2]string{"tag", t})
	}
	for _, p := range r.Exclude {
		fields = append(fields, [2]string{"exclude", p})
	}
	for k, v := range r.Where {
		fields = append(fields, [2]string{"where", k + "=" + v})
	}
	for _, f := range fields {
		if len(f[1]) > MaxFieldBytes {
			return TooLong(f[0], len(f[1]))
		}
	}
	return nil
}

// PerNote is the most results of one note r asks for: MaxPerPage, or
// DefaultMaxPerPage for the default cap (0).
func (r SearchRequest) PerNote() int {
	if r.MaxPerPage == 0 {
		return DefaultMaxPerPage
	}
	return r.MaxPerPage
}

// CheckMaxPerPage is Check's rule for the per-note cap, for a caller that
// takes the cap without a whole request (`mdsearch eval --max-per-page`):
// 1 to MaxMaxPerPage, or 0 for the default.
func CheckMaxPerPage(n int) error {
	if !maxPerPageOK(n) {
		return OutOfRange("max_per_page", strconv.Itoa(n))
	}
	return nil
}

func maxPerPageOK(n int) bool { return n >= 0 && n <= MaxMaxPerPage }

// ranges are the values Check takes for each integer field.
var ranges = map[string]string{
	"n":            fmt.Sprintf("1-%d (default %d)", MaxN, DefaultN),
	"max_per_page": fmt.Sprintf("1-%d, or 0 for the default (%d)", MaxMaxPerPage, DefaultMaxPerPage),
	"max_tokens":   fmt.Sprintf("1-%d, or 0 for no limit", MaxMaxTokens),
	"offset":       fmt.Sprintf("0-%d, the notes a list skips (default 0)", MaxOffset),
}

// NotWhole is the error for an integer field (n, max_per_page,
// max_tokens) given as text that is no whole number, worded alike over
// the CLI, REST and MCP.
func NotWhole(field, value string) error {
	if _, err := strconv.ParseFloat(strings.TrimSpace(value), 64); err == nil {
		return invalid("%s is %s: use a whole number", field, strings.TrimSpace(value)) // a fraction, not text
	}
	return invalid("%s is %q: use a whole number", field, value)
}

// OutOfRange is Check's error for the integer field (n, max_per_page or
// max_tokens) given as the number text, outside the field's range: an
// adapter gives it for a number too large for an int, so the client
// learns the range whatever the size of what it sent.
func OutOfRange(field, number string) error {
	return invalid("%s is %s: use %s", field, number, ranges[field])
}

// OffsetWithWords is the error for an Offset given to a search with
// words, which the engine gives once the query's operators are read (a
// query of operators alone lists).
func OffsetWithWords(offset int) error {
	return invalid("offset is %d, but the request has words to search: offset pages a list of notes (a tag, a folder or a property, without words); a search shows its best n (at most %d): add words or a filter to narrow it", offset, MaxN)
}

// The orders of a list (SearchRequest.Sort).
const (
	SortPath     = "path"     // by collection and path, ignoring case
	SortModified = "modified" // the notes last changed first
)

// SortWithWords is the error for a search with words asked for an order
// other than its scores'.
func SortWithWords(sort string) error {
	return invalid("sort is %q, but the request has words to search: sort orders a list of notes (a tag, a folder or a property, without words); a search is ordered by how likely each result answers", sort)
}

// MaxPerPageAlias is the name the semantic-search API gives MaxPerPage,
// max_per_page in SearchRequest's JSON. MCP and REST take it too.
const MaxPerPageAlias = "max_chunks_per_page"

// BothNames is the error for a request that gives one field under two of
// its names, name and its alias.
func BothNames(name, alias string) error {
	return invalid("%s and %s name one field: give one of them", name, alias)
}

// Lists reports whether a request that passed Check lists notes rather
// than searching them: it holds no words, only what narrows the notes.
func (r SearchRequest) Lists() bool { return TrimQuery(r.Query) == "" }

// narrows reports whether the request names notes to keep by tag, folder
// or property, or asks for an order: enough, without words, for a list
// of them (every note, for an order alone: what changed lately).
func (r SearchRequest) narrows() bool {
	return strings.TrimSpace(r.Tag) != "" || len(r.Tags) > 0 || len(r.Where) > 0 || strings.TrimSpace(r.PathPrefix) != "" || r.Sort != ""
}

// invalid is a request field's error: the message alone, no operation.
func invalid(format string, args ...any) *Error {
	return Errorf(KindInvalid, "", "", "", format, args...)
}

// TrimQuery is a query without the spaces and control characters around
// it, which no search looks for.
func TrimQuery(q string) string {
	return strings.TrimFunc(q, func(r rune) bool {
		// Format characters (a zero-width space, a byte-order mark) are
		// invisible: a query of them alone is empty.
		return unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
	})
}

// VaultRelative is a path as a request may write it (./notes/a.md,
// /notes/a.md) as the index keeps it: relative to the vault.
func VaultRelative(p string) string {
	for strings.HasPrefix(p, "./") || strings.HasPrefix(p, "/") {
		p = strings.TrimPrefix(strings.TrimPrefix(p, "./"), "/")
	}
	return p
}

// ShortQuery reports whether q is short enough for an answer to quote
// whole (a notice's suggestion, "No results for …"): at most
// MaxShortQueryChars characters and MaxShortQueryWords words. A pasted
// error log quoted back would cost more than the results.
func ShortQuery(q string) bool {
	return utf8.RuneCountInString(q) <= MaxShortQueryChars && len(strings.Fields(q)) <= MaxShortQueryWords
}

// The bounds of a ShortQuery.
const (
	MaxShortQueryChars = 120
	MaxShortQueryWords = 12
)

// meant is "; did you mean keyword?" for a value that is one of options
// in another case, with two neighbouring letters swapped, or cut short
// (three letters at least): the slips a value typed by hand makes. It is
// "" for any other.
func meant(v string, options ...string) string {
	w := strings.ToLower(strings.TrimSpace(v))
	for _, o := range options {
		if w == o || len(w) >= 3 && strings.HasPrefix(o, w) || swapped(w, o) {
			return "; did you mean " + o + "?"
		}
	}
	return ""
}

// swapped reports whether a is b with two neighbouring bytes swapped.
func swapped(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i+1 < len(a); i++ {
		if a[i] != b[i] {
			return a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
		}
	}
	return false
}
