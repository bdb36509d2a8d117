package e2e

// The tests run a binary that TestMain builds with `go build`, whose
// sources the test process never opens, so go test's cache would pass
// them again after any change to mdsearch. Importing the command's
// package makes every package the binary holds part of this test's
// build, and a change to any of them runs the tests again.
import _ "github.com/mdsearch/mdsearch/cli"
