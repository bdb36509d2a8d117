// Package render formats what mdsearch shows: search results and note
// outlines as plain text, and notes as HTML for the search page.
//
// One text formatter serves every adapter so that a result reads the same
// everywhere: the result line `1. **path** > Section (84.5%)`, then the chunk
// text, then where the chunk sits in its page and what the page would cost
// to read whole.
//
// HTML renders a note with goldmark (GFM tables, strikethrough, task lists,
// autolinks) into HTML that is safe to put in a page: raw HTML is omitted,
// javascript: and similar links are dropped, images become text. Obsidian's
// callouts become styled boxes, and its [[wikilinks]] and ![[embeds]] link
// to the notes they name, resolved by a LinkIndex as Obsidian resolves
// them. Headings carry ids ("## Title {#custom-id}" sets one) and top-level
// blocks a data-line attribute, so a page can deep-link to a section and
// mark the lines of a search hit.
//
// Beside room 7 of the pipeline (docs/architecture.md): the adapters' one
// text formatter, and notes as HTML for the web page.
package render
