package cli

import (
	"context"
	"errors"
)

func runChunk(ctx context.Context, env *Env, args []string) error {
	return errors.New("not implemented yet")
}
