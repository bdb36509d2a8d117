//go:build !(amd64 && cgo)

package dot

func best() Kernel { return Go }

// Kernels lists every kernel this build can run on this CPU, Go first.
func Kernels() []Kernel { return []Kernel{Go} }

// Stream sums the bytes of v as unsigned: a read of v at the speed memory
// allows, the baseline benchmarks hold the scan to.
func Stream(v []int8) int64 { return streamGo(v) }
