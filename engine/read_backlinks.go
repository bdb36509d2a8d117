package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/sections"
	"github.com/mdsearch/mdsearch/store"
	"github.com/mdsearch/mdsearch/vault"
)

// linkedFrom are the places in the other notes of n's collection that
// link to n: a wikilink or an embed by its name or path, a markdown link
// by its path, in a passage's text or in a note's properties, each
// resolved as the search page resolves it (NoteLinks), so a link to
// another note of the same name is not one. The index finds the passages
// holding the note's name; their links, read again, tell which link.
func (e *Engine) linkedFrom(ctx context.Context, n *note) ([]mdsearch.Backlink, error) {
	out := []mdsearch.Backlink{}
	needles := linkNeedles(n.path)
	rows, err := e.st.Reader.Linking(ctx, n.collection, linkMatch(needles), needles)
	if err != nil || len(rows) == 0 {
		return out, err
	}
	links, err := e.NoteLinks(ctx, n.collection)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, r := range rows {
		if r.Path == n.path {
			continue // a link within the note is no backlink
		}
		for _, b := range backlinksIn(r, links, n.path) {
			if key := fmt.Sprint(b.Path, b.Line, b.Text); !seen[key] {
				seen[key] = true
				out = append(out, b)
			}
		}
	}
	return out, nil
}

// linkNeedles are the texts a link to the note at p holds, one at least:
// its name, and its name as a markdown link escapes it ("My%20Note").
func linkNeedles(p string) []string {
	name := strings.TrimSuffix(path.Base(p), path.Ext(p))
	out := []string{name}
	if esc := url.PathEscape(name); esc != name {
		out = append(out, esc)
	}
	return out
}

// linkMatch is the FTS5 expression of the passages holding one of
// needles, in the words the keyword index reads ("core plugins", "core
// 20plugins"): a link holds its target's words. "" where a needle holds
// none, which only a scan finds.
func linkMatch(needles []string) string {
	var phrases []string
	for _, n := range needles {
		words := tokens(store.KeywordFold(n))
		if len(words) == 0 {
			return ""
		}
		phrases = append(phrases, phraseOf(words))
	}
	return "(" + strings.Join(phrases, " OR ") + ")"
}

// backlinksIn are the links of a passage (or a note's properties) that
// resolve to the note at to.
func backlinksIn(r store.Linking, links *vault.LinkIndex, to string) []mdsearch.Backlink {
	if r.Properties {
		return propertyBacklinks(r, links, to)
	}
	var out []mdsearch.Backlink
	section := r.Section
	if r.ReadSection != "" {
		section = r.ReadSection
	}
	for _, l := range sections.Links([]byte(r.Text)) {
		if resolves(links, r.Path, l, to) {
			out = append(out, mdsearch.Backlink{Path: r.Path, Section: section,
				Line: r.StartLine + strings.Count(r.Text[:l.At], "\n"), Text: lineAround(r.Text, l.At)})
		}
	}
	return out
}

// propertyBacklinks are the properties of a note (r.Text, JSON) whose
// values link to the note at to: "up: [[Plan]]", a list's items too.
func propertyBacklinks(r store.Linking, links *vault.LinkIndex, to string) []mdsearch.Backlink {
	var props map[string]any
	if json.Unmarshal([]byte(r.Text), &props) != nil {
		return nil
	}
	var out []mdsearch.Backlink
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, v := range propertyStrings(props[k]) {
			if slices.ContainsFunc(sections.Links([]byte(v)), func(l sections.Link) bool { return resolves(links, r.Path, l, to) }) {
				out = append(out, mdsearch.Backlink{Path: r.Path, Text: cut(k+": "+v, backlinkText)})
			}
		}
	}
	return out
}

// propertyStrings are the strings of a property's value: itself, a
// list's items, a map's values.
func propertyStrings(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			out = append(out, propertyStrings(x)...)
		}
		return out
	case map[string]any:
		var out []string
		for _, x := range v {
			out = append(out, propertyStrings(x)...)
		}
		slices.Sort(out)
		return out
	}
	return nil
}

// resolves reports whether a link in the note at from names the note at
// to.
func resolves(links *vault.LinkIndex, from string, l sections.Link, to string) bool {
	resolve := links.ResolveRelative
	if l.Wiki {
		resolve = links.Resolve
	}
	p, ok := resolve(from, l.Target)
	return ok && p == to
}

// backlinkText is about how many characters of a linking line a
// Backlink shows.
const backlinkText = 160

// lineAround is the line of text holding byte at, trimmed and cut to
// about backlinkText characters around it.
func lineAround(text string, at int) string {
	start := strings.LastIndexByte(text[:at], '\n') + 1
	end := len(text)
	if i := strings.IndexByte(text[at:], '\n'); i >= 0 {
		end = at + i
	}
	line := text[start:end]
	at -= start
	if utf8.RuneCountInString(line) > backlinkText && at > backlinkText/2 { // keep the link in view
		from := at - backlinkText/4
		for from > 0 && !utf8.RuneStart(line[from]) {
			from--
		}
		line = "…" + line[from:]
	}
	return cut(strings.TrimSpace(line), backlinkText)
}

// cut is s cut to about n characters, at a rune, marked with "…".
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n])) + "…"
}
