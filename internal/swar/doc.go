// Package swar holds the bit tricks that let mdsearch's hot loops (word
// counting, the tokenizer's walk) classify eight bytes at once in a
// uint64, SIMD within a register.
//
// Under the pipeline (docs/architecture.md): the floor the hot loops of
// rooms 2 to 4 stand on.
package swar
