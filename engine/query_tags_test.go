package engine

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A tag no note has is named, with the tags notes do have, as the first
// note to carry each writes it; a tag in use, nested ones included, is not.
func TestUnknownTagNotice(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "a.md", "---\ntags: [Work, area/home]\n---\n# A\n\nzebra\n")
	write(t, vault, "b.md", "# B\n\nzebra #work #camelCase\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, tt := range []struct{ tag, want string }{
		{"Wrok", `no note has the tag "Wrok"; did you mean "Work" (2 notes)?`}, // the nearest, as written
		{"camelcaes", `no note has the tag "camelcaes"; did you mean "camelCase" (1 note)?`},
		{"gardening", `no note has the tag "gardening"; the most used tags, by notes: Work (2), area/home (1), camelCase (1)`},
		{"wok", `no note has the tag "wok"; the most used tags`}, // too short to guess
	} {
		resp := search(t, e, mdsearch.SearchRequest{Query: "zebra", Tag: tt.tag, Tags: []string{"area"}})
		if len(resp.Results) != 0 || !strings.Contains(resp.Notice, tt.want) {
			t.Errorf("%s: notice %q, want %q in it", tt.tag, resp.Notice, tt.want)
		}
	}
	// Two unknown tags: the most used are named.
	if resp := search(t, e, mdsearch.SearchRequest{Query: "zebra", Tag: "Wrok", Tags: []string{"gardening"}}); !strings.Contains(resp.Notice, `no note has the tag "Wrok" or "gardening"; the most used tags`) {
		t.Errorf("two unknown: notice %q", resp.Notice)
	}
	resp := search(t, e, mdsearch.SearchRequest{Query: "giraffe", Tag: "area"})
	if strings.Contains(resp.Notice, "no note has the tag") {
		t.Errorf("a nested tag's parent named unknown: %q", resp.Notice)
	}
}

// A where condition on a property no note has says so, and names a
// Dataview inline field of the name, which is text; a property notes have
// is not named, whatever its value.
func TestUnknownPropertyNotice(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "book.md", "---\nauthor: Ann\n---\n# Book\n\nstatus:: reading\n\nA book about ferns.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	for _, tt := range []struct {
		where       map[string]string
		query, want string
	}{
		{map[string]string{"status": "reading"}, "ferns", `no note has the property "status" in its frontmatter; status:: in a note's text is a Dataview inline field`},
		{map[string]string{"Status": "reading", "genre": "x"}, "ferns [genre:x]", `no note has the property "Status" or "genre" in its frontmatter; Status:: in a note's text`},
		{map[string]string{"genre": "x"}, "ferns", `no note has the property "genre" in its frontmatter`},
		{map[string]string{"author": "Bob"}, "ferns", ""},
	} {
		resp := search(t, e, mdsearch.SearchRequest{Query: tt.query, Where: tt.where, Mode: mdsearch.ModeKeyword})
		if len(resp.Results) != 0 {
			t.Fatalf("%v: %s", tt.where, paths(resp))
		}
		if got := strings.Contains(resp.Notice, "no note has the property"); got != (tt.want != "") || !strings.Contains(resp.Notice, tt.want) {
			t.Errorf("%v: notice %q, want %q", tt.where, resp.Notice, tt.want)
		}
		if tt.where["genre"] != "" && strings.Contains(resp.Notice, "genre::") {
			t.Errorf("%v: a Dataview field no note has named: %q", tt.where, resp.Notice)
		}
	}
}

