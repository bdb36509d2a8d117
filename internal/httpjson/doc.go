// Package httpjson is the request both model-server clients (embed/remote
// and rerank) make: a JSON POST whose answer is read up to a bound.
//
// Under rooms 4 and 6 of the pipeline (docs/architecture.md).
package httpjson
