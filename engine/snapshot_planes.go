package engine

import "github.com/mdsearch/mdsearch/engine/dot"

// A snapshot keeps its int8 vectors as two nibble planes (package dot):
// hi, the high four bits of every component, which the scan reads first
// (half the bytes of the vectors), and lo, the low four, read only for the
// rows the scan then scores exactly. Together they hold the int8 vectors
// bit for bit, in the same memory the vectors would take.

// half is the bytes a row takes in each plane.
func (s *snapshot) half() int { return dot.Half(s.dim) }

// allocVecs sizes the planes for n rows, with room for as many rows as
// s.ids has capacity for.
func (s *snapshot) allocVecs(n int) {
	h := s.half()
	s.hi = make([]byte, n*h, cap(s.ids)*h)
	s.lo = make([]byte, n*h, cap(s.ids)*h)
}

// setVec stores q as row r.
func (s *snapshot) setVec(r int, q []int8) {
	h := s.half()
	dot.Best.Split(q, s.hi[r*h:(r+1)*h], s.lo[r*h:(r+1)*h])
}

// appendVec adds q as the next row of the planes, leaving room for more
// when they must grow.
func (s *snapshot) appendVec(q []int8) {
	h := s.half()
	if h == 0 {
		return
	}
	s.hi, s.lo = growBy(s.hi, h), growBy(s.lo, h)
	s.setVec(len(s.hi)/h-1, q)
}

// copyVec copies row r of src into row dst of s.
func (s *snapshot) copyVec(dst int, src *snapshot, r int) {
	h := s.half()
	copy(s.hi[dst*h:(dst+1)*h], src.hi[r*h:(r+1)*h])
	copy(s.lo[dst*h:(dst+1)*h], src.lo[r*h:(r+1)*h])
}

// truncVecs keeps the first n rows.
func (s *snapshot) truncVecs(n int) {
	h := s.half()
	s.hi, s.lo = s.hi[:n*h], s.lo[:n*h]
}

// vecs joins rows [r, r+n) into v, n rows of dim int8 components.
func (s *snapshot) vecs(kern dot.Kernel, r, n int, v []int8) {
	h := s.half()
	kern.Join(s.hi[r*h:(r+n)*h], s.lo[r*h:(r+n)*h], s.dim, n, v)
}
