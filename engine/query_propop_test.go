package engine

import (
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// Obsidian's [property:value] in a query is a --where condition; brackets
// that are not one (no colon, a slice, unclosed, a quoted phrase) are text.
func TestPropertyOperators(t *testing.T) {
	for _, tt := range []struct {
		query, rest string
		where       map[string]string
	}{
		{"[status:draft] budget", "budget", map[string]string{"status": "draft"}},
		{"budget [Author:Bartholomew Quince] plan", "budget plan", map[string]string{"Author": "Bartholomew Quince"}},
		{`[author:"Bartholomew Quince"] plan`, "plan", map[string]string{"author": "Bartholomew Quince"}},
		{"[params.owner:bob] x [year:1984]", "x", map[string]string{"params.owner": "bob", "year": "1984"}},
		{"[status] budget", "[status] budget", nil},           // Obsidian's "has the property": not read
		{"arr[i:j] slice", "arr[i:j] slice", nil},             // not at a word's start
		{"[1:3] slice", "[1:3] slice", nil},                   // a name holds a letter
		{"[status:draft budget", "[status:draft budget", nil}, // never closed
		{"[status:] x", "[status:] x", nil},
		{`"[status:draft]" x`, `"[status:draft]" x`, nil},
		{"[status:draft]. x", "[status:draft]. x", nil}, // the bracket must end the word
		{"[10:30] x", "[10:30] x", nil},
		{"drive [due date:2024-07-01]", "drive", map[string]string{"due date": "2024-07-01"}},
		{"[date it was due:May] x", "x", map[string]string{"date it was due": "May"}},
		{"[see the docs] for [x:y] and [unclosed", "[see the docs] for and [unclosed", map[string]string{"x": "y"}},
		{`["due date":"2024-07-01"] drive`, "drive", map[string]string{"due date": "2024-07-01"}},
		{"[_internal:x] [2nd-author:Bo] y", "y", map[string]string{"_internal": "x", "2nd-author": "Bo"}},
		{`[related:"[[Budget 2024]]"] budget [up:[[Home]]]`, "budget", map[string]string{"related": "[[Budget 2024]]", "up": "[[Home]]"}},
		{"[text](url) and [a b] c", "[text](url) and [a b] c", nil},
		{"[at:10:30] x", "x", map[string]string{"at": "10:30"}},
	} {
		rest, ops := takeOperators(tt.query, nil)
		got := map[string]string{}
		for _, p := range ops.props {
			got[p[0]] = p[1]
		}
		if tt.where == nil {
			tt.where = map[string]string{}
		}
		if rest != tt.rest || !maps.Equal(got, tt.where) {
			t.Errorf("takeOperators(%q) = %q %v, want %q %v", tt.query, rest, got, tt.rest, tt.where)
		}
	}

	vault := t.TempDir()
	write(t, vault, "a.md", "---\nstatus: Draft\nauthor: Bartholomew Quince\n---\n# A\n\nThe budget plan.\n")
	write(t, vault, "b.md", "---\nstatus: done\n---\n# B\n\nAnother budget plan.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, q := range []string{"[status:draft] budget", `budget [author:"bartholomew quince"]`, "[Status:DRAFT] budget"} {
		resp := search(t, e, mdsearch.SearchRequest{Query: q})
		if len(resp.Results) != 1 || resp.Results[0].Path != "a.md" || resp.Query != "budget" {
			t.Errorf("%s: %q %s", q, resp.Query, paths(resp))
		}
	}
	// A name no note has is words: a pasted log line searches its text.
	resp := search(t, e, mdsearch.SearchRequest{Query: "[WARNING:budget] plan"})
	if len(resp.Results) != 2 || resp.Query != "[WARNING:budget] plan" ||
		!strings.Contains(resp.Notice, `no note has a property named as in [WARNING:budget]: searched as words`) {
		t.Errorf("[WARNING:budget]: %q %q %s", resp.Query, resp.Notice, paths(resp))
	}
	// A property a note gains is known once the index has it.
	write(t, vault, "c.md", "---\nWARNING: budget\n---\n# C\n\nA third budget plan.\n")
	index(t, e, vault, "v")
	if resp := search(t, e, mdsearch.SearchRequest{Query: "[WARNING:budget] plan"}); len(resp.Results) != 1 || resp.Results[0].Path != "c.md" {
		t.Errorf("[WARNING:budget] once a note has the field: %q %s", resp.Query, paths(resp))
	}
	resp = search(t, e, mdsearch.SearchRequest{Query: "[status:gone] budget"})
	if len(resp.Results) != 0 || !strings.Contains(resp.Notice, `status="gone"`) {
		t.Errorf("[status:gone]: %q %s", resp.Notice, paths(resp))
	}
	for q, want := range map[string]string{
		"[status:draft]":                         "", // a list of the notes that have it
		"[status:draft] budget":                  "",
		"[status:Draft OR done] budget":          "one value",
		"[status:draft] [status:done] budget":    "status",
		"[status:draft] budget --where status=x": "",
	} {
		req := mdsearch.SearchRequest{Query: q}
		if strings.Contains(q, "--where") {
			req = mdsearch.SearchRequest{Query: "[status:draft] budget", Where: map[string]string{"status": "done"}}
			want = "status"
		}
		_, err := e.Search(bg, req)
		if (want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", q, err, want)
		}
	}
}

// FuzzTakeOperators: whatever is typed, the words left are words of the
// query, in its order, every [name:value] taken has a name and a value,
// and a query with no operator is left as it is.
func FuzzTakeOperators(f *testing.F) {
	for _, s := range []string{"[status:draft] budget", `["due date":"x y"] z`, "[a:[[b]]] c", "[x:y", "tag:a [b:c] path:\"d e\"", "[[a]] [b:]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		rest, ops := takeOperators(q, nil)
		for _, p := range ops.props {
			if !propertyName(p[0]) || p[1] == "" {
				t.Fatalf("%q: took %q", q, p)
			}
		}
		words := strings.Fields(quotes.Replace(q))
		at := 0
		for _, w := range strings.Fields(rest) {
			for at < len(words) && words[at] != w {
				at++
			}
			if at == len(words) && len(ops.written) > 0 {
				t.Fatalf("%q: left %q, not a word of the query in order", q, rest)
			}
			at++
		}
		if len(ops.written) == 0 && rest != q {
			t.Fatalf("%q: no operator, yet left %q", q, rest)
		}
	})
}

