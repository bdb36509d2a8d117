//go:build !unix

package engine

import "os"

// fileIdentity is unknown here: no vector cache is kept.
func fileIdentity(os.FileInfo) (string, bool) { return "", false }
