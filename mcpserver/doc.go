// Package mcpserver serves the mdsearch engine to agents over the Model
// Context Protocol, with the official Go SDK.
//
// Three tools make an agent's search-then-read workflow cheap: semantic_search returns full
// chunks with their section handles, note_outline lists a note's sections and
// their sizes, and read_note returns one section (or the whole note). The
// tools only translate arguments and format answers; ranking, dedup and
// section slicing are the engine's. Every failure is a tool error with a
// message an agent can act on, so a bad call never ends the session. Over
// stdio a line that is no JSON-RPC message gets a JSON-RPC error too, where
// the SDK's stdio transport would end the session (stdio.go).
//
// Room 7 of the pipeline (docs/architecture.md): an adapter, for agents.
package mcpserver
