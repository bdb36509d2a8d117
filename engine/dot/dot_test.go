package dot

import (
	"fmt"
	"math"
	"math/rand"
	"testing"
)

// randomRows fills n rows of dim components: uniform, or one extreme
// value everywhere when fill is set.
func randomRows(r *rand.Rand, n, dim int, fill func(int) int8) []int8 {
	v := make([]int8, n*dim)
	for i := range v {
		if fill != nil {
			v[i] = fill(i)
		} else {
			v[i] = int8(r.Intn(256) - 128)
		}
	}
	return v
}

// reference is the dot product in the most direct form, to check the Go
// kernel itself.
func reference(q []int16, v []int8, n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		for j, x := range q {
			out[i] += int64(x) * int64(v[i*len(q)+j])
		}
	}
	return out
}

// checkAll runs every kernel on the same input and compares each with the
// reference. Inputs carry a guard row after the n rows asked for, and out
// a guard slot, so a kernel reading or writing past them shows.
func checkAll(t *testing.T, q []int16, v []int8, n int) {
	t.Helper()
	want := reference(q, v, n)
	for _, k := range Kernels() {
		checkGuarded(t, fmt.Sprintf("%s: dim %d, %d rows", k.Name, len(q), n), n, math.MinInt64,
			func(out []int64) { k.Rows(q, v, out) }, want)
	}
}

// checkGuarded runs f on n outputs with a guard slot after them, so a
// kernel writing past them shows, and compares the outputs with want.
func checkGuarded[T int32 | int64](t *testing.T, what string, n int, guard T, f func([]T), want []T) {
	t.Helper()
	out := make([]T, n+1)
	out[n] = guard
	f(out[:n])
	if out[n] != guard {
		t.Fatalf("%s: wrote past out", what)
	}
	for i := range n {
		if out[i] != want[i] {
			t.Fatalf("%s: row %d = %d, want %d", what, i, out[i], want[i])
		}
	}
}

func TestKernels(t *testing.T) {
	t.Logf("kernels: %v, best %s", names(Kernels()), Best.Name)
	r := rand.New(rand.NewSource(1))
	qmin := func(int) int16 { return math.MinInt16 }
	qmax := func(int) int16 { return math.MaxInt16 }
	q14 := func(int) int16 { return 16383 }
	alt := func(i int) int16 { return int16(16383 * (1 - 2*(i%2))) }
	vmin := func(int) int8 { return -128 }
	vmax := func(int) int8 { return 127 }
	cases := []struct {
		dims, rows []int
		q          func(int) int16 // nil: random
		v          func(int) int8  // nil: random
	}{
		{[]int{512}, []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 255, 1001}, nil, nil},
		{[]int{1, 15, 16, 17, 31, 32, 33, 63, 100, 511, 513, 768, 1536}, []int{1, 3, 4, 6, 13}, nil, nil},
		{[]int{2047, 2048, 2049, 4096, 4099}, []int{5}, nil, nil}, // int32 blocks and their tails
		{[]int{512, 4096, 8191}, []int{5}, qmin, vmin},            // the largest products, all positive
		{[]int{512, 4096, 8191}, []int{5}, qmin, vmax},
		{[]int{512, 4096, 8191}, []int{5}, qmax, vmin},
		{[]int{512, 4096, 8191}, []int{5}, qmax, vmax},
		{[]int{512, 33}, []int{9}, q14, vmin},
		{[]int{512, 33}, []int{9}, alt, nil},
	}
	for _, c := range cases {
		for _, dim := range c.dims {
			for _, n := range c.rows {
				t.Run(fmt.Sprintf("%d×%d", n, dim), func(t *testing.T) {
					q := make([]int16, dim)
					for i := range q {
						if c.q != nil {
							q[i] = c.q(i)
						} else {
							q[i] = int16(r.Intn(65536) - 32768)
						}
					}
					checkAll(t, q, randomRows(r, n+1, dim, c.v), n)
				})
			}
		}
	}
}

// TestEmptyQuery: zero dimensions give zero dot products.
func TestEmptyQuery(t *testing.T) {
	for _, k := range Kernels() {
		out := []int64{7, 7}
		k.Rows(nil, nil, out)
		if out[0] != 0 || out[1] != 0 {
			t.Errorf("%s: %v", k.Name, out)
		}
	}
}

func TestShortRowsPanic(t *testing.T) {
	for _, k := range Kernels() {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: 2 rows of 4 asked from 7 components did not panic", k.Name)
				}
			}()
			k.Rows(make([]int16, 4), make([]int8, 7), make([]int64, 2))
		}()
	}
}

// FuzzKernels: every kernel equals the reference on any query and rows.
func FuzzKernels(f *testing.F) {
	f.Add([]byte{1, 2, 3}, []byte{0x80, 0x7f, 0, 1, 2, 3}, uint16(3))
	f.Add(make([]byte, 64), make([]byte, 1024), uint16(32))
	f.Fuzz(func(t *testing.T, qb, vb []byte, dim uint16) {
		d := int(dim) % (len(qb)/2 + 1)
		if d == 0 {
			return
		}
		q := make([]int16, d)
		for i := range q {
			q[i] = int16(uint16(qb[2*i]) | uint16(qb[2*i+1])<<8)
		}
		n := len(vb) / d
		v := make([]int8, (n+1)*d) // a zero guard row
		for i := range n * d {
			v[i] = int8(vb[i])
		}
		checkAll(t, q, v, n)
	})
}

func names(ks []Kernel) []string {
	var s []string
	for _, k := range ks {
		s = append(s, k.Name)
	}
	return s
}

// BenchmarkRows: every kernel over 20,000 rows of 512 (10 MB, beyond the
// caches), in blocks of 1,024 rows as the scan calls it.
func BenchmarkRows(b *testing.B) {
	const n, dim, block = 20_000, 512, 1024
	r := rand.New(rand.NewSource(2))
	v := randomRows(r, n, dim, nil)
	q := make([]int16, dim)
	for i := range q {
		q[i] = int16(r.Intn(32767) - 16383)
	}
	out := make([]int64, block)
	for _, k := range Kernels() {
		b.Run(k.Name, func(b *testing.B) {
			b.SetBytes(n * dim)
			for b.Loop() {
				for lo := 0; lo < n; lo += block {
					hi := min(lo+block, n)
					k.Rows(q, v[lo*dim:hi*dim], out[:hi-lo])
				}
			}
		})
	}
}

// TestStream checks the baseline read against a plain sum, at lengths
// around its steps.
func TestStream(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 31, 127, 128, 129, 1000, 4099} {
		v := make([]int8, n)
		var want int64
		for i := range v {
			v[i] = int8(i*37 + 11)
			want += int64(uint8(v[i]))
		}
		if got := Stream(v); got != want {
			t.Errorf("n=%d: Stream %d, want %d", n, got, want)
		}
		if got := streamGo(v); got != want {
			t.Errorf("n=%d: streamGo %d, want %d", n, got, want)
		}
	}
}
