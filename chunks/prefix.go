package chunks

import (
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/sections"
)

// prefixed caches a section's prefix and the room it leaves.
type prefixed struct {
	text string
	room int
	set  bool
}

// prefix is the embed text prefix of the chunks of section id.
func (s *splitter) prefix(id *sections.Section) string { return s.prefixed(id).text }

// room is the budget left for text once the prefix is paid for.
func (s *splitter) room(id *sections.Section) int { return s.prefixed(id).room }

func (s *splitter) prefixed(id *sections.Section) prefixed {
	if p := s.prefixes[id.Index]; p.set {
		return p
	}
	text, tokens := s.makePrefix(id)
	p := prefixed{text: text, room: max(1, s.opts.MaxTokens-s.overhead-tokens), set: true}
	s.prefixes[id.Index] = p
	return p
}

// makePrefix is "[Title > Heading > …] " for section id, without repeating
// the title when the first heading is the title, shortened so that it takes
// at most half the budget, and its tokens.
func (s *splitter) makePrefix(id *sections.Section) (string, int) {
	limit := s.opts.MaxTokens / 2
	p := s.fullPrefix[id.Index] // the other splitter of the note may have made it
	var parts []string
	if p == "" {
		if parts = mdsearch.HeadingTrail(s.doc.Title, id.Path); len(parts) == 0 {
			return "", 0
		}
		p = joinPrefix(parts)
		s.fullPrefix[id.Index] = p
	}
	for {
		if n := s.countString(p); n <= limit {
			return p, n
		}
		if parts == nil {
			parts = mdsearch.HeadingTrail(s.doc.Title, id.Path)
		}
		if len(parts) > 1 {
			parts = parts[1:]
		} else {
			// One part left and still too long: keep its leading words.
			words := strings.Fields(parts[0])
			if len(words) <= 2 {
				return "", 0
			}
			parts[0] = strings.Join(words[:len(words)/2], " ") + " …"
		}
		p = joinPrefix(parts)
	}
}

// joinPrefix is the prefix of a heading trail: "[Title > Heading > …] ".
func joinPrefix(parts []string) string { return "[" + strings.Join(parts, " > ") + "] " }
