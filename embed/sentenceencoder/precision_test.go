package sentenceencoder

import (
	"slices"
	"testing"
)

func TestParsePrecision(t *testing.T) {
	tests := []struct {
		in   string
		want Precision
		ok   bool
	}{
		{"", DefaultPrecision, true},
		{"float32", Float32, true},
		{" INT8 ", Int8, true},
		{"fp16", "", false},
		{"int4", "", false},
	}
	for _, tt := range tests {
		got, err := ParsePrecision(tt.in)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("ParsePrecision(%q) = %q, %v; want %q, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
	if Int8.ModelID() == Float32.ModelID() || Int8.onnxName() == Float32.onnxName() {
		t.Error("int8 and float32 share a model ID or a cache file")
	}
}

func TestQuantizeColumns(t *testing.T) {
	// 3x2: column 0 spans ±2, column 1 is tiny, so one shared scale would
	// round it to zero.
	w := []float32{2, 0.001, -1, -0.002, 0.5, 0.0005}
	q, scales := quantizeColumns(w, 3, 2, 127)
	if want := []int8{127, 64, -64, -127, 32, 32}; !slices.Equal(q, want) {
		t.Errorf("q = %v, want %v", q, want)
	}
	for i, x := range w {
		back := float32(q[i]) * scales[i%2]
		if d := back - x; d > scales[i%2]/2 || d < -scales[i%2]/2 {
			t.Errorf("w[%d] = %g comes back as %g", i, x, back)
		}
	}
	if q, s := quantizeColumns([]float32{0, 0}, 2, 1, 127); q[0] != 0 || q[1] != 0 || s[0] == 0 {
		t.Errorf("zero column: q %v, scale %v", q, s)
	}
}