// A "-" before an operator leaves out the notes it would keep, as in
// Obsidian; a "-" before a word stays a word.
func TestNegatedOperators(t *testing.T) {
	rest, ops := takeOperators(`hedgehog -path:Archive -tag:#person -file:"old plan" -[status:draft] -x`, nil)
	if rest != "hedgehog -x" || fmt.Sprint(ops.notPaths, ops.notTags, ops.notFiles, ops.notProps) != "[Archive] [person] [old plan] [[status draft]]" ||
		len(ops.paths)+len(ops.tags)+len(ops.files)+len(ops.props) != 0 {
		t.Errorf("takeOperators: %q %+v", rest, ops)
	}
	vault := t.TempDir()
	write(t, vault, "Archive/old.md", "# Old\n\nThe hedgehog of old.\n")
	write(t, vault, "people/jane.md", "---\ntags: [person]\n---\n# Jane\n\nJane keeps a hedgehog.\n")
	write(t, vault, "plans/draft.md", "---\nstatus: Draft\n---\n# Draft\n\nA hedgehog plan, drafted.\n")
	write(t, vault, "plans/final.md", "---\nstatus: done\n---\n# Final\n\nThe hedgehog plan, final.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for q, want := range map[string]string{
		"hedgehog -path:archive":                          "people/jane.md plans/draft.md plans/final.md",
		"hedgehog -tag:person -path:Archive":              "plans/draft.md plans/final.md",
		"hedgehog -[status:draft] -path:archive":          "people/jane.md plans/final.md",
		"hedgehog -file:draft -file:final -path:archive/": "people/jane.md",
		"hedgehog path:plans -[status:DRAFT]":             "plans/final.md",
	} {
		resp := search(t, e, mdsearch.SearchRequest{Query: q, Mode: mdsearch.ModeKeyword, N: 10})
		if got := sortedPaths(resp); got != want || resp.Query != "hedgehog" {
			t.Errorf("%s: %q %q, want %q", q, resp.Query, got, want)
		}
	}
	resp := search(t, e, mdsearch.SearchRequest{Query: "hedgehog -path:plans -path:people -path:archive", Mode: mdsearch.ModeKeyword})
	if len(resp.Results) != 0 || !strings.Contains(resp.Notice, `path lacks "plans"`) {
		t.Errorf("every note left out: %q %s", resp.Notice, paths(resp))
	}
}
