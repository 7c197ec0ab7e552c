package runstat

import (
	"errors"
	"math"
	"sync"
	"testing"
	"time"
)

func TestSummarize(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		in   []float64
		want Summary
	}{
		{"one run", []float64{4}, Summary{4, 4, 4, 1}},
		{"three runs, unsorted", []float64{9, 1, 5}, Summary{1, 5, 9, 3}},
		{"even count takes the mean of the middle two", []float64{4, 1, 3, 10}, Summary{1, 3.5, 10, 4}},
		{"five runs with a repeat", []float64{2, 2, 7, 1, 3}, Summary{1, 2, 7, 5}},
		{"a NaN run is skipped", []float64{3, nan, 1}, Summary{1, 2, 3, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Summarize(tc.in); got != tc.want {
				t.Errorf("Summarize(%v) = %+v, want %+v", tc.in, got, tc.want)
			}
		})
	}
	f := func(v float64) string { return time.Duration(v).String() }
	for _, in := range [][]float64{nil, {nan, nan}} {
		if got := Summarize(in); got.N != 0 || !math.IsNaN(got.Median) || got.Format(f) != "-" {
			t.Errorf("Summarize(%v) = %+v, %q; want no value and \"-\"", in, got, got.Format(f))
		}
	}
	for _, tc := range []struct {
		in   []float64
		want string
	}{
		{[]float64{2}, "2ns"},
		{[]float64{3, 1, 2}, "1ns / 2ns / 3ns"},
	} {
		if got := Summarize(tc.in).Format(f); got != tc.want {
			t.Errorf("Summarize(%v).Format = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRatio(t *testing.T) {
	for _, tc := range []struct {
		num, den float64
		want     float64 // NaN: no ratio
	}{
		{6, 3, 2},
		{1, 4, 0.25},
		{5, 0, math.NaN()},
		{math.NaN(), 2, math.NaN()},
		{2, math.NaN(), math.NaN()},
	} {
		got := Ratio(tc.num, tc.den)
		if math.IsNaN(tc.want) != math.IsNaN(got) || (!math.IsNaN(got) && got != tc.want) {
			t.Errorf("Ratio(%v, %v) = %v, want %v", tc.num, tc.den, got, tc.want)
		}
	}
}

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
		got, err := ParseLoadavg(tc.in)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("ParseLoadavg(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestLoadRange(t *testing.T) {
	var r LoadRange
	if r.String() != "n/a" {
		t.Errorf("empty range = %q, want n/a", r)
	}
	for _, v := range []float64{3.5, 1.25, 7} {
		r = r.Observe(v)
	}
	if r != (LoadRange{1.25, 7, 3}) || r.String() != "1.25-7.00" {
		t.Errorf("range = %+v %q, want 1.25-7.00 over 3 samples", r, r)
	}
	if got := RangeOf([]float64{3.5, 1.25, 7}); got != r {
		t.Errorf("RangeOf = %+v, want %+v", got, r)
	}
	for _, tc := range []struct {
		a, b, want LoadRange
	}{
		{LoadRange{1, 2, 2}, LoadRange{0.5, 1.5, 3}, LoadRange{0.5, 2, 5}},
		{LoadRange{}, LoadRange{4, 5, 1}, LoadRange{4, 5, 1}},
		{LoadRange{4, 5, 1}, LoadRange{}, LoadRange{4, 5, 1}},
	} {
		if got := tc.a.Merge(tc.b); got != tc.want {
			t.Errorf("%+v.Merge(%+v) = %+v, want %+v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestSampler feeds the sampler a scripted reader: it samples at the start,
// on its ticker and at stop, and skips failed reads.
func TestSampler(t *testing.T) {
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
	s := SampleLoad(read, time.Millisecond)
	for {
		mu.Lock()
		n := i
		mu.Unlock()
		if n >= len(vals) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	got := s.Stop()
	if len(got) < 4 || got[0] != 2 || got[1] != 5 || got[2] != 1 {
		t.Errorf("samples = %v, want 2, 5, 1 and then at least one more (the failed read skipped)", got)
	}
	if r := RangeOf(got); r.Min != 1 || r.Max != 5 {
		t.Errorf("range = %+v, want 1-5", r)
	}
}
