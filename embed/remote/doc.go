// Package remote embeds text with a model served over HTTP: Ollama
// (POST /api/embed) or any OpenAI-compatible server (POST /v1/embeddings).
//
// An Embedder sends texts in batches, checks that every answer has one
// vector per text and the expected dimension (learning it from the first
// answer when not given), and L2-normalises the vectors. Requests that fail
// with 429, a 5xx status, a timeout or a network error are retried with
// exponential backoff and jitter, honouring Retry-After; the context is
// checked between batches and during waits. A search's query
// (EmbedQuery) gets QueryTimeout in all instead, with one quick retry if
// it fits: a person waits on it, and keyword results are better than a
// search that hangs for minutes. Errors say what failed by kind (CauseOf),
// and text from the server's answers never shows the API key.
//
// Embed is safe for concurrent use. While indexing, the engine keeps
// Parallel calls and one more in flight (embed.Concurrent), so a server
// that answers one request at a time always has the next one queued
// while mdsearch writes the last answer.
//
// No tokenizer for the served model is available here, so CountTokens is a
// deliberately high estimate (see EstimateTokens), and texts over MaxTokens
// by that estimate are cut before sending and counted (Truncated).
// Blank texts are not sent; they embed as zero vectors.
//
// Room 4 of the pipeline (docs/architecture.md): an embedder behind package
// embed's contract, the model on a server.
package remote
