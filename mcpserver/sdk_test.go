package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSDKStillNeedsWorkarounds pins what the MCP SDK does on its own, with
// its own stdio framing and no middleware, for each thing this package
// works around (stdio.go, nulls.go, argerrors.go). When an SDK upgrade
// makes one of these checks fail, the SDK may now do the work: drop the
// workaround, and the check with it.
func TestSDKStillNeedsWorkarounds(t *testing.T) {
	type in struct {
		Query string   `json:"query"`
		N     int      `json:"n,omitempty"`
		Tags  []string `json:"tags,omitempty"`
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "t"}, func(context.Context, *mcp.CallToolRequest, in) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.Run(context.Background(), &mcp.IOTransport{Reader: inR, Writer: outW}) }()
	out := bufio.NewReader(outR)
	send := func(line string) { go func() { _, _ = io.WriteString(inW, line+"\n") }() }
	type answer struct {
		ID     any             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	next := func() answer {
		line, err := out.ReadString('\n')
		var a answer
		if err != nil || json.Unmarshal([]byte(line), &a) != nil {
			t.Fatalf("no answer (%v): %q", err, line)
		}
		return a
	}
	toolText := func(a answer) string {
		var r struct {
			Content []struct{ Text string } `json:"content"`
			IsError bool                    `json:"isError"`
		}
		_ = json.Unmarshal(a.Result, &r)
		if len(r.Content) == 0 || !r.IsError {
			return ""
		}
		return r.Content[0].Text
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	next()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	// codeFor: an error without a JSON-RPC code goes out as code 0.
	send(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	if a := next(); a.Error == nil || a.Error.Code != 0 {
		t.Errorf("a second initialize: %+v; the SDK now sends a code (codeFor may go)", a.Error)
	}
	// lenientArgs: null, quoted numbers and one string for a list are refused.
	for i, args := range []string{`{"query":"x","n":null}`, `{"query":"x","n":"3"}`, `{"query":"x","tags":"a"}`} {
		send(`{"jsonrpc":"2.0","id":` + string(rune('3'+i)) + `,"method":"tools/call","params":{"name":"t","arguments":` + args + `}}`)
		text := toolText(next())
		if !strings.HasPrefix(text, `validating "arguments": validating root: validating /properties/`) {
			t.Errorf("%s: %q; the SDK now takes it, or words it otherwise (lenientArgs, plainArgErrors)", args, text)
		}
	}
	// lineTransport: a null id is a notification, answered by nothing.
	send(`{"jsonrpc":"2.0","id":null,"method":"ping"}`)
	send(`{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	if a := next(); a.ID != 7.0 {
		t.Errorf("after a null id, the next answer is for %v, not the ping after it: the SDK now answers it (badID may go)", a.ID)
	}
	// lineTransport: a line that is no JSON ends the session.
	send("not json")
	select {
	case err := <-done:
		if err == nil || errors.Is(err, io.EOF) {
			t.Errorf("the session ended with %v, not the bad line", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("the session outlived a bad line: the SDK's framing now forgives it (lineTransport may go)")
	}
	inW.Close()
	outR.Close()
}

// lenientArgs turns a panic below it into an error: the SDK recovers none.
func TestLenientArgsRecovers(t *testing.T) {
	h := lenientArgs(nil)(func(context.Context, string, mcp.Request) (mcp.Result, error) {
		panic("deep in the SDK")
	})
	res, err := h(context.Background(), "tools/call", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "t"}})
	if res != nil || err == nil || !strings.Contains(err.Error(), "deep in the SDK") {
		t.Errorf("a panic below lenientArgs: %v, %v", res, err)
	}
}
