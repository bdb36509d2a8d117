// Package chunks cuts a parsed note into passages, the unit of retrieval
// and display, and each passage into windows, the model's unit. Neither
// ever spans two sections, except where stub sections merge forward.
//
// Passages (mdsearch.Chunk), with the reading budget PassageWords counted
// in words:
//   - A note is cut into units: every section's own body in the
//     "sections" profile; in "h2h3", H1 and H2 sections with everything
//     under them, cut again at H3 only when over budget (H4+ never); a
//     deeper heading with no H1 or H2 above it groups what is under it.
//   - A comment is left out of the Text, word counts and embed texts of
//     the passage that holds it, its line breaks kept in Text: an Obsidian
//     comment of whole lines (sections.Comment), an inline one
//     (sections.InlineComments: within a line, or opening or closing
//     mid-line), an HTML comment ("<!-- … -->"). A unit is cut only at
//     a comment of whole lines over BigComment lines (a hidden draft,
//     whose blank lines would fill a passage), and no stub merges across
//     such a one; a heading with a smaller comment under it keeps its
//     text. A unit's comments of whole lines at its start or end are
//     trimmed off, so no passage starts or ends in one (an Excalidraw
//     drawing's data, after its labels, is in no passage's range).
//   - A stub unit (under StubWords words after its heading) merges into the
//     next unit when that one is at the same or a deeper level and either
//     both fit one passage or the next must be cut anyway. A heading
//     with nothing under it that merged into no next unit (a note's last,
//     or one before a shallower heading) joins the unit before it, on the
//     same terms, so no passage is a bare heading. A passage is
//     labelled with the section its text starts in, and Chunk.Sections
//     lists every section it holds text of when there is more than one.
//   - A unit over budget is cut into atoms: whole blocks when they fit, else
//     sentences, then lines, then words, then characters for prose (lines
//     first for a list item holding code); lines for code; rows for
//     tables. A heading sticks to the atom after it, a link reference
//     definition to the atom before it.
//     Atoms are packed greedily into consecutive parts without overlap.
//
// Windows (mdsearch.Window), with the model's budget MaxTokens counted by
// the model's own Counter: each passage is cut by the same rules into
// pieces whose EmbedText, "[Title > Heading > …] " + text, stays within
// MaxTokens (the prefix is shortened to at most half the budget; only a
// single character over the budget could exceed it). A window is prefixed
// with the deepest section it holds text of. Consecutive windows of a
// passage overlap by about Overlap of the budget, starting at a sentence,
// paragraph, list item or line start, never inside a code block. A window
// that starts among a table's rows repeats the table's header and
// delimiter rows in EmbedText only, between the prefix and the text. A
// passage's last window is its heading path alone ("[Title > Section]",
// empty text at the passage's start), so a question that names a section
// finds it even when the body speaks of it in other words. The model reads
// only the first CodeLines lines of a code block (by default its opening
// fence with the language): the rest is left out of EmbedText, not of the
// window's byte range or the passage's Text, which keyword search indexes.
// Likewise it reads only the first KeepRun bytes of an ASCII word over
// LongRun bytes (a base64 image, a long URL), so a megabyte of base64 is
// one window; text in scripts without spaces is not ASCII and is read
// whole. A window whose text leaves code or such a word out is not a
// slice of the passage's Text (the store then keeps its EmbedText whole).
// Vectors are still keyed by EmbedText, so an edit in code the model does
// not read re-embeds nothing.
//
// Counting. A Counter that is an embed.RangeCounter (the model's tokenizer)
// prepares each note once, leaving out the code no window reads, and
// counts its ranges from that; any other is handed every text whole. The
// counts, and so the passages and windows, are the same either way.
//
// Text. Chunk.Text is the source slice [StartByte, EndByte) of the original
// file (invalid UTF-8 shown as U+FFFD, comments left out but for their
// line breaks: sections.Document.PassageText), starting at a line or
// word start and ending at its last non-blank byte, so every non-blank byte
// of the body outside comments is in some passage, and in some window of
// it, and a passage's text has as many lines as its range.
//
// Room 3 of the pipeline (docs/architecture.md): a note's sections in,
// passages and their windows out, for embed and store.
package chunks
