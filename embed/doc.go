// Package embed defines the Embedder contract that turns chunk text into
// vectors, and small helpers on vectors. Implementations live in
// subpackages: embed/sentenceencoder runs the default local model (Universal Sentence
// Encoder lite) in ONNX Runtime, embed/remote calls Ollama or an
// OpenAI-compatible server. embed/provider opens one from flags and
// environment variables.
//
// Room 4 of the pipeline (docs/architecture.md): window texts and queries
// in, vectors out, for store and the engine.
package embed
