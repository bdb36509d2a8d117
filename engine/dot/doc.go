// Package dot computes integer dot products of one query with many stored
// vectors: the inner loops of the engine's vector scan.
//
// The stored vectors are int8 rows, kept as two nibble planes (nibble.go):
// the high four bits of every component and the low four. Coarse reads the
// high plane alone, half the bytes, against an int8 query: the scan's
// first pass, which estimates every row's score. Join rebuilds the int8
// rows of the candidates it keeps, and Rows scores them exactly against
// the int16 query (the engine quantises it to 14 bits), in int64, so every
// kernel gives the same numbers as the portable Go loop.
//
// On amd64 with cgo the kernels are C, chosen at start-up from the CPU's
// features: Rows with AVX-512 VNNI (vpdpwssd), AVX-512BW (vpmaddwd) or
// AVX2 (vpmaddwd on 256 bits); Split, Join and Coarse with AVX2
// (vpmaddubsw). Other platforms, and builds without cgo, use Go loops.
//
// Callers should pass many rows per call: a cgo call costs tens of
// nanoseconds, a 512-dimension row a few.
//
// Room 6 of the pipeline (docs/architecture.md): inside the engine's first
// stage, the semantic scan's kernel.
package dot
