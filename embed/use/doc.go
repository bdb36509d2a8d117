// Package use runs mdsearch's default embedding model, the Universal
// Sentence Encoder lite, on the CPU with ONNX Runtime.
//
// The model ships as TensorFlow.js files (model.json with its weight
// shards, and vocab.json). On first use the package reads the tfjs graph,
// checks that it has the expected structure, and writes an equivalent ONNX
// graph next to it as model.onnx; later loads reuse that file while the
// source files are unchanged. The tokenizer is a port of the reference
// JavaScript tokenizer and gives identical token ids. Counting tokens,
// which the chunker does several times for every byte of a note, goes word
// by word through a cache of lattice runs and gives the same counts as
// encoding (see count.go).
//
// Inputs longer than the 128-token window are truncated, as the original
// model does, and counted (Model.Truncated).
package use
