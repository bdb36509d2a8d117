package chunks

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/sections"
)

// checkChunks returns the first broken invariant of a Split result, or nil:
// indexes and lines are consistent, Text is the source slice, counts and
// hashes are right, chunks fit the budget unless a single character does
// not, every non-blank byte of the body is in some chunk, and no chunk
// crosses a section except into recorded merges.
func checkChunks(doc *sections.Document, opts Options, cs []mdsearch.Chunk) error {
	opts = opts.withDefaults()
	src := doc.Src
	covered := make([]int, len(src)+1)
	prevStart := -1
	for i, c := range cs {
		if err := checkChunk(doc, opts, i, len(cs), c); err != nil {
			return fmt.Errorf("chunk %d (%s, bytes %d-%d): %w", i, strings.Join(c.SectionPath, " > "), c.StartByte, c.EndByte, err)
		}
		if c.StartByte < prevStart {
			return fmt.Errorf("chunk %d starts at %d, before chunk %d", i, c.StartByte, i-1)
		}
		prevStart = c.StartByte
		covered[c.StartByte]++
		covered[c.EndByte]--
		if err := checkParts(cs, i); err != nil {
			return err
		}
		if err := checkSections(doc, opts, c); err != nil {
			return fmt.Errorf("chunk %d (%s, bytes %d-%d): %w", i, strings.Join(c.SectionPath, " > "), c.StartByte, c.EndByte, err)
		}
	}
	depth := 0
	for i := 0; i < len(src); i++ {
		depth += covered[i]
		if i >= doc.Body && depth == 0 && !isSpace(src[i]) {
			return fmt.Errorf("byte %d (line %d, %q) is in no chunk", i, doc.Line(i), src[i])
		}
	}
	return nil
}

func checkChunk(doc *sections.Document, opts Options, i, n int, c mdsearch.Chunk) error {
	switch {
	case c.ChunkIndex != i || c.TotalChunks != n || c.ID != doc.Path+"#"+strconv.Itoa(i):
		return fmt.Errorf("index %d/%d id %q", c.ChunkIndex, c.TotalChunks, c.ID)
	case c.StartByte < doc.Body || c.StartByte >= c.EndByte || c.EndByte > len(doc.Src):
		return fmt.Errorf("bad byte range")
	case c.Text != doc.Text(c.StartByte, c.EndByte):
		return fmt.Errorf("text is not the source slice")
	case c.StartLine != doc.Line(c.StartByte) || c.EndLine != doc.Line(c.EndByte-1) || c.StartLine > c.EndLine:
		return fmt.Errorf("lines %d-%d do not match bytes", c.StartLine, c.EndLine)
	case !strings.HasSuffix(c.EmbedText, c.Text):
		return fmt.Errorf("embed text does not end with the text")
	case c.TokenCount != opts.Counter.CountTokens(c.EmbedText):
		return fmt.Errorf("token count %d is not the counter's", c.TokenCount)
	case c.WordCount != embed.CountWords(c.Text):
		return fmt.Errorf("word count %d", c.WordCount)
	case c.Hash != hashOf(c.EmbedText):
		return fmt.Errorf("hash")
	case c.TokenCount > opts.MaxTokens && utf8.RuneCountInString(strings.TrimSpace(c.Text)) > 1:
		return fmt.Errorf("%d tokens over the budget of %d", c.TokenCount, opts.MaxTokens)
	case c.Part < 1 || c.Part > c.Parts:
		return fmt.Errorf("part %d of %d", c.Part, c.Parts)
	case c.Title != doc.Title || c.Path != doc.Path:
		return fmt.Errorf("title %q path %q", c.Title, c.Path)
	}
	return nil
}

func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:16])
}

// checkParts checks that chunk i continues the parts of its section: part
// 1 opens a run of Parts chunks numbered in order.
func checkParts(cs []mdsearch.Chunk, i int) error {
	c := cs[i]
	if c.Part == 1 {
		if i > 0 && cs[i-1].Part != cs[i-1].Parts {
			return fmt.Errorf("chunk %d opens a section before chunk %d closed one (part %d of %d)", i, i-1, cs[i-1].Part, cs[i-1].Parts)
		}
		return nil
	}
	if p := cs[i-1]; p.Part != c.Part-1 || p.Parts != c.Parts {
		return fmt.Errorf("chunk %d is part %d of %d after part %d of %d", i, c.Part, c.Parts, p.Part, p.Parts)
	}
	return nil
}

// checkSections checks that every section c holds text of is its own
// section or a recorded merge. In the h2h3 profile a section counts as the
// H1/H2 section (or preamble) it sits in.
func checkSections(doc *sections.Document, opts Options, c mdsearch.Chunk) error {
	group := func(i int) int { return i }
	if opts.Profile == ProfileH2H3 {
		group = func(i int) int {
			for i > 0 && doc.Sections[i].Level != 1 && doc.Sections[i].Level != 2 {
				i--
			}
			return i
		}
	}
	allowed := map[int]bool{}
	byPath := func(path []string) bool {
		found := false
		for i, s := range doc.Sections {
			if slices.Equal(s.Path, path) {
				allowed[group(i)] = true
				found = true
			}
		}
		return found
	}
	if !byPath(c.SectionPath) {
		return fmt.Errorf("no section has path %q", c.SectionPath)
	}
	for _, m := range c.Merged { // two sections may share a path
		if !byPath(m) {
			return fmt.Errorf("merged path %q is no section", m)
		}
	}
	for i, s := range doc.Sections {
		end := s.BodyEnd
		for end > s.StartByte && isSpace(doc.Src[end-1]) {
			end--
		}
		if s.StartByte < c.EndByte && c.StartByte < end && !allowed[group(i)] {
			return fmt.Errorf("holds text of section %q, neither its own nor merged %q", s.Path, c.Merged)
		}
	}
	return nil
}
