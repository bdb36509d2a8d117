// Package mdsearch holds the vocabulary every stage shares: the domain
// types, the one engine interface, Searcher, that the CLI, MCP server, REST
// API and web page all call, typed errors with hints, the request's filters
// and line ranges, and the reading-cost estimate.
//
// The pipeline, one package a room (docs/architecture.md, with the glossary
// the names follow):
//
//	vault     1. walks a folder of notes: ignore rules, size limits, paths kept inside the vault
//	sections  2. parses a note (goldmark): frontmatter, tags, title, headings, the section tree
//	chunks    3. cuts sections into passages (Chunk) and passages into windows (Window) within the model window
//	embed     4. turns window texts and queries into vectors (embed/sentenceencoder runs the local model; embed/remote calls servers)
//	store     5. keeps collections, notes, passages, windows, the keyword index and vectors in one SQLite file
//	search    6. the engine: incremental indexing, the first stage (keyword, semantic, hybrid), reads; rescore is its second stage, rerank an optional cross-encoder after it
//	cli, mcpserver, rest, watch   7. the adapters over the engine; render is their one text formatter
package mdsearch
