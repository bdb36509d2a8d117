package rescore

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

// synthetic makes rows whose answer follows a known logistic model of
// two features.
func synthetic(n int, w0, w1, bias float64) []Row {
	r := rand.New(rand.NewSource(1))
	rows := make([]Row, n)
	for i := range rows {
		x := []float64{r.NormFloat64(), r.NormFloat64()}
		p := Sigmoid(bias + w0*x[0] + w1*x[1])
		rows[i] = Row{X: x, Answer: r.Float64() < p, Weight: 1}
	}
	return rows
}

func TestFitRecoversWeights(t *testing.T) {
	tests := []struct {
		name         string
		w0, w1, bias float64
	}{
		{"positive", 2, -1, -0.5},
		{"one feature", 0, 1.5, 1},
		{"rare answers", 1, 1, -4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := Fit(synthetic(20000, tt.w0, tt.w1, tt.bias), nil, 1e-6)
			if err != nil {
				t.Fatal(err)
			}
			// The fit is on standardised features; undo it.
			w0, w1 := l.Weights[0]/l.Scale[0], l.Weights[1]/l.Scale[1]
			bias := l.Bias - w0*l.Mean[0] - w1*l.Mean[1]
			for _, c := range []struct{ got, want float64 }{{w0, tt.w0}, {w1, tt.w1}, {bias, tt.bias}} {
				if math.Abs(c.got-c.want) > 0.15 {
					t.Errorf("got %.3f %.3f %.3f, want %.3f %.3f %.3f", w0, w1, bias, tt.w0, tt.w1, tt.bias)
				}
			}
		})
	}
}

func TestFitMaskAndDeterminism(t *testing.T) {
	rows := synthetic(2000, 1, 1, 0)
	a, err := Fit(rows, []int{1}, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	if a.Weights[1] != 0 {
		t.Errorf("masked feature weighs %v", a.Weights[1])
	}
	b, _ := Fit(rows, []int{1}, 0.1)
	if !slices.Equal(a.Weights, b.Weights) || a.Bias != b.Bias {
		t.Error("two fits of the same rows differ")
	}
}

// Separable data must not send the weights off to infinity.
func TestFitSeparable(t *testing.T) {
	var rows []Row
	for i := range 200 {
		x := float64(i) - 100
		rows = append(rows, Row{X: []float64{x}, Answer: x > 0, Weight: 1})
	}
	l, err := Fit(rows, nil, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	if w := l.Weights[0]; math.IsNaN(w) || math.IsInf(w, 0) || w <= 0 {
		t.Errorf("weight %v", w)
	}
}

// A ranker learns which feature marks the answer, and one that is the
// same for every candidate of a group teaches it nothing.
func TestFitRanker(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	var groups []Group
	for range 300 {
		var g Group
		g.Weight = 1
		shared := r.NormFloat64()
		answer := r.Intn(10)
		for i := range 10 {
			x := []float64{r.NormFloat64(), r.NormFloat64(), shared}
			if i == answer {
				x[1] += 2.5
			}
			g.Rows = append(g.Rows, Row{X: x, Answer: i == answer})
		}
		groups = append(groups, g)
	}
	l, err := FitRanker(groups, nil, nil, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	if l.Weights[1] < 1 || math.Abs(l.Weights[0]) > 0.3 || math.Abs(l.Weights[2]) > 0.3 {
		t.Errorf("weights %v: want feature 1 only", l.Weights)
	}
	// With a strong penalty the fit stays at the prior feature's.
	p, err := FitRanker(groups, nil, []int{0}, 1e6)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(p.Weights[1]) > 0.01 {
		t.Errorf("a heavy penalty still gave feature 1 the weight %v", p.Weights[1])
	}
	if _, err := FitRanker([]Group{{Rows: []Row{{X: []float64{1}}}}}, nil, nil, 1); err == nil {
		t.Error("groups without answers fitted")
	}
}
