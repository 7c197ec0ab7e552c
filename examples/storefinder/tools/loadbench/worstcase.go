package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// The worst-case memory run: many concurrent requests of the
// two kinds that cost the most memory per request byte, against a server
// at its default flags, and the server's peak RSS.
//
//	go run ./examples/storefinder/tools/loadbench -worstcase 64 -worstcase-runs 3
//
// It runs the direct path and --tool-calls-via-sdk in turn, -reps times
// each, each time in a fresh process.

// worstNumbers is a 1 MiB-class body whose open member (meta is open) holds
// an array of about 520,000 zeros: every two body bytes become a parsed
// value.
func worstNumbers(id int) string {
	const budget = 1<<20 - 512
	head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_locations","arguments":{"meta":{"ucp-agent":{"profile":"https://platform.example/profile.json"},"pad":[`, id)
	tail := `0]},"location":{"pagination":{"limit":1}}}}}`
	var b strings.Builder
	b.WriteString(head)
	for b.Len()+len(tail)+2 < budget {
		b.WriteString("0,")
	}
	b.WriteString(tail)
	return b.String()
}

// worstEcho is a lookup of 50 unknown ids of 12,000 '<' each (600 KB),
// whose not_found messages used to echo every id, escaped twice.
func worstEcho(id int) string {
	ids := make([]string, 50)
	for i := range ids {
		ids[i] = strings.Repeat("<", 11_996) + fmt.Sprintf("%04d", i)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"lookup_locations","arguments":{"meta":%s,"location":{"ids":["%s"]}}}}`, id, meta, strings.Join(ids, `","`))
}

// worstResult is one worst-case run.
type worstResult struct {
	peakKB   int64
	statuses map[int]int
	maxBody  int
	elapsed  time.Duration
}

func runWorstCase(out io.Writer, bin string, n, reps int, extra []string) error {
	numbers, echo := worstNumbers(0), worstEcho(0)
	fmt.Fprintf(out, "worst case: %d concurrent requests of each kind (%d-byte numbers body, %d-byte echo body), default flags%s\n\n", n, len(numbers), len(echo), strings.Join(append([]string{""}, extra...), " "))
	fmt.Fprintln(out, "| path | run | peak RSS | statuses | largest answer | wall |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|")
	for _, path := range []struct {
		name  string
		flags []string
	}{{"direct", nil}, {"via SDK", []string{"--tool-calls-via-sdk"}}} {
		var peaks []int64
		for rep := range reps {
			r, err := worstOnce(bin, n, append(slices.Clone(extra), path.flags...))
			if err != nil {
				return fmt.Errorf("%s run %d: %w", path.name, rep+1, err)
			}
			peaks = append(peaks, r.peakKB)
			fmt.Fprintf(out, "| %s | %d | %.0f MiB | %v | %d B | %.1f s |\n", path.name, rep+1, float64(r.peakKB)/1024, r.statuses, r.maxBody, r.elapsed.Seconds())
		}
		slices.Sort(peaks)
		fmt.Fprintf(out, "| %s | min/median/max | %.0f / %.0f / %.0f MiB | | | |\n", path.name, float64(peaks[0])/1024, float64(peaks[len(peaks)/2])/1024, float64(peaks[len(peaks)-1])/1024)
	}
	return nil
}

// worstOnce starts a fresh server, sends n requests of each kind at once,
// and reads the peak RSS once every answer is in.
func worstOnce(bin string, n int, flags []string) (worstResult, error) {
	r := worstResult{statuses: map[int]int{}}
	addr, err := freeAddr()
	if err != nil {
		return r, err
	}
	stop, pid, err := startServer(bin, append([]string{"--addr", addr}, flags...), "http://"+addr, time.Minute)
	if err != nil {
		return r, err
	}
	defer stop()
	url := "http://" + addr + "/ucp/mcp"
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: 2 * n}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	var firstErr error
	start := time.Now()
	for i := range 2 * n {
		body := worstNumbers(i)
		if i%2 == 1 {
			body = worstEcho(i)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader([]byte(body)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := client.Do(req)
			if err != nil {
				mu.Lock()
				firstErr = cmpErr(firstErr, err)
				mu.Unlock()
				return
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			mu.Lock()
			r.statuses[resp.StatusCode]++
			r.maxBody = max(r.maxBody, len(got))
			mu.Unlock()
		}()
	}
	wg.Wait()
	r.elapsed = time.Since(start)
	r.peakKB = peakRSS(pid)
	return r, firstErr
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}
