package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/mdsearch/mdsearch"
)

// Label is one relevant section of a query: a vault-relative note path and
// the heading texts from the top down to the section (empty: the whole note).
type Label struct {
	Path        string   `json:"path"`
	SectionPath []string `json:"section_path"`
	// Own: the section's own text alone, its subsections not counted
	// (the opening text of a note under its title heading).
	Own bool `json:"own,omitempty"`

	// Set by Resolve: the section's canonical path and its line range,
	// and other sections that equally match a label naming a heading alone.
	span span
	alts []span
	// line and idx are where the label is written: its line of the file
	// and its place in that line's list (a merged query's labels come
	// from several lines); line 0 for a generated label.
	line, idx int
}

// spans lists every section the label may mean.
func (l *Label) spans() []span { return append([]span{l.span}, l.alts...) }

// span is a resolved label: the section's heading path as the parser
// reports it and its inclusive line range, subsections included.
type span struct {
	resolved   bool
	path       []string
	start, end int
}

// Query is one line of a query file.
type Query struct {
	Text         string  `json:"query"`
	Relevant     []Label `json:"relevant,omitempty"`
	PathContains string  `json:"expected_path_contains,omitempty"`
	Difficulty   string  `json:"difficulty,omitempty"`
	// Exclude names a note whose results are dropped before scoring: the
	// page a link-context query was taken from, which holds its text
	// verbatim.
	Exclude string `json:"exclude,omitempty"`
	Line    int    `json:"-"` // 1-based line in the query file
}

// where is the line a label of q is written on, and its place there.
func (q *Query) where(l *Label, i int) (line, idx int) {
	if l.line == 0 {
		return q.Line, i
	}
	return l.line, l.idx
}

// Labelled reports whether q names relevant sections (not just paths).
func (q *Query) Labelled() bool { return len(q.Relevant) > 0 }

// relevantPage reports whether a note is relevant to q.
func (q *Query) relevantPage(path string) bool {
	if q.PathContains != "" {
		return strings.Contains(path, q.PathContains)
	}
	for _, l := range q.Relevant {
		if l.Path == path {
			return true
		}
	}
	return false
}

// relevantPages is the number of distinct relevant notes, for recall. A
// path-contains query counts as one: finding any matching note answers it.
func (q *Query) relevantPages() []string {
	if q.PathContains != "" {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, l := range q.Relevant {
		if !seen[l.Path] {
			seen[l.Path] = true
			out = append(out, l.Path)
		}
	}
	return out
}

// QuerySet is a parsed query file.
type QuerySet struct {
	File    string
	Queries []Query
	Style   string  // the styles Generate made them in; "" for a file
	listed  []Query // each line a query, where mergeRepeats merged some
}

// Merged is how many lines repeat an earlier line's query, merged into it
// (mergeRepeats).
func (qs *QuerySet) Merged() int {
	if qs.listed == nil {
		return 0
	}
	return len(qs.listed) - len(qs.Queries)
}

// AsListed makes each line of the file a query of its own again, undoing
// mergeRepeats: to compare with figures measured so.
func (qs *QuerySet) AsListed() {
	if qs.listed != nil {
		qs.Queries, qs.listed = qs.listed, nil
	}
}

// LoadQueries reads a query file (see the package doc for the format).
func LoadQueries(path string) (*QuerySet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, mdsearch.Errorf(mdsearch.KindInvalid, "read queries", path, "", "%v", unwrapPath(err))
	}
	defer f.Close()
	return ParseQueries(f, path)
}

