package engine

import (
	"context"
	"runtime"
)

// work holds one slot per CPU. Each search holds one from embedding its
// query to ranking, so under heavy load queries wait their turn in a
// queue instead of all sharing the CPUs at once: latency then grows with
// the queue, and each query is fast once it runs, rather than every query
// slowing down together and the embedding model thrashing its threads.
var work = make(chan struct{}, runtime.GOMAXPROCS(0))

// acquire waits for a slot, or for ctx to end (a client that gave up).
func acquire(ctx context.Context) error {
	select {
	case work <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func release() { <-work }
