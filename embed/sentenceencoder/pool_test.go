package sentenceencoder

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

func TestSplitThreads(t *testing.T) {
	cases := []struct{ threads, sessions, each int }{
		{0, 1, 1},
		{1, 1, 1},
		{2, 2, 1},
		{3, 3, 1},
		{4, 4, 1},
		{6, 4, 1},
		{8, 4, 2},
		{16, 4, 4},
	}
	for _, c := range cases {
		if s, e := splitThreads(c.threads); s != c.sessions || e != c.each {
			t.Errorf("splitThreads(%d) = %d sessions of %d threads, want %d of %d", c.threads, s, e, c.sessions, c.each)
		}
	}
}

// TestSessionPool: a model holds one session until batches arrive
// together, then no more than its share of threads allows, and the
// vectors do not depend on which session made them: a one-thread model
// (one session) gives the same bits.
func TestSessionPool(t *testing.T) {
	ctx := context.Background()
	texts := benchChunks(t, testModel(t, Options{Threads: 1}).tok, 40)
	one := testModel(t, Options{Threads: 1, BatchSize: 4})
	want, err := one.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	m := testModel(t, Options{Threads: 2, BatchSize: 4})
	if got := m.Concurrency(); got != 2 {
		t.Fatalf("Concurrency = %d with 2 threads, want 2", got)
	}
	if _, err := m.Embed(ctx, texts[:1]); err != nil {
		t.Fatal(err)
	}
	if n := m.pool.opened(); n != 1 {
		t.Errorf("one batch opened %d sessions, want 1", n)
	}
	got, err := m.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	if n := m.pool.opened(); n != 2 {
		t.Errorf("10 batches opened %d sessions, want 2", n)
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Fatalf("text %d: two sessions gave another vector than one (cosine %f)", i, cosine(got[i], want[i]))
		}
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if got := m.Concurrency(); got != 1 {
		t.Errorf("Concurrency after Close = %d, want 1", got)
	}
}

// TestQueryNeverWaits: with every session busy (an index being built), a
// text that makes one batch (a query) runs at once on a busy session, while
// a call of several batches waits for a free one and gives up when its
// context does.
func TestQueryNeverWaits(t *testing.T) {
	ctx := context.Background()
	m := testModel(t, Options{Threads: 2, BatchSize: 4})
	q := []string{"how do I restore last night's backup"}
	want, err := m.Embed(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	for range m.pool.size() {
		s, err := m.pool.acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer m.pool.release(s)
	}
	if n := m.pool.opened(); n != 2 {
		t.Fatalf("holding every session opened %d, want 2", n)
	}
	short, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	got, err := m.Embed(short, q)
	if err != nil {
		t.Fatalf("a query with every session busy: %v", err)
	}
	if !slices.Equal(got[0], want[0]) {
		t.Error("a query on a shared session gave another vector")
	}
	brief, cancel2 := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel2()
	if _, err := m.Embed(brief, make([]string, 9)); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("3 batches with every session held: err %v, want the deadline", err)
	}
}
