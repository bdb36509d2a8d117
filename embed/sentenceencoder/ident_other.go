//go:build !linux

package sentenceencoder

// identify never vouches for a file where the change time is not read:
// the stamp is then hashed on every load.
func identify(string) (fileIdent, bool) { return fileIdent{}, false }
