// Package mdsearch holds the domain types shared by every stage, and the one
// engine interface, Searcher, that the CLI, MCP server, REST API and web page
// all call.
//
// The pipeline, one package per stage:
//
//	vault     walks a folder of notes: ignore rules, size limits, paths kept inside the vault
//	sections  parses a note (goldmark): frontmatter, tags, title, headings, the section tree
//	chunks    cuts sections into chunks sized to the embedder's token window
//	embed     turns text into vectors (embed/sentenceencoder runs the local model; embed/remote calls servers)
//	store     keeps collections, documents, chunks, FTS5 and vectors in one SQLite file
//	search    the engine: incremental indexing, keyword, semantic and hybrid search, section reads
//	rescore   the engine's second stage: a learned model that reorders the best candidates and scores them as probabilities
//	rerank    an optional remote cross-encoder over the first results
//	cli, mcpserver, rest   thin adapters over search
package mdsearch