// A where condition that matched nothing names the values notes hold of
// each property it names: scalars, booleans as written, a list's items,
// the most held first, at most shownValues.
func TestPropertyValuesNotice(t *testing.T) {
	vault := t.TempDir()
	for i := range 8 {
		write(t, vault, fmt.Sprintf("n%d.md", i), fmt.Sprintf("---\npublish: %v\nstatus: s%d\ntags: [a]\nrelated: [x, y]\n---\n# N\n\nferns\n", i%3 != 0, i))
	}
	write(t, vault, "long.md", "---\ndescription: A sentence of many words that runs on well past forty letters\n---\n# L\n\nferns\n")
	other := t.TempDir()
	write(t, other, "o.md", "---\npublish: maybe\n---\n# O\n\nferns\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	index(t, e, other, "w")
	for _, tt := range []struct {
		where map[string]string
		want  string
	}{
		{map[string]string{"description": "x"}, `the property "description" holds "A sentence of many words that runs on we…" (1 note)`},
		{map[string]string{"publish": "yes"}, `the property "publish" holds "true" (5 notes), "false" (3)`},
		{map[string]string{"Related": "z"}, `the property "Related" holds "x" (8 notes), "y" (8)`},
		{map[string]string{"status": "draft"}, `the property "status" holds "s0" (1 note), "s1" (1), "s2" (1), "s3" (1), "s4" (1), …`},
	} {
		for _, q := range []string{"ferns", ""} { // a search, and a list of notes
			resp := search(t, e, mdsearch.SearchRequest{Query: q, Where: tt.where, Collection: "v", Mode: mdsearch.ModeKeyword})
			if len(resp.Results) != 0 || !strings.Contains(resp.Notice, tt.want) || strings.Contains(resp.Notice, "maybe") {
				t.Errorf("%v %q: %d results, notice %q, want %q", tt.where, q, len(resp.Results), resp.Notice, tt.want)
			}
		}
	}
	if resp := search(t, e, mdsearch.SearchRequest{Query: "ferns", Where: map[string]string{"publish": "true"}, Mode: mdsearch.ModeKeyword}); strings.Contains(resp.Notice, "holds") {
		t.Errorf("results found, values named: %q", resp.Notice)
	}
}

// An index run over a docs site with MDX pages says how many it left out,
// in one notice, not one skip each.
func TestMDXNotice(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "intro.md", "# Intro\n\nzebra\n")
	write(t, vault, "docs/a.mdx", "import X from 'x';\n\n# A\n")
	write(t, vault, "docs/b.mdx", "# B\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	st := index(t, e, vault, "v")
	if st.Files != 1 || len(st.Skipped) != 0 || !strings.Contains(st.Notice, "2 MDX pages (.mdx) are not indexed (docs/a.mdx, …)") {
		t.Errorf("%d files, skipped %+v, notice %q", st.Files, st.Skipped, st.Notice)
	}
}

// A query of common words alone gets its results and a notice that it
// asks for nothing, and one of one letter a notice that it matches
// wherever the letter stands alone; one with a word to look for, a
// prefix or a quoted common word gets neither.
func TestAsksLittleNotices(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "a.md", "# A\n\nHow do I feed the starter? It is the zebra of the kitchen.\n\nLet x be the zebra count; T is the type and C the language.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), newBow("bow"))
	index(t, e, vault, "v")
	const nothing, letter = "only common words", "one letter"
	for _, tt := range []struct {
		query, marker, notice string
	}{
		{"how do I", nothing, "the query holds only common words (how do i), which name nothing to look for"},
		{"tag:none the", nothing, "the query holds only common words (the)"},
		{"how do I feed", nothing, ""},
		{`"the"`, nothing, ""},
		{"x", letter, `the query is one letter ("x")`},
		{"T", letter, `the query is one letter ("T")`},
		{`"C"`, letter, `the query is one letter ("C")`},
		{"Tag:none t", letter, `the query is one letter ("t")`},
		{"x*", letter, ""},
		{"zebra", letter, ""},
		{"x zebra", letter, ""},
		{"7", letter, ""},
	} {
		for _, mode := range []mdsearch.Mode{mdsearch.ModeHybrid, mdsearch.ModeKeyword, mdsearch.ModeSemantic} {
			resp := search(t, e, mdsearch.SearchRequest{Query: tt.query, Mode: mode})
			if got := strings.Contains(resp.Notice, tt.marker); got != (tt.notice != "") || !strings.Contains(resp.Notice, tt.notice) {
				t.Errorf("%q (%s): notice %q, want one holding %q", tt.query, mode, resp.Notice, tt.notice)
			}
		}
	}
}

// Obsidian's "tag:NAME", "path:TEXT" and "file:TEXT" in a query filter;
// quoted, they are text; alone, they ask for words.
// TestUnreadOperators: the operators a read query still holds are found
// by their place, outside phrases, as takeOperators reads them.
func TestUnreadOperators(t *testing.T) {
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{`file:a"watchr path`, []string{`file:a"watchr`}},
		{`x path:"" Tag:b"`, []string{`path:""`, `Tag:b"`}},
		{`"a tag:x b" c`, nil},
		{`“see tag:foo” path:a"b`, []string{`path:a"b`}},
		{`tag: alone`, nil},
		{`27" monitor file:x"`, nil}, // a phrase: " monitor file:x"
	} {
		var got []string
		for _, sp := range unreadOperators(tt.query) {
			got = append(got, tt.query[sp[0]:sp[1]])
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("unreadOperators(%q) = %q, want %q", tt.query, got, tt.want)
		}
	}
}

