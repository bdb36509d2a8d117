package rescore

import (
	"errors"
	"math"
	"slices"
)

// Row is one candidate of one query, for fitting.
type Row struct {
	X      []float64
	Answer bool    // the candidate answers its query
	Weight float64 // its share of a pointwise fit (Fit)
}

// Group is one query's candidates, for fitting a ranker.
type Group struct {
	Rows   []Row
	Weight float64 // the query's share of the fit
}

// Fit fits a pointwise logistic model (the probability that a row answers
// its query) by Newton's method, with an L2 penalty of l2 on the
// standardised weights (not the bias). Features in mask get no weight.
// The same rows in the same order give the same model.
func Fit(rows []Row, mask []int, l2 float64) (*Linear, error) {
	if len(rows) == 0 {
		return nil, errors.New("rescore: no rows to fit")
	}
	l, use := prepare([][]Row{rows}, []float64{1}, mask, true)
	d := len(use) + 1 // the bias last
	w, err := newton(d, l2, d-1, nil, func(w, g, h []float64) (ll float64) {
		z := make([]float64, d)
		for _, r := range rows {
			l.design(r.X, use, z)
			t := dot(w, z)
			p := Sigmoid(t)
			y := b2f(r.Answer)
			ll += r.Weight * (y*t - softplus(t))
			if g == nil {
				continue
			}
			for a := range d {
				g[a] += r.Weight * (y - p) * z[a]
				wa := r.Weight * p * (1 - p) * z[a]
				for b := 0; b <= a; b++ {
					h[a*d+b] += wa * z[b]
				}
			}
		}
		return ll
	})
	if err != nil {
		return nil, err
	}
	for k, i := range use {
		l.Weights[i] = w[k]
	}
	l.Bias = w[d-1]
	return l, nil
}

// FitRanker fits a listwise model: within each group, the probability
// that a row is the answer is the softmax of the rows' logits, and the
// fit maximises the groups' likelihood of their answers (a conditional
// logit). What is the same for every row of a group (the query's own
// features) cancels out, so only how candidates differ is learnt. Groups
// without an answer teach nothing and are skipped.
//
// The fit starts from the prior features alone (the first stage's
// score): the L2 penalty pulls the weights towards that fit rather than
// towards 0, so with little evidence the ranker keeps the first stage's
// order, and every other feature must earn its weight.
func FitRanker(groups []Group, mask, prior []int, l2 float64) (*Linear, error) {
	var gs []Group
	for _, g := range groups {
		if slices.ContainsFunc(g.Rows, func(r Row) bool { return r.Answer }) && len(g.Rows) > 1 {
			gs = append(gs, g)
		}
	}
	if len(gs) == 0 {
		return nil, errors.New("rescore: no query with an answer among its candidates")
	}
	sets := make([][]Row, len(gs))
	weights := make([]float64, len(gs))
	for i, g := range gs {
		sets[i], weights[i] = g.Rows, g.Weight
	}
	l, use := prepare(sets, weights, mask, false)
	var first []int
	for _, i := range use {
		if slices.Contains(prior, i) {
			first = append(first, i)
		}
	}
	center := make([]float64, len(use))
	if len(first) > 0 {
		w0, err := newton(len(first), 1e-6, len(first), nil, listwise(gs, l, first))
		if err != nil {
			return nil, err
		}
		for k, i := range use {
			if j := slices.Index(first, i); j >= 0 {
				center[k] = w0[j]
			}
		}
	}
	w, err := newton(len(use), l2, len(use), center, listwise(gs, l, use))
	if err != nil {
		return nil, err
	}
	for k, i := range use {
		l.Weights[i] = w[k]
	}
	return l, nil
}

// listwise is the conditional logit's log-likelihood over groups, with
// its gradient and negated Hessian, for the features in use.
func listwise(gs []Group, l *Linear, use []int) func(w, g, h []float64) float64 {
	d := len(use)
	return func(w, g, h []float64) (ll float64) {
		for _, grp := range gs {
			zs := make([][]float64, len(grp.Rows))
			ps := make([]float64, len(grp.Rows))
			var answers float64
			top := math.Inf(-1)
			for i, r := range grp.Rows {
				zs[i] = make([]float64, d)
				l.design(r.X, use, zs[i])
				ps[i] = dot(w, zs[i])
				top = max(top, ps[i])
				answers += b2f(r.Answer)
			}
			var sum, picked float64
			for i, r := range grp.Rows {
				picked += b2f(r.Answer) / answers * (ps[i] - top)
				ps[i] = math.Exp(ps[i] - top)
				sum += ps[i]
			}
			ll += grp.Weight * (picked - math.Log(sum))
			if g == nil {
				continue
			}
			mean := make([]float64, d)
			for i, r := range grp.Rows {
				ps[i] /= sum
				y := b2f(r.Answer) / answers
				for a := range d {
					g[a] += grp.Weight * (y - ps[i]) * zs[i][a]
					mean[a] += ps[i] * zs[i][a]
				}
			}
			for i := range grp.Rows {
				for a := range d {
					wa := grp.Weight * ps[i] * zs[i][a]
					for b := 0; b <= a; b++ {
						h[a*d+b] += wa * zs[i][b]
					}
				}
			}
			for a := range d {
				for b := 0; b <= a; b++ {
					h[a*d+b] -= grp.Weight * mean[a] * mean[b]
				}
			}
		}
		return ll
	}
}

