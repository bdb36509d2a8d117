// Package fileident tells whether a file may have changed without reading
// it, as git's index does: by its size, modification and change times,
// inode and device. Any write to a file, or a rename onto it, sets its
// change time to now, which no program can set back; only damage below
// the file system (a failing disk) goes unseen.
//
// Under the pipeline (docs/architecture.md): the local model's files are
// hashed again only when their identity changes (assets, at setup and
// when the model is located; embed/sentenceencoder, for the graph cache).
package fileident

// ID is a file's identity. The zero ID is no file's.
type ID struct {
	Size  int64  `json:"size"`
	Mtime int64  `json:"mtime_ns"`
	Ctime int64  `json:"ctime_ns"`
	Ino   uint64 `json:"ino"`
	Dev   uint64 `json:"dev"`
}
