package main

import (
	"errors"
	"sync"
	"testing"
	"time"
)

func TestParseLoadavg(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    float64
		wantErr bool
	}{
		{"0.52 0.41 0.33 1/123 4567\n", 0.52, false},
		{"17.90 12.01 9.30 5/700 99", 17.9, false},
		{"", 0, true},
		{"abc 0.41 0.33 1/123 4567", 0, true},
		{"-1 0 0 1/1 1", 0, true},
	} {
		got, err := parseLoadavg(tc.in)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("parseLoadavg(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestLoadRange(t *testing.T) {
	var r loadRange
	if r.String() != "n/a" {
		t.Errorf("empty range = %q, want n/a", r)
	}
	for _, v := range []float64{3.5, 1.25, 7} {
		r = r.observe(v)
	}
	if r != (loadRange{1.25, 7, 3}) || r.String() != "1.25-7.00" {
		t.Errorf("range = %+v %q, want 1.25-7.00 over 3 samples", r, r)
	}
	for _, tc := range []struct {
		a, b, want loadRange
	}{
		{loadRange{1, 2, 2}, loadRange{0.5, 1.5, 3}, loadRange{0.5, 2, 5}},
		{loadRange{}, loadRange{4, 5, 1}, loadRange{4, 5, 1}},
		{loadRange{4, 5, 1}, loadRange{}, loadRange{4, 5, 1}},
	} {
		if got := tc.a.merge(tc.b); got != tc.want {
			t.Errorf("%+v.merge(%+v) = %+v, want %+v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestLoadSampler feeds the sampler a scripted reader: it samples at the
// start, on its ticker and at stop, and skips failed reads.
func TestLoadSampler(t *testing.T) {
	var mu sync.Mutex
	vals := []float64{2, -1, 5, 1}
	i := 0
	read := func() (float64, error) {
		mu.Lock()
		defer mu.Unlock()
		if i >= len(vals) {
			return 3, nil
		}
		v := vals[i]
		i++
		if v < 0 {
			return 0, errors.New("unreadable")
		}
		return v, nil
	}
	s := sampleLoad(read, time.Millisecond)
	for {
		mu.Lock()
		n := i
		mu.Unlock()
		if n >= len(vals) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	r := s.stop()
	if r.min != 1 || r.max != 5 || r.samples < 4 {
		t.Errorf("range = %+v, want 1-5 over at least 4 samples", r)
	}
}
