package chunks

import (
	"testing"

	"github.com/mdsearch/mdsearch/internal/wordcount"
	"github.com/mdsearch/mdsearch/sections"
)

// BenchmarkCountFloor bounds from below what any chunker built on
// sections.Parse can reach with the model's counts, on the Rust RFCs, one
// core, stages interleaved as in BenchmarkRFCsCounters:
//
//   - sections: sections.Parse alone;
//   - parse+scan: Parse, then every section body scanned once for words
//     (wordcount.Count), the least a counter must do;
//   - parse+lookup: Parse, then every word of every body looked up in a
//     map holding its model token count, made before the loop: an ideal
//     cache with no lattice, no misses to fill and no packing at all;
//   - split-model: parse + Split with the model's counter, the index path.
//
// The lookup's sums are not exact window counts (a word's tokens can
// depend on what precedes it); they are what an ideal per-word cache costs.
// No packer can beat parse+lookup, so it is the ceiling of the goal's
// figure on this machine.
func BenchmarkCountFloor(b *testing.B) {
	names, srcs, total := rfcs(b)
	model := modelOptions(b)
	tok := modelCounter(b)
	docs := parseAll(names, srcs)
	counts := map[string]int{}
	for _, d := range docs {
		eachBodyWord(d, func(w []byte) int {
			if _, ok := counts[string(w)]; !ok {
				counts[string(w)] = tok.CountTokens(string(w))
			}
			return 0
		})
	}
	sink := 0
	stages := []stage{
		{"sections", func(i int) { sections.Parse(names[i], srcs[i]) }},
		{"parse+scan", func(i int) {
			d := sections.Parse(names[i], srcs[i])
			for _, s := range d.Sections {
				sink += wordcount.Count(d.Src[s.BodyStart:s.BodyEnd])
			}
		}},
		{"parse+lookup", func(i int) {
			sink += eachBodyWord(sections.Parse(names[i], srcs[i]), func(w []byte) int { return counts[string(w)] })
		}},
		{"split-model", func(i int) { Split(sections.Parse(names[i], srcs[i]), model) }},
	}
	interleave(b, stages, len(srcs), total)
	if sink == 0 {
		b.Fatal("nothing counted")
	}
	b.ReportMetric(float64(len(counts)), "distinct-words")
}

// eachBodyWord calls f on every run of bytes between ASCII white space in
// every section body of d, and sums what it returns.
func eachBodyWord(d *sections.Document, f func(w []byte) int) int {
	n := 0
	for _, s := range d.Sections {
		body := d.Src[s.BodyStart:s.BodyEnd]
		start := -1
		for i, c := range body {
			if c == ' ' || c == '\n' || c == '\t' || c == '\r' {
				if start >= 0 {
					n += f(body[start:i])
					start = -1
				}
			} else if start < 0 {
				start = i
			}
		}
		if start >= 0 {
			n += f(body[start:])
		}
	}
	return n
}
