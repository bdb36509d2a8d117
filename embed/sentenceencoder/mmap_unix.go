//go:build unix

package sentenceencoder

import (
	"os"
	"syscall"
)

// mappedFile is a file mapped read-only; its bytes are outside the Go
// heap, so ONNX Runtime may keep using them after a call returns.
type mappedFile struct{ data []byte }

func mapFile(path string) (*mappedFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() == 0 || int64(int(st.Size())) != st.Size() {
		return nil, syscall.EINVAL
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	return &mappedFile{data: data}, nil
}

func (m *mappedFile) close() error { return syscall.Munmap(m.data) }
