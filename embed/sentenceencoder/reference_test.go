package sentenceencoder

import (
	"encoding/json"
	"os"
	"testing"
)

// reference is testdata/reference.json, made by
// scripts/parity/make-reference.js with the JavaScript reference model.
type reference struct {
	Window int `json:"window"`
	Cases  []struct {
		Name   string    `json:"name"`
		Text   string    `json:"text"`
		IDs    []int32   `json:"ids"`
		Vector []float32 `json:"vector"`
	} `json:"cases"`
	TokenCases []struct {
		Text string  `json:"text"`
		IDs  []int32 `json:"ids"`
	} `json:"tokenCases"`
}

func loadReference(t testing.TB) *reference {
	t.Helper()
	data, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref reference
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatalf("testdata/reference.json: %v", err)
	}
	if len(ref.Cases) < 20 {
		t.Fatalf("testdata/reference.json has %d cases, want at least 20", len(ref.Cases))
	}
	return &ref
}
