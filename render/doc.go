// Package render formats what mdsearch shows as text: search results,
// reads and note outlines.
//
// One text formatter serves every adapter so that a result reads the same
// everywhere: the result line `1. **path** > Section (84.5%)`, then the chunk
// text, then where the chunk sits in its page and what the page would cost
// to read whole.
//
// Beside room 7 of the pipeline (docs/architecture.md): the adapters' one
// text formatter. Notes as HTML for the web page are rest/notehtml's.
package render
