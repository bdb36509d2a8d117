//go:build unix

package search

import (
	"os"
	"syscall"

	"github.com/mdsearch/mdsearch"
)

// lockIndex takes an exclusive advisory lock next to the index file, so two
// processes indexing the same file take turns instead of interleaving.
func lockIndex(indexPath string) (unlock func(), err error) {
	f, err := os.OpenFile(indexPath+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, mdsearch.Errorf(mdsearch.KindInternal, "lock index", indexPath+".lock", "", "%v", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, mdsearch.Errorf(mdsearch.KindInternal, "lock index", indexPath+".lock", "", "%v", err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
