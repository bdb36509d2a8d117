package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/mdsearch/mdsearch"
	"github.com/mdsearch/mdsearch/engine"
	"github.com/mdsearch/mdsearch/rest"
	"github.com/mdsearch/mdsearch/watch"
)

func runServe(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "serve", "")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on; any but a loopback address needs a token")
	sf := addServerFlags(fs, "bearer token API requests must carry (default $MDSEARCH_TOKEN)")
	if _, err := parseArgs(fs, args, 0, ""); err != nil {
		return err
	}
	if err := sf.check(env, "--addr", *addr); err != nil {
		return err
	}
	log := env.logger()
	s, w, closeAll, err := sf.open(ctx, env, log)
	if err != nil {
		return err
	}
	defer closeAll()
	instance := newInstance()
	api := rest.New(withCommands(env, sf.ef, s), rest.Options{Token: *sf.token, Logger: log, OnReindexed: func() { w.Sync(ctx) },
		NoteLinks: s.NoteLinks, OpenAttachment: s.OpenAttachment, Instance: instance})
	defer api.Close()

	ln, err := listen("--addr", *addr)
	if err != nil {
		return err
	}
	if index, ok := servedIndex(env, sf.ef); ok {
		defer announce(env, sf.ef, index, instance, ln.Addr())()
	}
	env.say("serving http://%s/ (Ctrl-C to stop)", shownAddr(ln.Addr()))
	return serveHTTP(ctx, rest.NewHTTPServer(*addr, api), ln)
}

// listen opens addr, saying which flag moves it when the port is taken.
func listen(flag, addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, mdsearch.Errorf(mdsearch.KindInvalid, "listen", addr, "another program, or another mdsearch, listens there: stop it, or pick another port with "+flag+" ("+flag+" 127.0.0.1:0 takes any free one)", "address already in use")
	}
	return ln, err
}

// serveHTTP serves until ctx ends, then shuts down gracefully.
// checkAddr is a usage error unless addr is host:port.
func checkAddr(flag, addr string) error {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return usagef("%s %q: use host:port, e.g. 127.0.0.1:8080", flag, addr)
	}
	return nil
}

// shownAddr is a listener's address as a URL host: a wildcard listener
// ("0.0.0.0", "[::]") is shown as 0.0.0.0, every interface.
func shownAddr(a net.Addr) string {
	if t, ok := a.(*net.TCPAddr); ok && t.IP.IsUnspecified() {
		return fmt.Sprintf("0.0.0.0:%d", t.Port)
	}
	return a.String()
}

func serveHTTP(ctx context.Context, hs *http.Server, ln net.Listener) error {
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil {
		hs.Close()
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// liveIndex is a running watcher, or nothing when watching is off.
type liveIndex struct{ w *watch.Watcher }

func (l liveIndex) Sync(ctx context.Context) {
	if l.w != nil {
		_ = l.w.Sync(ctx)
	}
}

func (l liveIndex) Close() {
	if l.w != nil {
		l.w.Close()
	}
}

// The engine lists its collections cheaply, so watchers pick up
// collections indexed while they run.
var _ watch.Lister = (*engine.Engine)(nil)

// startWatch keeps the index live for serve, mcp and watch: it catches up
// with changes made while nothing watched, then re-indexes saved notes.
func startWatch(ctx context.Context, s mdsearch.Searcher, enabled bool, log *slog.Logger,
	onRefresh func(string, []string, *mdsearch.IndexStats, error)) (liveIndex, error) {
	if !enabled {
		return liveIndex{}, nil
	}
	w, err := watch.Start(ctx, s, watch.Options{CatchUp: true, Logger: log, OnRefresh: onRefresh})
	if err != nil {
		return liveIndex{}, err
	}
	return liveIndex{w}, nil
}

// logRefresh logs the refreshes that changed something.
// commands is Env.commands: a command named in a line carries --index.
func logRefresh(log *slog.Logger, commands func(string) string) func(string, []string, *mdsearch.IndexStats, error) {
	return func(coll string, paths []string, st *mdsearch.IndexStats, err error) {
		if err != nil || st == nil {
			return // errors are logged by the watcher
		}
		switch {
		case paths == nil && len(st.Skipped) > 0: // a catch-up walks every note: count, not a line each
			log.Warn(commands("files skipped; `mdsearch status` names them"), "collection", coll, "skipped", len(st.Skipped))
		default:
			for _, s := range st.Skipped {
				if inBatch(s.Path, paths) { // a file skipped before, outside the batch, is no news
					log.Warn("skipped", "collection", coll, "path", s.Path, "reason", s.Reason)
				}
			}
		}
		if st.Added+st.Changed+st.Deleted+st.Recut == 0 {
			if st.Embedded > 0 { // a retry that added the vectors an earlier refresh could not
				log.Info("embedded", "collection", coll, "windows", st.Embedded, "ms", int(st.TookMS))
			}
			return
		}
		attrs := []any{"collection", coll, "added", st.Added, "changed", st.Changed,
			"deleted", st.Deleted, "cut_again", st.Recut, "embedded", st.Embedded, "ms", int(st.TookMS)}
		if len(paths) > 0 && len(paths) <= shownPaths { // which notes, where they are few
			attrs = append(attrs, "paths", strings.Join(paths, ", "))
		}
		log.Info("re-indexed", attrs...)
	}
}

// shownPaths is how many paths a re-indexed line names; more are counted.
const shownPaths = 5

// inBatch reports whether path is one of a refresh's paths, or under one
// (a folder renamed), or the refresh walked every note (paths nil).
func inBatch(path string, paths []string) bool {
	if paths == nil {
		return true
	}
	for _, p := range paths {
		if path == p || strings.HasPrefix(path, strings.TrimSuffix(p, "/")+"/") {
			return true
		}
	}
	return false
}
