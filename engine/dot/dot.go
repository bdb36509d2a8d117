package dot

// Kernel is one implementation of Rows and of the nibble planes' Split,
// Join and Coarse; a nil one of those runs in Go.
type Kernel struct {
	Name   string
	rows   func(q []int16, v []int8, out []int64)
	split  func(v []int8, hi, lo []byte)
	join   func(hi, lo []byte, dim, rows int, v []int8)
	coarse func(q8 []int8, hi []byte, out []int32)
}

// Rows sets out[i] to the dot product of q with row i of v, where row i is
// v[i*len(q) : (i+1)*len(q)]. v must hold at least len(out) rows.
func (k Kernel) Rows(q []int16, v []int8, out []int64) {
	if len(out) == 0 {
		return
	}
	_ = v[:len(out)*len(q)] // one bounds check, for every kernel
	k.rows(q, v, out)
}

// Go is the portable kernel: plain Go, four rows per pass so each query
// component is loaded once per four rows (Go does not vectorise).
var Go = Kernel{Name: "go", rows: goRows}

// Best is the fastest kernel this CPU supports.
var Best = best()

func goRows(q []int16, v []int8, out []int64) {
	d := len(q)
	i := 0
	for ; i+4 <= len(out); i += 4 {
		r := v[i*d:]
		out[i], out[i+1], out[i+2], out[i+3] = dot4(q, r[:d], r[d:2*d], r[2*d:3*d], r[3*d:4*d])
	}
	for ; i < len(out); i++ {
		out[i] = Dot(q, v[i*d:(i+1)*d])
	}
}

func dot4(q []int16, a, b, c, d []int8) (sa, sb, sc, sd int64) {
	a, b, c, d = a[:len(q)], b[:len(q)], c[:len(q)], d[:len(q)]
	for i, x := range q {
		x := int64(x)
		sa += x * int64(a[i])
		sb += x * int64(b[i])
		sc += x * int64(c[i])
		sd += x * int64(d[i])
	}
	return
}

// Dot is the dot product of q with one row, in Go: for a single row a cgo
// call would cost more than the loop.
func Dot(q []int16, a []int8) (s int64) {
	a = a[:len(q)]
	for i, x := range q {
		s += int64(x) * int64(a[i])
	}
	return
}

// streamGo is Stream in Go, eight bytes a step.
func streamGo(v []int8) (t int64) {
	i := 0
	for ; i+8 <= len(v); i += 8 {
		w := uint64(uint8(v[i])) | uint64(uint8(v[i+1]))<<8 | uint64(uint8(v[i+2]))<<16 | uint64(uint8(v[i+3]))<<24 |
			uint64(uint8(v[i+4]))<<32 | uint64(uint8(v[i+5]))<<40 | uint64(uint8(v[i+6]))<<48 | uint64(uint8(v[i+7]))<<56
		w = (w & 0x00ff00ff00ff00ff) + (w >> 8 & 0x00ff00ff00ff00ff)
		w = (w & 0x0000ffff0000ffff) + (w >> 16 & 0x0000ffff0000ffff)
		t += int64(w&0xffffffff + w>>32)
	}
	for ; i < len(v); i++ {
		t += int64(uint8(v[i]))
	}
	return t
}
