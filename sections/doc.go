// Package sections parses one markdown note with goldmark into its
// frontmatter, tags, title, headings and section tree.
//
// Only headings that are children of the document split it: a '#' line in
// a code block, HTML block, list or block quote does not. ATX and setext
// headings both count; their text has inline markup stripped and escapes
// and entities resolved. Inline markup is read only where sections uses
// it, headings and paragraphs that may hold a #tag; other paragraphs skip
// goldmark's inline pass (plain.go), with the same Document as a result.
// Beyond CommonMark it reads GFM tables and strikethrough, heading
// attributes ("{#id}", "{: #id}" at the line's end or, kramdown's, on the
// line under it: headingattrs.go), MkDocs' admonitions and tabs
// (admonition.go), whose indented bodies are markdown rather than code,
// and Hugo's highlight shortcode, a fenced code block (hugohighlight.go).
// An attribute list under a heading is no text of the note: LeftOut, as
// the inline comments are.
//
// Offsets. Every byte offset and line number refers to the original file:
// Document.Src is the file's bytes unchanged (BOM, CRLF line endings and
// invalid UTF-8 included). goldmark reads CRLF natively; lone CRs (old Mac
// line endings) are read as LFs from a same-length copy, so offsets still
// match. Text handed out for display (Document.Text, Content, heading
// texts) shows each byte of invalid UTF-8 as U+FFFD and is otherwise the
// exact source slice; a warning names the first bad line.
//
// Frontmatter is a leading "---" block of YAML closed by "---" or "...",
// or a "+++" block of TOML closed by "+++" (Hugo's); it is stripped even
// when it is invalid (a warning says so). Document.Body
// is where the text after the BOM and frontmatter starts.
//
// Sections. The preamble (text before the first heading) is a section with
// level 0 and an empty path. Each heading opens a section whose own body
// runs to the next heading of any level [BodyStart, BodyEnd), and whose
// whole extent [StartByte, EndByte) runs to the next heading of the same or
// a higher level. Bodies are tiled into Blocks (paragraphs, list items,
// code, tables, other) that the chunker keeps whole when it can. An
// Obsidian comment of whole lines ("%%" to "%%", comments.go) is a Comment
// block: its headings open no section and its #tags tag nothing. An inline
// one (within a line, or opening or closing mid-line) is hidden as well:
// left out of PassageText, word counts, heading texts and tags, and a
// heading or block starting inside it opens nothing.
//
// Links reads the links a text makes to files of its vault (wikilinks,
// embeds, markdown links; none in code), which outlines resolve to list
// the places that link to a note; ParseWikiLink is the wikilink syntax
// the search page's renderer reads too.
//
// Room 2 of the pipeline (docs/architecture.md): a note's bytes in, its
// sections out, for chunks; the engine's reads and outlines parse with it
// too.
package sections
