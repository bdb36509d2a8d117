package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mdsearch/mdsearch"
)

// lenientArgs forgives what function-calling clients commonly send for a
// well-meant call, before the SDK checks arguments against the schema:
//   - null, at any depth ("where": {"owner": null}, "tags": ["a", null]),
//     is an argument left out, and arguments sent as null are none (some
//     clients send every optional field, unset ones as null);
//   - a number or boolean sent as a string ("n": "3", "full": "true" or
//     "1", as REST takes it) is
//     that number or boolean, where the tool's schema wants one and the
//     string is exactly one (models often quote numbers);
//   - a whole number where the schema wants text ("lines": 40) is that
//     number written out ("40": a line read as a number);
//   - one string where the schema wants a list of strings ("tags": "x")
//     is that list of one;
//   - an optional text argument sent blank ("section": "") is one left
//     out (agents send "" for a field they mean to leave unset);
//   - an argument's old name (aliases) is its name; both at once are an
//     error;
//   - a value of a fixed set given in another case or with spaces around
//     it ("mode": "Keyword") is that value.
//
// What changes the answer is recorded for the tool to name in its notice
// (forgiven): blank arguments, and members of an object argument sent as
// null ("where": {"owner": null} drops that filter). Anything else passes
// as sent, for the schema to judge. A panic below (in the SDK's argument
// handling, say) becomes an error: one bad request must not end the
// server. schemas holds each tool's input schema.
//
// Why it stays (go-sdk v1.8.0, TestSDKStillNeedsWorkarounds): the SDK
// validates arguments exactly as sent, so `"n": null`, `"n": "3"` and
// `"tags": "a"` are each refused as the wrong type; arguments sent as null
// it reads as a nil map, which its defaults are then written into: a panic
// for any tool whose schema has defaults, as these have (TestNullArguments);
// and it recovers no panic, in a handler or in its own code, so one would
// end the process (TestLenientArgsRecovers).
func lenientArgs(schemas map[string]*jsonschema.Schema) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
			defer func() {
				if p := recover(); p != nil {
					res, err = nil, fmt.Errorf("internal error handling %s: %v", method, p)
				}
			}()
			if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil && len(r.Params.Arguments) > 0 {
				var f forgiven
				r.Params.Arguments, f, err = lenient(r.Params.Arguments, schemas[r.Params.Name])
				if err != nil {
					return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
				}
				ctx = withForgiven(ctx, f)
			}
			return next(ctx, method, req)
		}
	}
}

// toolSchemas are the tools' input schemas, by tool name.
func toolSchemas(tools ...*mcp.Tool) map[string]*jsonschema.Schema {
	m := map[string]*jsonschema.Schema{}
	for _, t := range tools {
		if s, ok := t.InputSchema.(*jsonschema.Schema); ok {
			m[t.Name] = s
		}
	}
	return m
}

// aliases are arguments' old names, still taken but not advertised, and
// the names they stand for.
var aliases = map[string]string{mdsearch.MaxPerPageAlias: "max_per_page"}

// lenient is an arguments object as lenientArgs describes it, raw itself
// when nothing changes, and what it forgave.
func lenient(raw json.RawMessage, schema *jsonschema.Schema) (json.RawMessage, forgiven, error) {
	var f forgiven
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return json.RawMessage("{}"), f, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers pass through as written
	var args map[string]any
	if dec.Decode(&args) != nil || args == nil {
		return raw, f, nil
	}
	if schema == nil {
		schema = &jsonschema.Schema{}
	}
	changed := bytes.Contains(raw, []byte("null"))
	if changed {
		f.nulls = nullMembers(args)
		stripNulls(args)
	}
	renamed, err := unalias(args, schema)
	if err != nil {
		return raw, f, err
	}
	f.blank = dropBlank(args, schema)
	changed = changed || renamed || len(f.blank) > 0
	for k, v := range args {
		p := schema.Properties[k]
		if p == nil {
			continue
		}
		switch v := v.(type) {
		case string:
			if c, ok := coerce(v, p); ok {
				args[k], changed = c, true
			}
		case json.Number:
			if _, err := v.Int64(); err == nil && p.Type == "string" && len(p.Enum) == 0 {
				args[k], changed = v.String(), true
			}
		}
	}
	if !changed {
		return raw, f, nil
	}
	b, err := json.Marshal(args)
	if err != nil {
		return raw, forgiven{}, nil
	}
	return b, f, nil
}

// unalias renames each argument given by its old name (aliases) where the
// schema has its new one, and reports whether any was.
func unalias(args map[string]any, schema *jsonschema.Schema) (bool, error) {
	renamed := false
	for old, name := range aliases {
		v, ok := args[old]
		if !ok || schema.Properties[name] == nil || schema.Properties[old] != nil {
			continue
		}
		if _, both := args[name]; both {
			return false, mdsearch.BothNames(name, old)
		}
		args[name], renamed = v, true
		delete(args, old)
	}
	return renamed, nil
}

// dropBlank drops the optional text arguments sent blank (empty or only
// spaces, as REST's empty parameter) and returns them, by name, as sent.
// A required one (path) stays, for the tool's own message, and so does a
// query, which a list of notes may leave out but the request check words
// best when it is blank.
func dropBlank(args map[string]any, schema *jsonschema.Schema) map[string]string {
	var blank map[string]string
	for k, v := range args {
		s, ok := v.(string)
		p := schema.Properties[k]
		if !ok || p == nil || p.Type != "string" || strings.TrimSpace(s) != "" || slices.Contains(schema.Required, k) || k == "query" {
			continue
		}
		if blank == nil {
			blank = map[string]string{}
		}
		blank[k] = s
		delete(args, k)
	}
	return blank
}

// coerce is s as the value the schema wants: one of its enum's in another
// case or with spaces around it, or, when s is exactly one value of the
// type it wants, a JSON number (for an integer, one without a fraction or
// exponent), true or false, or, for a list of strings, s itself.
func coerce(s string, schema *jsonschema.Schema) (any, bool) {
	t := strings.TrimSpace(s)
	for _, e := range schema.Enum {
		if e, ok := e.(string); ok && e != s && strings.EqualFold(e, t) {
			return e, true
		}
	}
	switch schema.Type {
	case "integer":
		if _, err := strconv.ParseInt(t, 10, 64); err == nil && json.Valid([]byte(t)) { // not "+3" or "007"
			return json.Number(t), true
		}
	case "number":
		if t != "" && (t[0] == '-' || '0' <= t[0] && t[0] <= '9') && json.Valid([]byte(t)) {
			return json.Number(t), true
		}
	case "boolean":
		// What REST's boolParam takes too: true, false, 1, 0, T, FALSE…
		if b, err := strconv.ParseBool(t); err == nil {
			return b, true
		}
	case "array":
		// One plain value; not a list written as text ("[…]", "a, b"),
		// which the schema refuses so the caller sends it again as a list.
		if schema.Items != nil && schema.Items.Type == "string" && !strings.ContainsAny(t, "[,") {
			return []any{s}, true
		}
	}
	return nil, false
}

// nullMembers lists, for each object argument, its members sent as null,
// sorted: the filters a "where": {"owner": null} drops.
func nullMembers(args map[string]any) map[string][]string {
	var out map[string][]string
	for k, v := range args {
		obj, _ := v.(map[string]any)
		for field, x := range obj {
			if x == nil {
				if out == nil {
					out = map[string][]string{}
				}
				out[k] = append(out[k], field)
			}
		}
		slices.Sort(out[k])
	}
	return out
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
