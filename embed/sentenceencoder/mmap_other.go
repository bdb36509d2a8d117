//go:build !unix

package sentenceencoder

import "errors"

// mappedFile is unavailable here: graphs open from the ONNX file.
type mappedFile struct{ data []byte }

func mapFile(string) (*mappedFile, error) { return nil, errors.New("no memory mapping") }

func (m *mappedFile) close() error { return nil }
