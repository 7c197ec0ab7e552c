// Package runstat summarises repeated benchmark runs the way
// docs/benchmarks.md prints every figure: min / median / max over runs,
// ratios taken inside a run, and the load average the runs saw. Both
// benchmark commands (loadbench, benchfig) use it, so their tables agree.
package runstat

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Summary is one figure over repeated runs, so that a single lucky or
// unlucky run cannot pass for the figure.
type Summary struct {
	Min, Median, Max float64
	// N counts the runs that produced the figure.
	N int
}

// Summarize returns the min, median and max of xs, skipping NaN (a run that
// could not produce the figure, such as a ratio over a zero). The median of
// an even count is the mean of the two middle values.
func Summarize(xs []float64) Summary {
	s := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			s = append(s, x)
		}
	}
	if len(s) == 0 {
		return Summary{Min: math.NaN(), Median: math.NaN(), Max: math.NaN()}
	}
	slices.Sort(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return Summary{Min: s[0], Median: m, Max: s[len(s)-1], N: len(s)}
}

// Format prints the summary as "min / median / max" with f, the one value
// when there was one run, and "-" when there was none.
func (s Summary) Format(f func(float64) string) string {
	switch s.N {
	case 0:
		return "-"
	case 1:
		return f(s.Median)
	}
	return f(s.Min) + " / " + f(s.Median) + " / " + f(s.Max)
}

// Ratio is num/den of one run, NaN when the baseline is missing or zero, so
// that a ratio is always taken inside a run and summarised afterwards (the
// median of the ratios, not the ratio of the medians).
func Ratio(num, den float64) float64 {
	if den == 0 || math.IsNaN(den) || math.IsNaN(num) {
		return math.NaN()
	}
	return num / den
}

// LoadavgPath is where Linux publishes the load average.
const LoadavgPath = "/proc/loadavg"

// LoadRange is the 1-minute load average seen during a run: figures from a
// shared machine mean little without it.
type LoadRange struct {
	Min, Max float64
	Samples  int
}

// String prints the range as "min-max", or "n/a" without a sample.
func (r LoadRange) String() string {
	if r.Samples == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f-%.2f", r.Min, r.Max)
}

// Observe widens the range by one sample.
func (r LoadRange) Observe(v float64) LoadRange {
	if r.Samples == 0 {
		return LoadRange{Min: v, Max: v, Samples: 1}
	}
	return LoadRange{Min: math.Min(r.Min, v), Max: math.Max(r.Max, v), Samples: r.Samples + 1}
}

// Merge is the range covering both.
func (r LoadRange) Merge(o LoadRange) LoadRange {
	switch {
	case o.Samples == 0:
		return r
	case r.Samples == 0:
		return o
	}
	return LoadRange{Min: math.Min(r.Min, o.Min), Max: math.Max(r.Max, o.Max), Samples: r.Samples + o.Samples}
}

// RangeOf is the range of a list of samples.
func RangeOf(vals []float64) LoadRange {
	var r LoadRange
	for _, v := range vals {
		r = r.Observe(v)
	}
	return r
}

// ParseLoadavg reads the 1-minute value from /proc/loadavg's text
// ("0.52 0.41 0.33 1/123 4567").
func ParseLoadavg(s string) (float64, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return 0, fmt.Errorf("%s: empty", LoadavgPath)
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%s: 1-minute load %q is not a load average", LoadavgPath, f[0])
	}
	return v, nil
}

// ReadLoadavg reads the machine's current 1-minute load average.
func ReadLoadavg() (float64, error) {
	b, err := os.ReadFile(LoadavgPath)
	if err != nil {
		return 0, err
	}
	return ParseLoadavg(string(b))
}

// Sampler reads the load average in a goroutine of its own while a run
// goes on, so the run's figures carry the load they were measured under.
type Sampler struct {
	read func() (float64, error)
	mu   sync.Mutex
	vals []float64
	quit chan struct{}
	done chan struct{}
}

// SampleLoad starts sampling with read at once and every interval until
// Stop; a read that fails (no /proc: not Linux) adds no sample.
func SampleLoad(read func() (float64, error), every time.Duration) *Sampler {
	s := &Sampler{read: read, quit: make(chan struct{}), done: make(chan struct{})}
	s.sample()
	go func() {
		defer close(s.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				s.sample()
			case <-s.quit:
				return
			}
		}
	}()
	return s
}

func (s *Sampler) sample() {
	v, err := s.read()
	if err != nil {
		return
	}
	s.mu.Lock()
	s.vals = append(s.vals, v)
	s.mu.Unlock()
}

// Stop takes a last sample and returns every sample, in order.
func (s *Sampler) Stop() []float64 {
	close(s.quit)
	<-s.done
	s.sample()
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.vals)
}
