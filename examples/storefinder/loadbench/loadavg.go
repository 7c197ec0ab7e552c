package main

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// loadavgPath is where Linux publishes the load average.
const loadavgPath = "/proc/loadavg"

// loadRange is the 1-minute load average seen during one run: figures from
// a shared machine mean little without it.
type loadRange struct {
	min, max float64
	samples  int
}

// String prints the range as "min-max", or "n/a" without a sample.
func (r loadRange) String() string {
	if r.samples == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f-%.2f", r.min, r.max)
}

// observe widens the range by one sample.
func (r loadRange) observe(v float64) loadRange {
	if r.samples == 0 {
		return loadRange{min: v, max: v, samples: 1}
	}
	return loadRange{min: math.Min(r.min, v), max: math.Max(r.max, v), samples: r.samples + 1}
}

// merge is the range covering both.
func (r loadRange) merge(o loadRange) loadRange {
	switch {
	case o.samples == 0:
		return r
	case r.samples == 0:
		return o
	}
	return loadRange{min: math.Min(r.min, o.min), max: math.Max(r.max, o.max), samples: r.samples + o.samples}
}

// parseLoadavg reads the 1-minute value from /proc/loadavg's text
// ("0.52 0.41 0.33 1/123 4567").
func parseLoadavg(s string) (float64, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return 0, fmt.Errorf("%s: empty", loadavgPath)
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%s: 1-minute load %q is not a load average", loadavgPath, f[0])
	}
	return v, nil
}

// loadSampler reads the 1-minute load average at start, every interval,
// and at stop, in a goroutine of its own.
type loadSampler struct {
	read func() (float64, error)
	mu   sync.Mutex
	r    loadRange
	quit chan struct{}
	done chan struct{}
}

// readLoadavg reads the machine's current 1-minute load average.
func readLoadavg() (float64, error) {
	b, err := os.ReadFile(loadavgPath)
	if err != nil {
		return 0, err
	}
	return parseLoadavg(string(b))
}

// sampleLoad starts sampling with read every interval until stop.
func sampleLoad(read func() (float64, error), every time.Duration) *loadSampler {
	s := &loadSampler{read: read, quit: make(chan struct{}), done: make(chan struct{})}
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

func (s *loadSampler) sample() {
	v, err := s.read()
	if err != nil {
		return // no /proc (not Linux): the range stays n/a
	}
	s.mu.Lock()
	s.r = s.r.observe(v)
	s.mu.Unlock()
}

// stop takes a last sample and returns the range seen.
func (s *loadSampler) stop() loadRange {
	close(s.quit)
	<-s.done
	s.sample()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r
}
