package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ucpgen/ucpgen/internal/runstat"
)

// soakPages is how many pages of each valid search the soak corpus walks.
const soakPages = 3

// soak starts the storefinder over HTTP, records the answer to every call
// of a corpus on the idle server (valid searches walked through their
// pages, lookups, and n calls of the mutated mix), then sends the corpus
// again and again from workers for d, and counts every answer that is not
// byte for byte the recorded one, every transport error, and the
// process's resident memory once a second.
func soak(bin string, d time.Duration, n int, seed uint64, workers int) error {
	cmd, base, err := startHTTP(bin)
	if err != nil {
		return err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	client := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: workers}}

	corpus, want, err := walkCorpus(client, base)
	if err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(seed, 7))
	for i := range n {
		c := mixedCall(r, base, i)
		a, err := c.do(client)
		if err != nil {
			return fmt.Errorf("record %s %s: %w", c.label, c.url, err)
		}
		corpus, want = append(corpus, c), append(want, a)
	}
	t := &tally{counts: map[string]int{}}
	for i, c := range corpus {
		if class, fault := c.classify(want[i]); fault {
			t.add(class, true, string(want[i].body))
		}
	}
	if len(t.faults) > 0 {
		return fmt.Errorf("the idle server already gave faults: %q", t.faults)
	}

	var calls, wrong, errs atomic.Int64
	var mu sync.Mutex
	var examples []string
	pid := cmd.Process.Pid
	rss := runstat.SampleLoad(func() (float64, error) {
		v, err := readRSS(pid)
		return float64(v), err
	}, time.Second)
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w * len(corpus) / workers; time.Now().Before(deadline); i++ {
				k := i % len(corpus)
				a, err := corpus[k].do(client)
				calls.Add(1)
				switch {
				case err != nil:
					errs.Add(1)
				case a.status != want[k].status || a.ctype != want[k].ctype || !bytes.Equal(a.body, want[k].body):
					wrong.Add(1)
				default:
					continue
				}
				mu.Lock()
				if len(examples) < 10 {
					examples = append(examples, fmt.Sprintf("%s %s: got %d %v %s, want %d %s", corpus[k].label, corpus[k].url, a.status, err, clip(string(a.body)), want[k].status, clip(string(want[k].body))))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	samples := rss.Stop()
	mem := runstat.Summarize(samples)
	fmt.Printf("soak: %s, %d workers, a corpus of %d calls (MCP and REST, 2026-08-25 and 2026-08-21)\n", d, workers, len(corpus))
	fmt.Printf("%d calls, %d wrong answers, %d transport errors; RSS min / median / max %s MiB over %d samples\n",
		calls.Load(), wrong.Load(), errs.Load(), mem.Format(func(b float64) string { return fmt.Sprintf("%.0f", b/(1<<20)) }), len(samples))
	for _, e := range examples {
		fmt.Println("  " + e)
	}
	if wrong.Load() > 0 || errs.Load() > 0 {
		return fmt.Errorf("%d wrong answers and %d transport errors", wrong.Load(), errs.Load())
	}
	return nil
}

// walkCorpus is every valid seed as sent over both transports at both
// versions, each search followed through up to soakPages pages by the
// cursors the idle server gives, with the answers it gave.
func walkCorpus(client *http.Client, base string) ([]httpCall, []answer, error) {
	var out []httpCall
	var answers []answer
	for _, v := range versions {
		for _, s := range seeds {
			for _, rest := range []bool{false, true} {
				body := s.body
				for page := 0; page < soakPages; page++ {
					c := plainCall(base, v.version, v.mcp, v.rest, rest, s.tool, body, len(out)+1)
					a, err := c.do(client)
					if err != nil {
						return nil, nil, fmt.Errorf("walk %s %s: %w", c.label, body, err)
					}
					out, answers = append(out, c), append(answers, a)
					next, ok := nextPage(rest, body, a.body)
					if !ok {
						break
					}
					body = next
				}
			}
		}
	}
	return out, answers, nil
}

// plainCall is an unmutated call of tool with location body.
func plainCall(base, version, mcpPath, restPath string, rest bool, tool, body string, id int) httpCall {
	if rest {
		return restRequest("rest "+version, base+restPath+restOp(tool), body, uint64(id))
	}
	return mcpRequest("mcp "+version, base+mcpPath, toolCallLine(id, tool, body))
}

// nextPage is body with the cursor of the page in answer, when the answer
// is a search page that has a next one.
func nextPage(rest bool, body string, answer []byte) (string, bool) {
	var page struct {
		Pagination *struct {
			HasNextPage bool   `json:"has_next_page"`
			Cursor      string `json:"cursor"`
		} `json:"pagination"`
	}
	if rest {
		if json.Unmarshal(answer, &page) != nil {
			return "", false
		}
	} else {
		var m struct {
			Result struct {
				StructuredContent json.RawMessage `json:"structuredContent"`
			} `json:"result"`
		}
		if json.Unmarshal(answer, &m) != nil || json.Unmarshal(m.Result.StructuredContent, &page) != nil {
			return "", false
		}
	}
	if page.Pagination == nil || !page.Pagination.HasNextPage {
		return "", false
	}
	var q map[string]any
	if json.Unmarshal([]byte(body), &q) != nil {
		return "", false
	}
	pg, _ := q["pagination"].(map[string]any)
	if pg == nil {
		pg = map[string]any{}
	}
	pg["cursor"] = page.Pagination.Cursor
	q["pagination"] = pg
	b, err := json.Marshal(q)
	return string(b), err == nil
}

// readRSS is VmRSS of /proc/PID/status, in bytes.
func readRSS(pid int) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}

// startHTTP starts the storefinder on a loopback port, at both versions,
// with no rate limits and no access log, and returns it and its base URL.
func startHTTP(bin string) (*exec.Cmd, string, error) {
	cmd := exec.Command(bin, "--addr", "127.0.0.1:0", "--supported-versions", "2026-08-21", "--access-log=false",
		"--rate", "0", "--items-rate", "0", "--other-rate", "0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	base, err := waitListening(stderr)
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, "", err
	}
	return cmd, base, nil
}
