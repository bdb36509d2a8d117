package swar

import (
	"strings"
	"testing"
)

// TestZeroBytes checks every byte value at every position, with the other
// bytes zero and with them all set, against a byte loop.
func TestZeroBytes(t *testing.T) {
	for pos := range 8 {
		for c := range 256 {
			for _, rest := range []uint64{0, 0xffffffffffffffff, 0x0101010101010101, 0x8080808080808080} {
				x := rest&^(0xff<<(8*pos)) | uint64(c)<<(8*pos)
				var want uint64
				for b := range 8 {
					if byte(x>>(8*b)) == 0 {
						want |= 0x80 << (8 * b)
					}
				}
				if got := ZeroBytes(x); got != want {
					t.Fatalf("ZeroBytes(%#x) = %#x, want %#x", x, got, want)
				}
			}
		}
	}
}

func TestLoad8(t *testing.T) {
	s := "\x01\x02\x03\x04\x05\x06\x07\x08\x09"
	if got, want := Load8(s, 1), uint64(0x0908070605040302); got != want {
		t.Errorf("Load8(string) = %#x, want %#x", got, want)
	}
	if got, want := Load8([]byte(s), 0), uint64(0x0807060504030201); got != want {
		t.Errorf("Load8([]byte) = %#x, want %#x", got, want)
	}
}

// TestASCII puts one byte of every value at every position of texts of
// lengths around the eight-byte blocks.
func TestASCII(t *testing.T) {
	for n := 1; n <= 17; n++ {
		for pos := range n {
			for _, c := range []byte{0, 'a', 0x7f, 0x80, 0xc3, 0xff} {
				b := []byte(strings.Repeat("x", n))
				b[pos] = c
				if got, want := ASCII(b), c < 0x80; got != want || ASCII(string(b)) != want {
					t.Fatalf("ASCII(%q) = %v, want %v", b, got, want)
				}
			}
		}
	}
	if !ASCII("") {
		t.Error(`ASCII("") is false`)
	}
}
