package cli

import (
	"context"
	"errors"
)

func runIndex(ctx context.Context, env *Env, args []string) error {
	return errors.New("not implemented yet")
}
