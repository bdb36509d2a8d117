package eval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/chunks"
	"github.com/mdsearch/mdsearch/engine"
	"github.com/mdsearch/mdsearch/sections"
)

// Chunker names.
const (
	ChunkWholeDoc  = "whole-doc"
	ChunkParagraph = "paragraph"
	ChunkFixed     = "fixed"
	ChunkSections  = "sections"
	ChunkH2H3      = "h2h3"
)

// chunker is one way of cutting notes, and the search mode a bare
// configuration name uses with it.
type chunker struct {
	name  string
	split func(*sections.Document, chunks.Options) []mdsearch.Chunk // nil: chunks.Split
	opts  chunks.Options
	mode  mdsearch.Mode
}

var chunkers = []chunker{
	{name: ChunkBM25Sections, mode: mdsearch.ModeKeyword},
	{name: ChunkWholeDoc, split: WholeDoc, mode: mdsearch.ModeSemantic},
	{name: ChunkParagraph, split: Paragraph, mode: mdsearch.ModeSemantic},
	{name: ChunkFixed, split: Fixed, mode: mdsearch.ModeSemantic},
	{name: ChunkSections, opts: chunks.Options{Profile: chunks.ProfileSections}, mode: mdsearch.ModeHybrid},
	{name: ChunkH2H3, opts: chunks.Options{Profile: chunks.ProfileH2H3}, mode: mdsearch.ModeHybrid},
}

// Config is one row of the evaluation: a chunker and a search mode.
type Config struct {
	Name    string        `json:"name"`
	Chunker string        `json:"chunker"`
	Mode    mdsearch.Mode `json:"mode"`
}

// DefaultConfigs are the configurations run when none are named.
var DefaultConfigs = []string{
	"bm25-sections", "whole-doc", "paragraph", "fixed",
	"sections-keyword", "sections-semantic", "sections-hybrid",
	"h2h3-hybrid",
}

// ParseConfigs reads configuration names: each a chunker, optionally
// followed by "-keyword", "-semantic" or "-hybrid". Names may also be
// comma-separated; "all" (or none) means DefaultConfigs. Duplicates are
// dropped.
func ParseConfigs(names []string) ([]Config, error) {
	var flat []string
	for _, n := range names {
		for _, p := range strings.Split(n, ",") {
			if p = strings.TrimSpace(p); p != "" {
				flat = append(flat, p)
			}
		}
	}
	if len(flat) == 0 || slices.Contains(flat, "all") {
		flat = DefaultConfigs
	}
	var out []Config
	seen := map[string]bool{}
	for _, n := range flat {
		c, err := parseConfig(n)
		if err != nil {
			return nil, err
		}
		if !seen[c.Name] {
			seen[c.Name] = true
			out = append(out, c)
		}
	}
	return out, nil
}

func parseConfig(name string) (Config, error) {
	name = strings.ToLower(name)
	for _, ch := range chunkers {
		if name == ch.name {
			return Config{Name: name, Chunker: ch.name, Mode: ch.mode}, nil
		}
		rest, ok := strings.CutPrefix(name, ch.name+"-")
		if !ok {
			continue
		}
		switch m := mdsearch.Mode(rest); m {
		case mdsearch.ModeKeyword, mdsearch.ModeSemantic, mdsearch.ModeHybrid:
			if ch.name == ChunkBM25Sections && m != mdsearch.ModeKeyword {
				// The baseline is a keyword table: it has no vectors to search.
				return Config{}, mdsearch.Errorf(mdsearch.KindInvalid, "eval", "", "e.g. "+strings.Join(DefaultConfigs, ", "),
					"configuration %q: the bm25-sections baseline searches keywords alone (bm25-sections, bm25-sections-keyword); "+
						"mdsearch's sections in %s mode are sections-%s", name, m, m)
			}
			return Config{Name: name, Chunker: ch.name, Mode: m}, nil
		}
	}
	names := make([]string, len(chunkers))
	for i, ch := range chunkers {
		names[i] = ch.name
	}
	return Config{}, mdsearch.Errorf(mdsearch.KindInvalid, "eval", "", "e.g. "+strings.Join(DefaultConfigs, ", "),
		"unknown configuration %q: want a chunker (%s), optionally with -keyword, -semantic or -hybrid",
		name, strings.Join(names, ", "))
}

// engineOptions are the engine settings that build a chunker's index.
func engineOptions(chunkerName string) (engine.Options, error) {
	for _, ch := range chunkers {
		if ch.name != chunkerName {
			continue
		}
		o := engine.Options{Chunking: ch.opts}
		if ch.split != nil {
			o.Split, o.SplitName = ch.split, ch.name
		}
		return o, nil
	}
	return engine.Options{}, fmt.Errorf("unknown chunker %q", chunkerName)
}
