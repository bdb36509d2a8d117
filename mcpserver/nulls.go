package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// dropNulls treats a tool argument sent as null as one left out. Some
// function-calling clients send every optional field, unset ones as null,
// which the schemas (an integer, a string) would refuse.
func dropNulls(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil && len(r.Params.Arguments) > 0 {
			r.Params.Arguments = withoutNulls(r.Params.Arguments)
		}
		return next(ctx, method, req)
	}
}

// withoutNulls is an arguments object without its null members; anything
// else is returned as it is, for the schema to judge.
func withoutNulls(raw json.RawMessage) json.RawMessage {
	var args map[string]json.RawMessage
	if json.Unmarshal(raw, &args) != nil {
		return raw
	}
	n := len(args)
	for k, v := range args {
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			delete(args, k)
		}
	}
	if len(args) == n {
		return raw
	}
	b, err := json.Marshal(args)
	if err != nil {
		return raw
	}
	return b
}