// prepare makes a Linear standardised on the rows (each set of rows
// weighted as given; with pointwise, by each row's own Weight too) and
// lists the features to fit: those not in mask that vary.
func prepare(sets [][]Row, weights []float64, mask []int, pointwise bool) (*Linear, []int) {
	dim := len(sets[0][0].X)
	l := &Linear{Mean: make([]float64, dim), Scale: make([]float64, dim), Weights: make([]float64, dim)}
	var total float64
	each := func(fn func(w float64, x []float64)) {
		for s, rows := range sets {
			for _, r := range rows {
				w := weights[s] / float64(len(rows))
				if pointwise {
					w = r.Weight
				}
				fn(w, r.X)
			}
		}
	}
	each(func(w float64, x []float64) {
		total += w
		for i, v := range x {
			l.Mean[i] += w * v
		}
	})
	for i := range l.Mean {
		l.Mean[i] /= total
	}
	each(func(w float64, x []float64) {
		for i, v := range x {
			d := v - l.Mean[i]
			l.Scale[i] += w * d * d
		}
	})
	var use []int
	for i := range l.Scale {
		l.Scale[i] = math.Sqrt(l.Scale[i] / total)
		if l.Scale[i] > 1e-9 && !slices.Contains(mask, i) {
			use = append(use, i)
		}
		if l.Scale[i] <= 1e-9 {
			l.Scale[i] = 1 // a constant feature: no weight, no division by 0
		}
	}
	return l, use
}

// newton maximises a concave log-likelihood, less an L2 penalty on the
// first penalised weights' distance from center (nil: 0). accumulate returns the log-likelihood at w
// and, when g is not nil, adds its gradient to g and the lower triangle
// of its negated Hessian to h. A step that does not raise the objective
// is halved, so separable data cannot make the weights run away.
func newton(d int, l2 float64, penalised int, center []float64, accumulate func(w, g, h []float64) float64) ([]float64, error) {
	if center == nil {
		center = make([]float64, d)
	}
	objective := func(w []float64, g, h []float64) float64 {
		f := accumulate(w, g, h)
		for a := range penalised {
			f -= l2 * (w[a] - center[a]) * (w[a] - center[a]) / 2
		}
		return f
	}
	w := slices.Clone(center)
	for iter := 0; iter < 100; iter++ {
		h := make([]float64, d*d)
		g := make([]float64, d)
		f := objective(w, g, h)
		for a := range penalised {
			g[a] -= l2 * (w[a] - center[a])
			h[a*d+a] += l2
		}
		for a := range d {
			for b := a + 1; b < d; b++ {
				h[a*d+b] = h[b*d+a]
			}
		}
		step, err := solve(h, g, d)
		if err != nil {
			return nil, err
		}
		next := make([]float64, d)
		for t := 1.0; t > 1e-6; t /= 2 {
			for a := range d {
				next[a] = w[a] + t*step[a]
			}
			if objective(next, nil, nil) >= f-1e-12 {
				break
			}
		}
		var size float64
		for a := range d {
			size = math.Max(size, math.Abs(next[a]-w[a]))
		}
		copy(w, next)
		if size < 1e-8 {
			break
		}
	}
	return w, nil
}

// softplus is log(1 + e^t), without overflow.
func softplus(t float64) float64 {
	if t > 30 {
		return t
	}
	return math.Log1p(math.Exp(t))
}

// design fills z with the standardised features in use, then 1 (the bias).
func (l *Linear) design(x []float64, use []int, z []float64) {
	for k, i := range use {
		z[k] = (x[i] - l.Mean[i]) / l.Scale[i]
	}
	if len(z) > len(use) {
		z[len(use)] = 1
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// solve solves h x = g for a symmetric positive definite h (d × d, row
// major) by Cholesky decomposition.
func solve(h, g []float64, d int) ([]float64, error) {
	c := make([]float64, d*d)
	for i := range d {
		for j := 0; j <= i; j++ {
			s := h[i*d+j]
			for k := range j {
				s -= c[i*d+k] * c[j*d+k]
			}
			if i == j {
				if s <= 0 {
					return nil, errors.New("rescore: the features are degenerate (the fit's matrix is not positive definite)")
				}
				c[i*d+i] = math.Sqrt(s)
			} else {
				c[i*d+j] = s / c[j*d+j]
			}
		}
	}
	y := make([]float64, d)
	for i := range d {
		s := g[i]
		for k := range i {
			s -= c[i*d+k] * y[k]
		}
		y[i] = s / c[i*d+i]
	}
	x := make([]float64, d)
	for i := d - 1; i >= 0; i-- {
		s := y[i]
		for k := i + 1; k < d; k++ {
			s -= c[k*d+i] * x[k]
		}
		x[i] = s / c[i*d+i]
	}
	return x, nil
}
