package dot

import (
	"fmt"
	"math"
	"math/rand"
	"testing"
	"unsafe"
)

// coarseReference is Coarse in the most direct form: q8 against each
// component's high nibble, read from the int8 rows themselves.
func coarseReference(q8 []int8, v []int8, n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		for j, x := range q8 {
			out[i] += int32(x) * (int32(v[i*len(q8)+j])>>4 + 8)
		}
	}
	return out
}

// checkNibbles splits n rows with every kernel, joins them back with every
// kernel, and runs Coarse on the planes, each against the direct forms.
// Plane buffers carry a guard byte past the rows, so a kernel writing past
// them shows.
func checkNibbles(t *testing.T, q8 []int8, v []int8, n int) {
	t.Helper()
	dim := len(q8)
	h := Half(dim)
	want := coarseReference(q8, v, n)
	for _, ks := range Kernels() {
		hi, lo := make([]byte, n*h+1), make([]byte, n*h+1)
		hi[n*h], lo[n*h] = 0xa5, 0xa5
		for r := range n {
			ks.Split(v[r*dim:(r+1)*dim], hi[r*h:(r+1)*h], lo[r*h:(r+1)*h])
		}
		if hi[n*h] != 0xa5 || lo[n*h] != 0xa5 {
			t.Fatalf("%s: Split wrote past the planes", ks.Name)
		}
		for _, kj := range Kernels() {
			back := make([]int8, n*dim+1)
			back[n*dim] = 99
			kj.Join(hi, lo, dim, n, back[:n*dim])
			if back[n*dim] != 99 {
				t.Fatalf("%s: Join wrote past v", kj.Name)
			}
			for i := range n * dim {
				if back[i] != v[i] {
					t.Fatalf("split %s, join %s: dim %d: component %d = %d, want %d", ks.Name, kj.Name, dim, i, back[i], v[i])
				}
			}
		}
		for _, kc := range Kernels() {
			checkGuarded(t, fmt.Sprintf("split %s, coarse %s: dim %d", ks.Name, kc.Name, dim), n, math.MinInt32,
				func(out []int32) { kc.Coarse(q8, hi, out) }, want)
		}
	}
}

func TestNibbles(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	for _, dim := range []int{1, 31, 33, 63, 64, 65, 128, 384, 512, 768} {
		for _, n := range []int{0, 1, 2, 3, 7} {
			q8 := make([]int8, dim)
			for i := range q8 {
				q8[i] = int8(r.Intn(255) - 127)
			}
			checkNibbles(t, q8, randomRows(r, n, dim, nil), n)
			// The extremes: every component -128, then 127, the query at ±127.
			for _, c := range []int8{-128, 127, 0, -1} {
				for _, qc := range []int8{-127, 127} {
					for i := range q8 {
						q8[i] = qc
					}
					checkNibbles(t, q8, randomRows(r, n, dim, func(int) int8 { return c }), n)
				}
			}
		}
	}
}

// TestNibblesExact: 16 × (high-plane dot − 8 Σq) + low-plane dot is the
// exact int8 dot product, the identity the scan's estimate rests on.
func TestNibblesExact(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	const dim, n = 512, 50
	v := randomRows(r, n, dim, nil)
	q := make([]int16, dim)
	for i := range q {
		q[i] = int16(r.Intn(32767) - 16383)
	}
	want := reference(q, v, n)
	h := Half(dim)
	hi, lo := make([]byte, h), make([]byte, h)
	for i := range n {
		Best.Split(v[i*dim:(i+1)*dim], hi, lo)
		var sh, sl, sq int64
		for j, x := range q {
			b := j/64*32 + j%32
			sh += int64(x) * int64(hi[b]>>(4*uint(j%64/32))&15)
			sl += int64(x) * int64(lo[b]>>(4*uint(j%64/32))&15)
			sq += int64(x)
		}
		if got := 16*(sh-8*sq) + sl; got != want[i] {
			t.Fatalf("row %d: %d from the planes, want %d", i, got, want[i])
		}
	}
}

