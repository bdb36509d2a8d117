package eval

import (
	"context"
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

// A titles query is a note's title, alone or as a question, labelled with
// the note's opening text alone: a note that opens with another heading,
// or whose title no one would type, asks nothing.
func TestGenerateTitles(t *testing.T) {
	files := map[string]string{
		"canvas.md":          "Canvas is a core plugin for visual notes.\n\n## Create a canvas\n\nPress the button.\n",
		"b-tomatoes.md":      "# Tomatoes\n\nGrowing notes for the bed.\n\n## Sowing\n\nSow indoors.\n",
		"0132-ufcs.md":       "- Start Date: 2014-03-17\n\n## Summary\n\nMethods as functions.\n",
		"d-ch15-03-drop.md":  "Running code on cleanup.\n",
		"e-opens-heading.md": "## Setup\n\nInstall it.\n",
		"f-empty-opening.md": "# Empty opening\n\n## First\n\nText.\n",
		"g-a-very-long-title-of-many-words-here.md": "Some text.\n",
	}
	dir := writeVault(t, files)
	qs, _, err := Generate(context.Background(), dir, []string{StyleTitles})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, q := range qs.Queries {
		l := q.Relevant[0]
		if !l.Own {
			t.Errorf("%q: the label counts the subsections", q.Text)
		}
		got[l.Path] = q.Text + " → " + strings.Join(l.SectionPath, "/")
	}
	want := map[string]string{
		"0132-ufcs.md":  "ufcs → /",                     // the file name's number left out; the text before any heading
		"b-tomatoes.md": "What is tomatoes? → Tomatoes", // every second note asks a question; the title's own section
		"canvas.md":     "canvas → /",
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s: %q, want %q", p, got[p], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("queries for %v, want %d", got, len(want))
	}
	if err := qs.Resolve(context.Background(), dir); err != nil {
		t.Errorf("generated labels do not resolve: %v", err)
	}
}

func TestTypedTitle(t *testing.T) {
	for title, want := range map[string]string{
		"0132-ufcs":                         "ufcs",
		"0001-private-fields":               "private fields",
		"ch15-03-drop":                      "",
		"Compile-Time Flags":                "Compile-Time Flags",
		"Reactivity Fundamentals":           "Reactivity Fundamentals",
		"2024":                              "",
		"one two three four five six seven": "",
		"snake_case_name":                   "snake case name",
	} {
		if got := typedTitle(title); got != want {
			t.Errorf("typedTitle(%q) = %q, want %q", title, got, want)
		}
	}
}

// An own label is its section's text alone: a result of a subsection
// does not hit it, the section's own passage does.
func TestOwnLabel(t *testing.T) {
	q := &Query{Relevant: []Label{{Path: "a.md", SectionPath: []string{"A"}, Own: true,
		span: span{resolved: true, path: []string{"A"}, start: 1, end: 3}}}}
	for _, tc := range []struct {
		path []string
		want bool
	}{
		{[]string{"A"}, true},
		{[]string{"A", "B"}, false},
		{nil, false},
	} {
		r := mdsearch.Result{Path: "a.md", SectionPath: tc.path}
		if got := sectionHit(q, r); got != tc.want {
			t.Errorf("%v: hit %v, want %v", tc.path, got, tc.want)
		}
	}
	q.Relevant[0].Own = false
	if !sectionHit(q, mdsearch.Result{Path: "a.md", SectionPath: []string{"A", "B"}}) {
		t.Error("a label that is not own counts the subsections")
	}
}

// An aspects query is a note's title with one of its headings below the
// title, labelled with that section: none for a heading that holds the
// title, one of many words, or a note whose title no one types.
func TestGenerateAspects(t *testing.T) {
	dir := writeVault(t, map[string]string{
		"3668-async-closures.md": "## Summary\n\nClosures that are async.\n\n## Drawbacks\n\nNew traits.\n\n### Lack of a desugaring\n\nNone.\n\n## Async closures in detail\n\nMore.\n",
		"b-tomatoes.md":          "# Tomatoes\n\nGrowing notes.\n\n## Sowing Seeds Indoors\n\nSow early.\n\n## A heading of far too many words to be typed\n\nText.\n",
		"d-ch15-03-drop.md":      "## Cleanup\n\nDrop runs.\n",
	})
	qs, _, err := Generate(context.Background(), dir, []string{StyleAspects})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, q := range qs.Queries {
		got = append(got, q.Text+" → "+q.Relevant[0].Path+" "+strings.Join(q.Relevant[0].SectionPath, "/"))
	}
	want := []string{
		"async closures summary → 3668-async-closures.md Summary",
		"async closures drawbacks → 3668-async-closures.md Drawbacks",
		"async closures lack of a desugaring → 3668-async-closures.md Drawbacks/Lack of a desugaring",
		"tomatoes sowing seeds indoors → b-tomatoes.md Tomatoes/Sowing Seeds Indoors",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if err := qs.Resolve(context.Background(), dir); err != nil {
		t.Errorf("generated labels do not resolve: %v", err)
	}
}
