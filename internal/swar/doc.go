// Package swar holds the bit tricks that let mdsearch's hot loops (word
// counting, the tokenizer's walk) classify eight bytes at once in a
// uint64, SIMD within a register.
package swar
