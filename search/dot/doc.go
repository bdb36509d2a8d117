// Package dot computes integer dot products of one query with many stored
// vectors: the inner loop of the engine's exact vector scan.
//
// The query is int16 (the engine quantises it to 14 bits) and the stored
// vectors are int8 rows. Results are exact int64 sums, so every kernel gives
// the same numbers as the portable Go loop. On amd64 with cgo, Rows uses a
// C kernel chosen at start-up from the CPU's features: AVX-512 VNNI
// (vpdpwssd), AVX-512BW (vpmaddwd), or AVX2 (vpmaddwd on 256 bits). Other
// platforms, and builds without cgo, use the Go loop.
//
// Callers should pass many rows per call: a cgo call costs tens of
// nanoseconds, a 512-dimension row a few.
//
// Room 6 of the pipeline (docs/architecture.md): inside the engine's first
// stage, the semantic scan's kernel.
package dot