func TestOperators(t *testing.T) {
	for _, tt := range []struct {
		query, rest        string
		tags, paths, files []string
	}{
		{"tag:person hedgehog", "hedgehog", []string{"person"}, nil, nil},
		{"meeting TAG:#work tag:area/home", "meeting", []string{"work", "area/home"}, nil, nil},
		{`"tag:person" hedgehog`, `"tag:person" hedgehog`, nil, nil, nil},
		{`"a b tag:x c" d`, `"a b tag:x c" d`, nil, nil, nil},
		{"tag: search operator", "tag: search operator", nil, nil, nil},
		{"hashtag:x y", "hashtag:x y", nil, nil, nil},
		{"path:projects/ budget", "budget", nil, []string{"projects/"}, nil},
		{`Path:"Daily notes/2024" standup file:Mon`, "standup", nil, []string{"Daily notes/2024"}, []string{"Mon"}},
		{`path:./guide/ file:"setup guide" x`, "x", nil, []string{"guide/"}, []string{"setup guide"}},
		{`path:"unclosed words`, "", nil, []string{"unclosed words"}, nil}, // an unclosed quote runs to the end, as in Obsidian
		{`sync file:"unterminated sync`, "sync", nil, nil, []string{"unterminated sync"}},
		{`file:" x`, "", nil, nil, []string{" x"}},
		{`file:" y"z w`, `file:" y"z w`, nil, nil, nil}, // quotes that neither close nor leave it open
		{`path:"" x`, `path:"" x`, nil, nil, nil},
		{`file:a"b x`, `file:a"b x`, nil, nil, nil},
		{`path:“Daily notes” release`, "release", nil, []string{"Daily notes"}, nil},
		// Obsidian's grouping filters as if absent (a notice says so); a
		// word's parentheses and OR stay.
		{"tag:meeting (path:2026-11-30 OR path:2026-12)", "", []string{"meeting"}, []string{"2026-11-30", "2026-12"}, nil},
		{"(tag:a) cats OR dogs (see below)", "cats OR dogs (see below)", []string{"a"}, nil, nil},
		{`“see tag:foo here”`, `“see tag:foo here”`, nil, nil, nil},
		{`path:「日記」 x`, "x", nil, []string{"日記"}, nil},
		{`27" monitor tag:hardware`, `27" monitor`, []string{"hardware"}, nil, nil},
	} {
		rest, ops := takeOperators(tt.query, nil)
		if rest != tt.rest || !slices.Equal(ops.tags, tt.tags) || !slices.Equal(ops.paths, tt.paths) || !slices.Equal(ops.files, tt.files) {
			t.Errorf("takeOperators(%q) = %q %q %q %q, want %q %q %q %q", tt.query, rest, ops.tags, ops.paths, ops.files,
				tt.rest, tt.tags, tt.paths, tt.files)
		}
	}
	vault := t.TempDir()
	write(t, vault, "a.md", "---\ntags: [person]\n---\n# A\n\nThe hedgehog sleeps.\n")
	write(t, vault, "b.md", "# B\n\nAnother hedgehog.\n")
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	resp := search(t, e, mdsearch.SearchRequest{Query: "tag:person hedgehog"})
	if len(resp.Results) != 1 || resp.Results[0].Path != "a.md" || resp.Query != "hedgehog" {
		t.Errorf("tag:person hedgehog: %q %s", resp.Query, paths(resp))
	}
	if resp := search(t, e, mdsearch.SearchRequest{Query: "tag:person"}); !resp.Listing || paths(resp) != "a.md > A" {
		t.Errorf("tag alone lists %s (listing %v)", paths(resp), resp.Listing)
	}
	write(t, vault, "Daily notes/2024-05-06 Monday.md", "# Standup\n\nThe hedgehog project slipped.\n")
	write(t, vault, "Projects/Hedgehog.md", "# Hedgehog\n\nA hedgehog sanctuary plan.\n")
	write(t, vault, "Hedgehog club/Minutes.md", "# Minutes\n\nThe hedgehog club met.\n")
	index(t, e, vault, "v")
	for query, want := range map[string]string{
		`path:"daily notes" hedgehog`: "Daily notes/2024-05-06 Monday.md",
		"path:projects hedgehog":      "Projects/Hedgehog.md",
		"file:monday hedgehog":        "Daily notes/2024-05-06 Monday.md",
		"file:hedge hedgehog":         "Projects/Hedgehog.md", // "Hedgehog club" is a folder, not a file name
		"path:club hedgehog":          "Hedgehog club/Minutes.md",
		"file:b.md hedgehog":          "b.md",
	} {
		resp := search(t, e, mdsearch.SearchRequest{Query: query})
		if len(resp.Results) != 1 || resp.Results[0].Path != want || resp.Query != "hedgehog" {
			t.Errorf("%s: %q\n%s", query, resp.Query, paths(resp))
		}
	}
	resp = search(t, e, mdsearch.SearchRequest{Query: "path:nowhere hedgehog"})
	if len(resp.Results) != 0 || !strings.Contains(resp.Notice, `path has "nowhere"`) {
		t.Errorf("path:nowhere: %q\n%s", resp.Notice, paths(resp))
	}
}

