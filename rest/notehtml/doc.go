// Package notehtml renders a note as HTML for the web page that rest
// serves.
//
// HTML renders a note with goldmark (GFM tables, strikethrough, task
// lists, autolinks, footnotes) into HTML that is safe to put in a page:
// raw HTML is omitted (an anchor alone, '<a id="old-name"></a>', is kept as
// an empty anchor of its id, and an <img> tag alone is the image it names,
// its src, alt and size read and nothing else), javascript: and similar links are dropped, images
// from outside the vault become text. Obsidian's syntax is understood as
// its reading view shows it: callouts become styled boxes, ==highlights==
// marks, #tags links that search for them (Options.Tag), %% comments are
// left out, [[wikilinks]] and ![[embeds]] link to the notes they name
// (resolved by the caller, with a vault.LinkIndex), and ![[diagram.png]]
// is an <img> of the address the caller serves that attachment at.
// Headings carry ids ("## Title {#custom-id}" sets one) and top-level
// blocks a data-line attribute, so a page can deep-link to a section and
// mark the lines of a search hit; a block an Obsidian block id ("^id")
// marks carries that id, for [[Note#^id]] links. Rendering is bounded: a
// note too big or too costly to parse is shown as its text, hostile runs
// of brackets and emphasis markers are read as text, and a cancelled
// request stops it.
//
// Room 7 of the pipeline (docs/architecture.md): beside the REST adapter,
// the web page's view of a note.
package notehtml