// ParseQueries reads JSON Lines queries from r; name is used in errors,
// which name the line: "queries.jsonl:3".
func ParseQueries(r io.Reader, name string) (*QuerySet, error) {
	qs := &QuerySet{File: name}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxLineBytes)
	line := 0
	for sc.Scan() {
		line++
		raw := bytes.TrimSpace(withoutBOM(line, sc.Bytes()))
		if len(raw) == 0 {
			continue
		}
		if err := checkFields(raw); err != nil {
			return nil, queryError(name, line, "%v", err)
		}
		q, err := parseQuery(raw)
		if err != nil {
			return nil, queryError(name, line, "%v", err)
		}
		q.Line = line
		for i := range q.Relevant {
			q.Relevant[i].line, q.Relevant[i].idx = line, i
		}
		qs.Queries = append(qs.Queries, q)
	}
	if err := sc.Err(); err != nil {
		return nil, scanError("read queries", name, line+1, err)
	}
	if len(qs.Queries) == 0 {
		return nil, mdsearch.Errorf(mdsearch.KindInvalid, "read queries", name, "", "no queries in the file")
	}
	qs.mergeRepeats()
	return qs, nil
}

// mergeRepeats makes one query of the lines that ask the same text of the
// same notes (the same exclude): a sentence that links three sections is
// one query with three answers, not three queries of which any ranking
// can get two wrong. Its labels are joined, in their order; it keeps the
// first line's number.
func (qs *QuerySet) mergeRepeats() {
	type key struct{ text, exclude, contains string }
	first := map[key]int{}
	var out []Query
	for _, q := range qs.Queries {
		k := key{q.Text, q.Exclude, q.PathContains}
		if i, ok := first[k]; ok {
			out[i].Relevant = append(slices.Clip(out[i].Relevant), q.Relevant...)
			continue
		}
		first[k] = len(out)
		out = append(out, q)
	}
	if len(out) < len(qs.Queries) {
		qs.Queries, qs.listed = out, qs.Queries
	}
}

// parseQuery decodes and checks one line.
func parseQuery(raw []byte) (Query, error) {
	var q Query
	if err := json.Unmarshal(raw, &q); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return q, fmt.Errorf("field %q holds a JSON %s, which it cannot be", te.Field, te.Value)
		}
		if errors.As(err, &te) {
			return q, fmt.Errorf(`not a JSON query object but a JSON %s: the format is one object a line, {"query": "...", "relevant": [...]}`, te.Value)
		}
		return q, fmt.Errorf("not a JSON query object: %v", err)
	}
	q.Text = strings.TrimSpace(q.Text)
	switch {
	case q.Text == "":
		return q, fmt.Errorf(`"query" is missing or empty`)
	case len(q.Relevant) == 0 && q.PathContains == "":
		return q, fmt.Errorf(`needs "relevant" labels or "expected_path_contains"`)
	case len(q.Relevant) > 0 && q.PathContains != "":
		return q, fmt.Errorf(`has both "relevant" and "expected_path_contains"; use one`)
	}
	if err := checkRequest(q.Text); err != nil {
		return q, err
	}
	for i, l := range q.Relevant {
		if strings.TrimSpace(l.Path) == "" {
			return q, fmt.Errorf(`relevant[%d] has no "path"`, i)
		}
		for _, h := range l.SectionPath {
			if strings.TrimSpace(h) == "" {
				return q, fmt.Errorf(`relevant[%d] has an empty heading in "section_path"`, i)
			}
		}
	}
	return q, nil
}

// maxLineBytes bounds a line of a query file.
const maxLineBytes = 4 << 20

// scanError names the line a scanner stopped at: one over the size limit
// is named with the limit, not bufio's "token too long".
func scanError(op, file string, line int, err error) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return mdsearch.Errorf(mdsearch.KindInvalid, op, fmt.Sprintf("%s:%d", file, line), "one query a line; a query is at most 4000 bytes",
			"the line is over %d MB", maxLineBytes>>20)
	}
	return mdsearch.Errorf(mdsearch.KindInvalid, op, file, "", "%v", err)
}

// withoutBOM drops the byte order mark an editor may save at the start
// of a file (line 1), which is no part of its text.
func withoutBOM(line int, b []byte) []byte {
	if line == 1 {
		return bytes.TrimPrefix(b, []byte("\ufeff"))
	}
	return b
}

func queryError(file string, line int, format string, args ...any) error {
	return mdsearch.Errorf(mdsearch.KindInvalid, "read queries", fmt.Sprintf("%s:%d", file, line), "", format, args...)
}

// unwrapPath drops the path an *os.PathError repeats.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
