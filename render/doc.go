// Package render formats search results and note outlines as plain text, for
// people at a terminal (mdsearch search) and for agents (the MCP tools).
//
// One formatter serves every adapter so that a result reads the same
// everywhere: spec 1's line `1. **path** > Section (84.5%)`, then the chunk
// text, then where the chunk sits in its page and what the page would cost
// to read whole.
package render
