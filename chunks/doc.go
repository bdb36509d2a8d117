// Package chunks cuts a parsed note into embeddable chunks that fit the
// model's token budget and never span two sections.
//
// The rules, in order:
//   - A note whose body fits one budget is one chunk (labelled with its
//     first section; the others are listed in Chunk.Merged).
//   - Otherwise the note is cut into units: every section's own body in the
//     "sections" profile; in "h2h3", H1 and H2 sections with everything
//     under them, cut again at H3 only when over budget (H4+ never).
//   - A stub unit (under StubWords words after its heading) merges into the
//     next unit when that one is at the same or a deeper level and either
//     both fit one chunk or the next must be cut anyway. Chunk.Merged names
//     the stub sections a chunk holds text of; a chunk is labelled with the
//     last section it holds text of.
//   - A unit over budget is cut into atoms: whole blocks when they fit, else
//     sentences, then lines, then words, then characters for prose; lines
//     for code; rows for tables (the first atom keeps the header). A heading
//     sticks to the atom after it. Atoms are packed greedily, and each chunk
//     after the first in a unit starts about Overlap of the budget back into
//     the one before, at a sentence, paragraph or line start.
//
// Budget. Every chunk's EmbedText, "[Title > Heading > …] " + Text, is
// counted with the Counter and stays within MaxTokens; the prefix is
// shortened to at most half the budget, and only a single character over
// the budget could exceed it. Token counts of blocks are summed as
// estimates and every chunk is recounted exactly, shrinking it if needed.
//
// Text. Chunk.Text is the source slice [StartByte, EndByte) of the original
// file (invalid UTF-8 shown as U+FFFD), starting at a line or word start and
// ending at its last non-blank byte, so every non-blank byte of the body is
// in some chunk. A chunk that starts among a table's rows repeats the
// table's header and delimiter rows in EmbedText only, between the prefix
// and Text; Text stays the exact slice.
package chunks
