package ops

import (
	"fmt"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
)

// TestMetricHandlesCountEachCombination records requests and source calls
// of several label combinations from many goroutines at once, and requires
// every combination's counter and histogram to hold exactly its own calls:
// the kept handles must never mix combinations up or lose a first call.
func TestMetricHandlesCountEachCombination(t *testing.T) {
	m := NewMetrics()
	const goroutines, each = 8, 200
	outcomes := []string{OutcomeOK, OutcomeInvalidParams, OutcomeInternal}
	tools := []string{"search_locations", "lookup_locations"}
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				m.request("mcp", "tools/call", tools[(g+i)%2], outcomes[i%3], time.Millisecond, false)
				m.source([]string{"candidates", "resolve"}[i%2], "ok", time.Microsecond)
			}
		}()
	}
	wg.Wait()

	families, err := m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, f := range families {
		for _, metric := range f.GetMetric() {
			key := f.GetName() + labelText(metric.GetLabel())
			switch {
			case metric.GetCounter() != nil:
				got[key] = metric.GetCounter().GetValue()
			case metric.GetHistogram() != nil:
				got[key] = float64(metric.GetHistogram().GetSampleCount())
			}
		}
	}
	want := map[string]float64{}
	for g := range goroutines {
		for i := range each {
			tool, outcome := tools[(g+i)%2], outcomes[i%3]
			want[fmt.Sprintf("storefinder_requests_total{method=tools/call,outcome=%s,tool=%s,transport=mcp}", outcome, tool)]++
			want[fmt.Sprintf("storefinder_request_duration_seconds{method=tools/call,tool=%s,transport=mcp}", tool)]++
			method := []string{"candidates", "resolve"}[i%2]
			want[fmt.Sprintf("storefinder_source_calls_total{method=%s,outcome=ok}", method)]++
			want[fmt.Sprintf("storefinder_source_call_duration_seconds{method=%s}", method)]++
		}
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %v, want %v", k, got[k], w)
		}
	}
}

// labelText renders labels as {name=value,...} in the registry's order.
func labelText(labels []*dto.LabelPair) string {
	s := "{"
	for i, l := range labels {
		if i > 0 {
			s += ","
		}
		s += l.GetName() + "=" + l.GetValue()
	}
	return s + "}"
}
