package main

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// sampler reads the 1-minute load average at start, every interval and at stop.
type sampler struct {
	mu   sync.Mutex
	vals []float64
	quit chan struct{}
	done chan struct{}
}

func sampleLoad(every time.Duration) *sampler {
	s := &sampler{quit: make(chan struct{}), done: make(chan struct{})}
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

func (s *sampler) sample() {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return // not Linux: no samples
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return
	}
	s.mu.Lock()
	s.vals = append(s.vals, v)
	s.mu.Unlock()
}

func (s *sampler) stop() []float64 {
	close(s.quit)
	<-s.done
	s.sample()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.vals
}
