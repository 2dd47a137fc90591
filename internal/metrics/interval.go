package metrics

import (
	"math"
	"runtime"
	"sync"

	"golang.org/x/sync/errgroup"
)

// Confidence intervals and paired tests (docs/statistics.md). Every function here is
// pure and deterministic: the bootstrap draws from a fixed-seed generator of its own
// (splitmix64), so summary.json is the same on every machine and every Go release.

// Interval methods, as summary.json names them.
const (
	MethodWilson    = "wilson"    // Wilson score interval of a 0/1 rate
	MethodBootstrap = "bootstrap" // percentile bootstrap over questions of a mean
	MethodMcNemar   = "mcnemar_exact"
	MethodPairedBS  = "paired_bootstrap"
)

// Confidence is the coverage of every interval nl2sqlbench reports.
const Confidence = 0.95

// z95 is the standard normal quantile for a two-sided 95% interval.
const z95 = 1.959963984540054

// BootstrapResamples is how many resamples a bootstrap draws; BootstrapSeed seeds it.
// Both are fixed so that a run's intervals and p-values never change between runs.
const (
	BootstrapResamples = 2000
	BootstrapSeed      = 0x6e6c3273716c6265 // "nl2sqlbe"
)

// Wilson is the Wilson score interval of k successes in n trials at 95%. n = 0 gives
// [0, 1].
func Wilson(k, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	p := float64(k) / float64(n)
	nf := float64(n)
	z2 := z95 * z95
	den := 1 + z2/nf
	centre := (p + z2/(2*nf)) / den
	half := z95 * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / den
	lo, hi = math.Max(0, centre-half), math.Min(1, centre+half)
	// At k = 0 (k = n) the bound is exactly 0 (1); rounding must not move it.
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return lo, hi
}

// rng is splitmix64 (Steele, Lea and Flood 2014): tiny, fast, and fully specified here,
// so the bootstrap's draws never depend on a library's implementation. Its step-by-step
// form (next, intn) is in rng_test.go, the oracle the batched draws are tested against.
type rng struct{ s uint64 }

// mix64 is splitmix64's output function of its state.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// bootstrapMeans returns the means of BootstrapResamples resamples (with replacement,
// same size) of xs, in no particular order (interval95 reads them).
func bootstrapMeans(xs []float64) []float64 {
	return bootstrapMeansOf(len(xs), [][]float64{xs})[0]
}

// bootstrapMeansOf bootstraps several columns of the same length n at once. Resample
// b takes the next n draws of the generator seeded with BootstrapSeed, so the resample
// indices depend only on n: every column of length n is resampled with the same
// indices whether it is bootstrapped alone or with others, and drawing them once for
// all columns changes no result, only the cost. A resample is kept as how many times
// it drew each question; a column's resampled sum is then the dot product of those
// counts with its values, in question order (dot), which bootstrap.go computes faster
// to the same bits. It returns each column's means in resample order: only their
// percentiles are read (interval95), which need no sort.
//
// Much work is split over two CPUs by resamples: splitmix64 jumps to any draw at once,
// so each half draws only its own resamples, and the means are the same bits.
func bootstrapMeansOf(n int, cols [][]float64) [][]float64 {
	k := len(cols)
	flat := make([]float64, k*BootstrapResamples) // flat[j*B+b]: column j's mean in resample b
	plans := make([]columnPlan, k)
	for j, col := range cols {
		plans[j] = planColumn(n, col)
	}
	if half := BootstrapResamples / 2; k*n >= 4096 && runtime.GOMAXPROCS(0) > 1 {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			resampleMeans(n, plans, flat, 0, half)
		}()
		resampleMeans(n, plans, flat, half, BootstrapResamples)
		wg.Wait()
	} else {
		resampleMeans(n, plans, flat, 0, BootstrapResamples)
	}
	out := make([][]float64, k)
	for j := range out {
		out[j] = flat[j*BootstrapResamples : (j+1)*BootstrapResamples : (j+1)*BootstrapResamples]
	}
	return out
}

// quantile is the q-quantile of sorted xs by linear interpolation between order
// statistics (type 7, R's and numpy's default).
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	h := q * float64(len(sorted)-1)
	i := int(math.Floor(h))
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
}