// FuzzNibbles: Split, Join and Coarse agree with the direct forms on any
// rows and query, for every kernel.
func FuzzNibbles(f *testing.F) {
	f.Add([]byte{1, 2, 3}, []byte{0x80, 0x7f, 0, 1, 2, 3}, uint16(3))
	f.Add(make([]byte, 64), make([]byte, 1024), uint16(64))
	f.Fuzz(func(t *testing.T, qb, vb []byte, dim uint16) {
		d := int(dim) % (len(qb) + 1)
		if d == 0 {
			return
		}
		q8 := make([]int8, d)
		for i := range q8 {
			q8[i] = max(int8(qb[i]), -127) // the scan's query never holds -128
		}
		n := min(len(vb)/d, 64)
		v := make([]int8, n*d)
		for i := range v {
			v[i] = int8(vb[i])
		}
		checkNibbles(t, q8, v, n)
	})
}

// BenchmarkCoarse: the high-plane pass over the rows of BenchmarkRows (half
// their bytes), and Join of a 1,024-row block, for every kernel.
func BenchmarkCoarse(b *testing.B) {
	const n, dim, block = 20_000, 512, 1024
	r := rand.New(rand.NewSource(2))
	v := randomRows(r, n, dim, nil)
	h := Half(dim)
	hi, lo := make([]byte, n*h), make([]byte, n*h)
	for i := range n {
		Best.Split(v[i*dim:(i+1)*dim], hi[i*h:(i+1)*h], lo[i*h:(i+1)*h])
	}
	q8 := make([]int8, dim)
	for i := range q8 {
		q8[i] = int8(r.Intn(255) - 127)
	}
	out := make([]int32, block)
	rows := make([]int8, block*dim)
	for _, k := range Kernels() {
		b.Run("coarse/"+k.Name, func(b *testing.B) {
			b.SetBytes(n * int64(h))
			for b.Loop() {
				for lo := 0; lo < n; lo += block {
					m := min(lo+block, n) - lo
					k.Coarse(q8, hi[lo*h:(lo+m)*h], out[:m])
				}
			}
		})
		b.Run("join/"+k.Name, func(b *testing.B) {
			b.SetBytes(block * dim)
			for b.Loop() {
				k.Join(hi, lo, dim, block, rows)
			}
		})
	}
}

// BenchmarkCoarseMemory: the coarse pass over a plane of 2^20 rows (256
// MB, far beyond the caches) on one core, in the scan's blocks and in one
// call, beside Stream's plain read of the same bytes in the same run.
func BenchmarkCoarseMemory(b *testing.B) {
	const n, dim, block = 1 << 20, 512, 1024
	h := Half(dim)
	hi := make([]byte, n*h)
	r := rand.New(rand.NewSource(1))
	r.Read(hi)
	q8 := make([]int8, dim)
	out := make([]int32, block)
	b.Run("coarse", func(b *testing.B) {
		b.SetBytes(int64(len(hi)))
		for b.Loop() {
			for lo := 0; lo < n; lo += block {
				Best.Coarse(q8, hi[lo*h:(lo+block)*h], out)
			}
		}
	})
	b.Run("coarse-one-call", func(b *testing.B) {
		b.SetBytes(int64(len(hi)))
		big := make([]int32, n)
		for b.Loop() {
			Best.Coarse(q8, hi, big)
		}
	})
	b.Run("stream", func(b *testing.B) {
		b.SetBytes(int64(len(hi)))
		for b.Loop() {
			Stream(unsafe.Slice((*int8)(unsafe.Pointer(&hi[0])), len(hi)))
		}
	})
}

// TestDotPlanes: the dot product read from the planes in place equals Dot
// of the int8 row, at every dimension shape and the extremes.
func TestDotPlanes(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	for _, dim := range []int{1, 31, 33, 64, 100, 512} {
		for _, fill := range []func(int) int8{nil, func(int) int8 { return -128 }, func(int) int8 { return 127 }} {
			v := randomRows(r, 1, dim, fill)
			q := make([]int16, dim)
			for i := range q {
				q[i] = int16(r.Intn(32767) - 16383)
			}
			hi, lo := make([]byte, Half(dim)), make([]byte, Half(dim))
			Best.Split(v, hi, lo)
			if got, want := DotPlanes(q, hi, lo), Dot(q, v); got != want {
				t.Fatalf("dim %d: DotPlanes %d, Dot %d", dim, got, want)
			}
		}
	}
}