// An inline #tag counts for the passage it is written in, not for every
// passage of its note; a tag filter still keeps the whole note.
func TestInlineTagCountsForItsPassage(t *testing.T) {
	vault := t.TempDir()
	write(t, vault, "Meeting.md", "---\ntags: [minutes]\n---\n# Meeting 2024-03-04\n\n## Attendees\n\nAna, Ben, Chen.\n\n## Costs\n\n"+
		"We went over the #budget for the next quarter. "+strings.Repeat("Cloud spend rose after the migration. ", 8)+
		"\n\n## Misc\n\nCoffee machine is broken again.\n")
	for i := range 5 {
		write(t, vault, fmt.Sprintf("o%d.md", i), fmt.Sprintf("# Other %d\n\nThe team discussed the roadmap and the release plan.\n", i))
	}
	e := openEngine(t, filepath.Join(t.TempDir(), "index.db"), nil)
	index(t, e, vault, "v")
	resp := search(t, e, mdsearch.SearchRequest{Query: "budget", Mode: mdsearch.ModeKeyword})
	if len(resp.Results) != 1 || !strings.Contains(resp.Results[0].Text, "#budget") {
		t.Errorf("budget: want the passage holding #budget alone\n%s", paths(resp))
	}
	for _, req := range []mdsearch.SearchRequest{
		{Query: "coffee machine", Tag: "budget", Mode: mdsearch.ModeKeyword},
		{Query: "tag:budget coffee machine", Mode: mdsearch.ModeKeyword},
		{Query: "minutes coffee", Mode: mdsearch.ModeKeyword}, // a frontmatter tag counts everywhere
	} {
		resp := search(t, e, req)
		if len(resp.Results) == 0 || resp.Results[0].Section != "Misc" {
			t.Errorf("%q tag %q: want Misc first\n%s", req.Query, req.Tag, paths(resp))
		}
	}
}
