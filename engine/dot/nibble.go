package dot

// Nibble planes: an int8 row v of dim components is kept as two rows of
// Half(dim) bytes, the high nibbles H = (v >> 4) + 8 and the low nibbles
// L = v & 15, both in 0..15, so v = 16(H - 8) + L exactly. A scan reads
// the high plane alone first (half the bytes: the scan is bound by memory
// bandwidth) and joins the two planes back into int8 rows only for the
// candidates it keeps.
//
// Within a plane row, each group of 64 components takes 32 bytes: byte j
// holds component j of the group in its low four bits and component j+32
// in its high four. Components past dim are zero nibbles (H = 0 there,
// which the coarse query's zero components cancel).

// Half is the bytes a plane row takes for dim components.
func Half(dim int) int { return (dim + 63) / 64 * 32 }

// Split writes row v into one row of each plane: hi and lo must hold
// Half(len(v)) bytes.
func (k Kernel) Split(v []int8, hi, lo []byte) {
	h := Half(len(v))
	_, _ = hi[:h], lo[:h]
	if k.split != nil && len(v)%64 == 0 && len(v) > 0 {
		k.split(v, hi, lo)
		return
	}
	splitGo(v, hi[:h], lo[:h])
}

// Join is Split's inverse for rows rows: v receives rows × dim int8
// components from as many rows of each plane.
func (k Kernel) Join(hi, lo []byte, dim, rows int, v []int8) {
	h := Half(dim)
	_, _, _ = hi[:rows*h], lo[:rows*h], v[:rows*dim]
	if k.join != nil && dim%64 == 0 && dim > 0 {
		k.join(hi, lo, dim, rows, v)
		return
	}
	for r := range rows {
		joinGo(hi[r*h:(r+1)*h], lo[r*h:(r+1)*h], v[r*dim:(r+1)*dim])
	}
}

// Coarse sets out[i] to the dot product of q8 with the high nibbles (0..15)
// of row i of the plane hi, whose rows take Half(len(q8)) bytes. q8's
// components past a multiple of 64 are read as zero.
func (k Kernel) Coarse(q8 []int8, hi []byte, out []int32) {
	if len(out) == 0 {
		return
	}
	h := Half(len(q8))
	_ = hi[:len(out)*h]
	if k.coarse != nil && len(q8)%64 == 0 {
		k.coarse(q8, hi, out)
		return
	}
	coarseGo(q8, hi, out)
}

func splitGo(v []int8, hi, lo []byte) {
	clear(hi)
	clear(lo)
	for i, x := range v {
		g, j := i/64*32, i%64
		shift := uint(0)
		if j >= 32 {
			j, shift = j-32, 4
		}
		hi[g+j] |= (uint8(x)>>4 ^ 8) << shift
		lo[g+j] |= (uint8(x) & 15) << shift
	}
}

// DotPlanes is Dot of q with the row that a row of each plane holds,
// read in place: for a single row, where joining it first costs more.
func DotPlanes(q []int16, hi, lo []byte) (s int64) {
	for g := 0; g < len(q); g += 64 {
		a, b := q[g:min(g+32, len(q))], q[min(g+32, len(q)):min(g+64, len(q))]
		h, l := hi[g/2:g/2+32], lo[g/2:g/2+32]
		for j, x := range a {
			s += int64(x) * int64(joined(h[j]&15, l[j]&15))
		}
		for j, x := range b {
			s += int64(x) * int64(joined(h[j]>>4, l[j]>>4))
		}
	}
	return s
}

// joined is the int8 component whose high and low nibbles are h and l.
func joined(h, l byte) int8 { return int8((h^8)<<4 | l) }

func joinGo(hi, lo []byte, v []int8) {
	for g := 0; g < len(v); g += 64 {
		a, b := v[g:min(g+32, len(v))], v[min(g+32, len(v)):min(g+64, len(v))]
		h, l := hi[g/2:g/2+32], lo[g/2:g/2+32]
		for j := range a {
			a[j] = joined(h[j]&15, l[j]&15)
		}
		for j := range b {
			b[j] = joined(h[j]>>4, l[j]>>4)
		}
	}
}

func coarseGo(q8 []int8, hi []byte, out []int32) {
	h := Half(len(q8))
	for r := range out {
		row := hi[r*h : (r+1)*h]
		var s int32
		for g := 0; g < len(q8); g += 64 {
			a, b := q8[g:min(g+32, len(q8))], q8[min(g+32, len(q8)):min(g+64, len(q8))]
			p := row[g/2 : g/2+32]
			for j, x := range a {
				s += int32(x) * int32(p[j]&15)
			}
			for j, x := range b {
				s += int32(x) * int32(p[j]>>4)
			}
		}
		out[r] = s
	}
}
