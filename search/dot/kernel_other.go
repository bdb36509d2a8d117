//go:build !(amd64 && cgo)

package dot

func best() Kernel { return Go }

// Kernels lists every kernel this build can run on this CPU, Go first.
func Kernels() []Kernel { return []Kernel{Go} }
