// Package rest serves the mdsearch engine over HTTP: a JSON API for
// programs, whose search answers as the CLI's --json and MCP do, with the
// fields of the semantic-search API (otterwiki-semantic-search's) beside,
// and an embedded search page for people.
//
// Endpoints (all under /api/v1, JSON with Content-Type application/json):
//
//	GET  /semantic-search?q=&n=&max_per_page=&mode=&collection=&tag=&path_prefix=&where=&exclude=&max_tokens=&no_rerank=&as_typed=
//	GET  /notes/{path}?section=S   a note or one section; text/markdown by Accept
//	GET  /notes/{path}?render=html a note with its content as safe HTML and its headings
//	GET  /outline/{path}           a note's heading tree with section sizes
//	GET  /attachments/{path}?collection=C  an image a note embeds, from inside the collection's folder
//	GET  /status                   index stats and background reindex progress
//	POST /reindex[?full=1]         202: an incremental (or full) reindex in the background
//
// The page at / is plain HTML, CSS and JavaScript embedded in the binary.
//
// The handlers only validate and translate: ranking, dedup, section slicing
// and keeping paths inside the vault are the engine's. Bad parameters get a
// 400 with a JSON error; engine errors map by kind to 400, 403, 404 or 503.
// Bound to a non-loopback address the server requires a bearer token;
// without a token it answers only requests addressed to a loopback host name,
// which blocks DNS-rebinding attacks from web pages.
//
// Room 7 of the pipeline (docs/architecture.md): an adapter, for programs
// over HTTP and for people in a browser.
package rest
