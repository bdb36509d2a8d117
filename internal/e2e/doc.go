// Package e2e tests the adapters end to end: the built mdsearch binary,
// serving a real index of a temporary vault, driven over MCP (stdio and
// streamable HTTP, with the official SDK's client), over REST with a real
// HTTP client, through its file watcher, and through the search page in
// headless Chromium.
//
// The tests need no model: without the embedding assets the engine falls
// back to keyword search, and every query here finds its note either way.
// The browser test needs Debian's chromium package; it skips without it
// unless CI=true. Screenshots go to $MDSEARCH_ARTIFACTS (default: a
// mdsearch-artifacts folder in the system temp dir).
//
// Outside the pipeline (docs/architecture.md): it tests room 7 through the
// built binary.
package e2e
