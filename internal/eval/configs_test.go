package eval

import (
	"strings"
	"testing"

	"github.com/mdsearch/mdsearch"
)

func TestParseConfigs(t *testing.T) {
	cases := []struct {
		in   []string
		want string // name/chunker/mode, space-separated
		err  string
	}{
		{nil, "bm25-sections/bm25-sections/keyword whole-doc/whole-doc/semantic paragraph/paragraph/semantic fixed/fixed/semantic " +
			"sections-keyword/sections/keyword sections-semantic/sections/semantic sections-hybrid/sections/hybrid h2h3-hybrid/h2h3/hybrid", ""},
		{[]string{"all"}, "", ""}, // same as nil, checked below
		{[]string{"sections-hybrid,whole-doc", "paragraph-hybrid"}, "sections-hybrid/sections/hybrid whole-doc/whole-doc/semantic paragraph-hybrid/paragraph/hybrid", ""},
		{[]string{" Sections ", "h2h3", "sections-hybrid"}, "sections/sections/hybrid h2h3/h2h3/hybrid sections-hybrid/sections/hybrid", ""},
		{[]string{"fixed-keyword", "fixed-keyword"}, "fixed-keyword/fixed/keyword", ""},
		{[]string{"bm25-sections"}, "bm25-sections/bm25-sections/keyword", ""},
		{[]string{"whole-doc-semantic"}, "whole-doc-semantic/whole-doc/semantic", ""},
		{[]string{"sections-fuzzy"}, "", `unknown configuration "sections-fuzzy"`},
		{[]string{"bm25-sections-keyword"}, "bm25-sections-keyword/bm25-sections/keyword", ""},
		{[]string{"bm25-sections-hybrid"}, "", `configuration "bm25-sections-hybrid": the bm25-sections baseline searches keywords alone`},
		{[]string{"BM25-sections-semantic"}, "", "mdsearch's sections in semantic mode are sections-semantic"},
		{[]string{"bm25"}, "", "want a chunker (bm25-sections, whole-doc, paragraph, fixed, sections, h2h3)"},
	}
	for _, c := range cases {
		got, err := ParseConfigs(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || mdsearch.KindOf(err) != mdsearch.KindInvalid {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		var names []string
		for _, g := range got {
			names = append(names, g.Name+"/"+g.Chunker+"/"+string(g.Mode))
		}
		want := c.want
		if want == "" {
			want = cases[0].want
		}
		if strings.Join(names, " ") != want {
			t.Errorf("%q:\n got %s\nwant %s", c.in, strings.Join(names, " "), want)
		}
	}
}

func TestByChunker(t *testing.T) {
	cs, _ := ParseConfigs([]string{"sections-keyword,whole-doc,sections-hybrid,h2h3,whole-doc-hybrid"})
	var got []string
	for _, g := range byChunker(cs) {
		var names []string
		for _, c := range g {
			names = append(names, c.Name)
		}
		got = append(got, strings.Join(names, "+"))
	}
	want := "sections-keyword+sections-hybrid whole-doc+whole-doc-hybrid h2h3"
	if strings.Join(got, " ") != want {
		t.Errorf("groups %q, want %q", strings.Join(got, " "), want)
	}
	for _, ch := range chunkers {
		o, err := engineOptions(ch.name)
		if err != nil || (o.Split == nil) != (ch.split == nil) || (o.Split != nil && o.SplitName != ch.name) {
			t.Errorf("%s: engine options %+v, %v", ch.name, o, err)
		}
	}
	if _, err := engineOptions("nope"); err == nil {
		t.Error("unknown chunker: want an error")
	}
}
