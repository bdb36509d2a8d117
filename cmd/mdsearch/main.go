package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/mdsearch/mdsearch/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, cli.OSEnv(), os.Args[1:])
	stop()
	os.Exit(code)
}