// BootstrapMean is the 95% percentile bootstrap interval of the mean of xs: the 2.5th
// and 97.5th percentiles of the means of BootstrapResamples resamples of the questions.
// Constant data (or fewer than two values) gives the degenerate interval [mean, mean].
func BootstrapMean(xs []float64) (lo, hi float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	if constant(xs) {
		return xs[0], xs[0]
	}
	return interval95(bootstrapMeans(xs))
}

func constant(xs []float64) bool {
	for _, x := range xs[1:] {
		if x != xs[0] {
			return false
		}
	}
	return true
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// McNemarExact is the two-sided exact McNemar test: under the null hypothesis each of the
// b + c discordant questions falls either way with probability 1/2, so
// p = min(1, 2 * P[X <= min(b, c)]) with X ~ Binomial(b + c, 1/2). No discordant
// question gives p = 1.
func McNemarExact(b, c int) float64 {
	n := b + c
	if n == 0 {
		return 1
	}
	k := min(b, c)
	// Sum the binomial terms in log space: n can be in the thousands.
	lgN, _ := math.Lgamma(float64(n + 1))
	var p float64
	for i := 0; i <= k; i++ {
		li, _ := math.Lgamma(float64(i + 1))
		lr, _ := math.Lgamma(float64(n - i + 1))
		p += math.Exp(lgN - li - lr - float64(n)*math.Ln2)
	}
	return math.Min(1, 2*p)
}

// PairedBootstrap compares two systems' per-question values on the same questions
// (a[i] and b[i] belong to question i): the mean difference a - b, its 95% percentile
// bootstrap interval (questions resampled, pairs kept together), and a two-sided p-value
// from the bootstrap distribution shifted to the null of no difference:
// p = (1 + #{|m* - d| >= |d|}) / (1 + resamples), where m* are the resampled mean
// differences and d the observed one.
func PairedBootstrap(a, b []float64) (diff, lo, hi, p float64) {
	if len(a) == 0 || len(a) != len(b) {
		return math.NaN(), math.NaN(), math.NaN(), math.NaN()
	}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	if constant(d) {
		return pairedConstant(d)
	}
	return pairedFromMeans(d, bootstrapMeans(d))
}

// pairedConstant is PairedBootstrap of differences that are all equal.
func pairedConstant(d []float64) (diff, lo, hi, p float64) {
	diff = mean(d)
	if diff == 0 {
		return 0, 0, 0, 1
	}
	return diff, diff, diff, 1 / float64(1+BootstrapResamples)
}

// pairedFromMeans is PairedBootstrap from the differences d and the resampled means ms
// of d (bootstrapMeansOf, any order), so that many pairs can share one set of draws.
func pairedFromMeans(d, ms []float64) (diff, lo, hi, p float64) {
	diff = mean(d)
	lo, hi = interval95(ms)
	extreme := 0
	for _, m := range ms {
		if math.Abs(m-diff) >= math.Abs(diff)-1e-12 {
			extreme++
		}
	}
	return diff, lo, hi, float64(1+extreme) / float64(1+len(ms))
}

// setInterval fills v's confidence interval from the per-question values xs that its
// mean averages: Wilson's for a 0/1 metric, the percentile bootstrap otherwise. It
// reports whether the interval is a bootstrap still to be drawn (bootstrapBatch),
// which is left to the caller so that all of a section's bootstraps share their draws.
func setInterval(m *Metric, v *Value, xs []float64) (pending bool) {
	if len(xs) == 0 {
		return false
	}
	switch {
	case m.Binary:
		k := 0
		for _, x := range xs {
			if x != 0 {
				k++
			}
		}
		lo, hi := Wilson(k, len(xs))
		setCI(m, v, MethodWilson, lo, hi)
	case constant(xs):
		setCI(m, v, MethodBootstrap, xs[0], xs[0])
	default:
		return true
	}
	return false
}

func setCI(m *Metric, v *Value, method string, lo, hi float64) {
	v.CIMethod = method
	v.CILow, v.CIHigh = &lo, &hi
	v.CIText = "[" + m.Unit.Format(lo) + ", " + m.Unit.Format(hi) + "]"
}

// bootstrapBatch collects a section's pending bootstrap intervals and draws them
// together: every mean over n questions, of any metric and any system, is resampled
// from the same n-question draws (bootstrapMeansOf), exactly as BootstrapMean would
// resample it alone.
type bootstrapBatch struct{ jobs []bootstrapJob }

type bootstrapJob struct {
	m          *Metric
	si, vi, di int // system, value, difficulty (-1: the overall value)
	xs         []float64
}

func (bb *bootstrapBatch) add(m *Metric, si, vi, di int, xs []float64) {
	if xs != nil {
		bb.jobs = append(bb.jobs, bootstrapJob{m: m, si: si, vi: vi, di: di, xs: xs})
	}
}

func (bb *bootstrapBatch) run(sec *Section) {
	byN := map[int][]int{}
	var ns []int
	for ji, j := range bb.jobs {
		n := len(j.xs)
		if byN[n] == nil {
			ns = append(ns, n)
		}
		byN[n] = append(byN[n], ji)
	}
	// Lengths are drawn concurrently (each has its own draws, and fills its own values).
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, n := range ns {
		ids := byN[n]
		g.Go(func() error {
			cols := make([][]float64, len(ids))
			for k, ji := range ids {
				cols[k] = bb.jobs[ji].xs
			}
			for k, ms := range bootstrapMeansOf(n, cols) {
				j := bb.jobs[ids[k]]
				v := &sec.Systems[j.si].Values[j.vi]
				if j.di >= 0 {
					v = &v.ByDifficulty[j.di]
				}
				lo, hi := interval95(ms)
				setCI(j.m, v, MethodBootstrap, lo, hi)
			}
			return nil
		})
	}
	_ = g.Wait() // the draws return no error
}

// NewcombePaired is the 95% interval of the difference of two paired rates, p_A - p_B,
// by Newcombe's hybrid score method for paired data (Statistics in Medicine 17, 1998,
// method 10): each rate's Wilson interval, combined with the correlation of the pairs.
// both counts the questions right in A and B, aOnly and bOnly the discordant ones and
// neither the rest. Unlike the Wald interval it stays inside [-1, 1] and is not
// degenerate when no question is discordant.
func NewcombePaired(both, aOnly, bOnly, neither int) (lo, hi float64) {
	n := both + aOnly + bOnly + neither
	if n == 0 {
		return -1, 1
	}
	nf := float64(n)
	pa, pb := float64(both+aOnly)/nf, float64(both+bOnly)/nf
	la, ua := Wilson(both+aOnly, n)
	lb, ub := Wilson(both+bOnly, n)
	// phi is the correlation of the two 0/1 outcomes (0 when a margin is empty), with
	// Newcombe's correction of a positive numerator by N/2: without it, no discordant
	// question would give phi = 1 and an interval of width 0.
	var phi float64
	if den := float64(both+aOnly) * float64(bOnly+neither) * float64(both+bOnly) * float64(aOnly+neither); den > 0 {
		num := float64(both)*float64(neither) - float64(aOnly)*float64(bOnly)
		if num > 0 {
			num = math.Max(num-nf/2, 0)
		}
		phi = num / math.Sqrt(den)
	}
	d := pa - pb
	dl, eu := pa-la, ub-pb
	el, du := pb-lb, ua-pa
	lo = d - math.Sqrt(math.Max(0, dl*dl-2*phi*dl*eu+eu*eu))
	hi = d + math.Sqrt(math.Max(0, el*el-2*phi*el*du+du*du))
	return math.Max(-1, lo), math.Min(1, hi)
}

// RateValue is the value of the registry's 0/1 metric id for k of n judged questions
// (a slice that other sections do not hold, such as a task category): the rate, its
// text and its Wilson interval, exactly as Aggregate gives them. n = 0, or an id that is
// not a declared rate, gives a value not applicable ("n/a: nothing judged").
func RateValue(id string, k, n int) Value {
	v := Value{ID: id, N: n, Denominator: n, Judged: n}
	m, ok := Declaration(id)
	if !ok || !m.Binary || n <= 0 || k < 0 || k > n {
		v.Text = naText(0, 0, "")
		if ok && !m.Binary {
			v.Text = naText(0, 0, id+" is not a rate")
		}
		return v
	}
	rate := float64(k) / float64(n)
	v.Value, v.Coverage, v.Applicable, v.Text = &rate, 1, true, m.Unit.Format(rate)
	lo, hi := Wilson(k, n)
	setCI(&m, &v, MethodWilson, lo, hi)
	return v
}
