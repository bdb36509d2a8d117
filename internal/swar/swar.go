package swar

// Ones has 1 in every byte of a word; c*Ones repeats byte c eight times.
const Ones = 0x0101010101010101

// High has the high bit of every byte of a word.
const High = 0x8080808080808080

// Load8 is the eight bytes of s from i, the first lowest. The caller
// checks that s holds them.
func Load8[T ~string | ~[]byte](s T, i int) uint64 {
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// ZeroBytes has the high bit of each byte of x that is 0. No sum carries
// from one byte into the next, so the answer is exact for every byte.
func ZeroBytes(x uint64) uint64 {
	return ^((x&^High + 0x7f*Ones) | x) & High
}

// ASCII reports whether s holds ASCII bytes alone, eight at a time.
func ASCII[T ~string | ~[]byte](s T) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if Load8(s, i)&High != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i]&0x80 != 0 {
			return false
		}
	}
	return true
}
