package eval

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/chunks"
	"github.com/mdsearch/mdsearch/embed"
	"github.com/mdsearch/mdsearch/internal/wordcount"
	"github.com/mdsearch/mdsearch/sections"
)

// Baseline sizes, from the designs they stand for.
const (
	// ParagraphWords is the paragraph chunker's target size in words.
	ParagraphWords = 150
	// FixedTokens and FixedOverlap size the fixed windows like a
	// SentenceSplitter(chunk_size=1024, chunk_overlap=200), in the
	// embedder's tokens.
	FixedTokens  = 1024
	FixedOverlap = 200
)

// The baseline chunkers ignore headings: their chunks have no section
// path and no heading prefix (EmbedText == Text), as in the systems they
// stand for. They ignore opts.MaxTokens, so whole-doc and fixed chunks can
// exceed the model's window; the model then truncates them.

// WholeDoc is one chunk per note: the whole body after the frontmatter.
func WholeDoc(doc *sections.Document, opts chunks.Options) []mdsearch.Chunk {
	start, end := trimSpan(doc.Src, doc.Body, len(doc.Src))
	if start == end {
		return nil
	}
	return finish(doc, opts, []seg{{start, end}})
}

// Paragraph splits the body on blank lines, ignoring headings, and packs
// consecutive paragraphs into chunks of at most ParagraphWords words. A
// paragraph over that size is cut at sentence ends instead, and a sentence
// over it at words.
func Paragraph(doc *sections.Document, opts chunks.Options) []mdsearch.Chunk {
	src := doc.Src
	var out []seg
	var cur []unit
	for _, p := range paragraphs(src, doc.Body, len(src)) {
		p.size = wordcount.Count(src[p.start:p.end])
		if p.size > ParagraphWords {
			out = appendPacked(out, cur, ParagraphWords)
			cur = nil
			units := cutLong(src, sentences(src, p.start, p.end), wordSize, ParagraphWords)
			out = appendPacked(out, units, ParagraphWords)
			continue
		}
		cur = append(cur, p)
	}
	out = appendPacked(out, cur, ParagraphWords)
	return finish(doc, opts, out)
}

// Fixed cuts the body into sentences and packs them into windows of at
// most FixedTokens tokens; each window after the first starts with the
// last sentences of the previous one, up to FixedOverlap tokens.
func Fixed(doc *sections.Document, opts chunks.Options) []mdsearch.Chunk {
	counter := opts.Counter
	if counter == nil {
		counter = embed.Words{}
	}
	overhead := counter.CountTokens("")
	size := func(b []byte) int { return max(0, counter.CountTokens(string(b))-overhead) }
	src := doc.Src
	units := cutLong(src, sentences(src, doc.Body, len(src)), size, FixedTokens)
	return finish(doc, opts, windows(units, FixedTokens, FixedOverlap))
}

// seg is a chunk's byte range.
type seg struct{ start, end int }

// unit is a paragraph, sentence or word run with its size.
type unit struct {
	start, end int
	size       int
}

// appendPacked packs units greedily into segments of at most limit.
func appendPacked(out []seg, units []unit, limit int) []seg {
	for i := 0; i < len(units); {
		j, total := i, 0
		for j < len(units) && (j == i || total+units[j].size <= limit) {
			total += units[j].size
			j++
		}
		out = append(out, seg{units[i].start, units[j-1].end})
		i = j
	}
	return out
}

// windows packs units into windows of at most limit, each window after
// the first repeating the trailing units of the previous one, up to
// overlap in size, as long as that still moves forward.
func windows(units []unit, limit, overlap int) []seg {
	var out []seg
	for i := 0; i < len(units); {
		j, total := i, 0
		for j < len(units) && (j == i || total+units[j].size <= limit) {
			total += units[j].size
			j++
		}
		out = append(out, seg{units[i].start, units[j-1].end})
		if j == len(units) {
			break
		}
		next, kept := j, 0
		// Keep room for units[j], so every window adds something new.
		for next-1 > i && kept+units[next-1].size <= min(overlap, limit-units[j].size) {
			next--
			kept += units[next].size
		}
		i = next
	}
	return out
}

// finish turns byte ranges into chunks of doc.
func finish(doc *sections.Document, opts chunks.Options, segs []seg) []mdsearch.Chunk {
	counter := opts.Counter
	if counter == nil {
		counter = embed.Words{}
	}
	out := make([]mdsearch.Chunk, 0, len(segs))
	for i, s := range segs {
		text := doc.Text(s.start, s.end)
		sum := sha256.Sum256([]byte(text))
		out = append(out, mdsearch.Chunk{
			ID:          doc.Path + "#" + strconv.Itoa(i),
			Path:        doc.Path,
			Title:       doc.Title,
			SectionPath: []string{},
			StartLine:   doc.Line(s.start),
			EndLine:     doc.Line(max(s.start, s.end-1)),
			StartByte:   s.start,
			EndByte:     s.end,
			ChunkIndex:  i,
			TotalChunks: len(segs),
			Part:        1,
			Parts:       1,
			Text:        text,
			WordCount:   wordcount.Count(text),
			Tags:        doc.Tags,
			Frontmatter: doc.Frontmatter,
			// One window, the text alone: these baselines embed what they
			// cut, without a heading prefix, as the systems they stand for.
			Windows: []mdsearch.Window{{StartByte: s.start, EndByte: s.end, EmbedText: text,
				TokenCount: counter.CountTokens(text), Hash: hex.EncodeToString(sum[:16])}},
		})
	}
	return out
}
