package sections

import (
	"bytes"
	"strings"
)

// WikiLink is Obsidian's [[target#heading|alias]], or ![[…]], an embed.
type WikiLink struct {
	Target, Heading, Alias string
	Embed                  bool
}

// ParseWikiLink reads the wikilink or embed that line opens with, on one
// line; n is its length in bytes, 0 where line opens with none.
func ParseWikiLink(line []byte) (n int, l WikiLink) {
	rest := line
	if l.Embed = bytes.HasPrefix(rest, []byte("!")); l.Embed {
		rest = rest[1:]
	}
	if !bytes.HasPrefix(rest, []byte("[[")) {
		return 0, l
	}
	// The target holds no bracket and no line break: the first of them
	// ends it, so a line of a thousand "[[" is read in one pass, not one
	// pass per bracket.
	end := bytes.IndexAny(rest[2:], "[]\n")
	if end <= 0 || !bytes.HasPrefix(rest[2+end:], []byte("]]")) {
		return 0, l
	}
	inner := string(rest[2 : 2+end])
	// In a table cell the alias pipe is written "\|".
	target, alias, _ := strings.Cut(strings.ReplaceAll(inner, `\|`, "|"), "|")
	l.Alias = strings.TrimSpace(alias)
	target, heading, _ := strings.Cut(target, "#")
	l.Target = strings.TrimSpace(target)
	// [[Note#A#B]] names B under A; the last heading is the one linked.
	l.Heading = strings.TrimSpace(heading[strings.LastIndexByte(heading, '#')+1:])
	return len(line) - len(rest) + end + 4, l
}
