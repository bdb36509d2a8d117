// Package sentenceencoder runs mdsearch's default embedding model, the Universal
// Sentence Encoder lite, on the CPU with ONNX Runtime.
//
// The model ships as TensorFlow.js files (model.json with its weight
// shards, and vocab.json). On first use the package reads the tfjs graph,
// checks that it has the expected structure, and writes an equivalent ONNX
// graph next to it as model.onnx; later loads reuse that file while the
// source files are unchanged. The tokenizer is a port of the reference
// JavaScript tokenizer and gives identical token ids. Counting tokens goes
// word by word through a cache of lattice runs and gives the same counts
// as encoding (see count.go). The chunker counts many ranges of each note
// (blocks, cuts, overlaps, windows with their heading prefix): Ranges walks
// a note once, but for the code the chunker will not count, and answers
// each range from running totals, exactly (see ranges.go and short.go).
//
// Options.Precision picks the graph: Int8 (the default) runs the
// transformer's projections in int8, weights per column and activations
// per token, about 1.9 times as fast as Float32, with vectors within cosine
// 0.99 of float32's; Float32 reproduces the reference vectors. Each precision has its own
// cache file (model-int8.onnx) and model ID (ModelID + "-int8-row"), so
// an index never mixes the two.
//
// Inference runs on a pool of sessions (pool.go), one single-thread
// session per thread up to four, opened as batches arrive together: an
// Embed call's batches run side by side, and so do concurrent calls, which
// keeps both cores of a small machine busier than one session splitting
// every operator across them.
//
// Inputs longer than the 128-token window are truncated, as the original
// model does, and counted (Model.Truncated).
//
// Room 4 of the pipeline (docs/architecture.md): the default embedder
// behind package embed's contract, the local model.
package sentenceencoder
