package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// dropNulls treats a tool argument sent as null as one left out, at any
// depth ("where": {"owner": null}, "tags": ["a", null]), and arguments sent
// as null as none. Some function-calling clients send every optional
// field, unset ones as null, which the schemas would refuse. A panic below
// (in the SDK's argument handling, say) becomes an error: one bad request
// must not end the server.
func dropNulls(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		defer func() {
			if p := recover(); p != nil {
				res, err = nil, fmt.Errorf("internal error handling %s: %v", method, p)
			}
		}()
		if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil && len(r.Params.Arguments) > 0 {
			r.Params.Arguments = withoutNulls(r.Params.Arguments)
		}
		return next(ctx, method, req)
	}
}

// withoutNulls is an arguments object without null members or items;
// null is {}; anything else is returned as it is, for the schema to judge.
func withoutNulls(raw json.RawMessage) json.RawMessage {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return json.RawMessage("{}")
	}
	if !bytes.Contains(raw, []byte("null")) {
		return raw
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers pass through as written
	var args map[string]any
	if dec.Decode(&args) != nil || args == nil {
		return raw
	}
	b, err := json.Marshal(stripNulls(args))
	if err != nil {
		return raw
	}
	return b
}

// stripNulls drops null members of objects and null items of arrays.
func stripNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if x == nil {
				delete(v, k)
			} else {
				v[k] = stripNulls(x)
			}
		}
	case []any:
		out := v[:0]
		for _, x := range v {
			if x != nil {
				out = append(out, stripNulls(x))
			}
		}
		return out
	}
	return v
}
