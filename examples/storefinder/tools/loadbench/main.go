// Command loadbench measures the store finder the way an agent meets it: it
// generates a dataset of N stores with the example's own generator, starts
// the storefinder binary on it (in memory, or on PostgreSQL with -postgres),
// and times a fixed query mix over MCP, one request in flight, from start-up
// to peak RSS. Beside every server figure it prints a brute-force baseline
// measured in the same run: every store decoded once, then every query
// answered by checking every store with the predicate engine and sorting the
// matches, in this process.
//
//	go run ./examples/storefinder/tools/loadbench -n 0,100000
//	go run ./examples/storefinder/tools/loadbench -n 1000000 -postgres "$DSN"
//	go run ./examples/storefinder/tools/loadbench -throughput 8,32,64
//	go run ./examples/storefinder/tools/loadbench -throughput 8,32 -client http -rest
//	go run ./examples/storefinder/tools/loadbench -loaders -n 1000000
//	go run ./examples/storefinder/tools/loadbench -worstcase 64
//
// N = 0 means the embedded default dataset. Every mode but -worstcase runs
// its whole measurement -runs times (default 3), each with fresh server
// processes, and prints min / median / max of every figure, ratios taken
// per run, with the 1-minute load average seen during each run (runs.go);
// -markdown prints the tables ready for docs/benchmarks.md. It is a
// benchmark, not a test: only its summarising code has unit tests.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/examples/storefinder/sample"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == ceilingFlag {
		if err := runCeiling(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "loadbench:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == floorFlag {
		if err := runFloor(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "loadbench:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == jsonChildFlag {
		if err := runJSONChild(os.Args[2:], os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "loadbench:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == childFlag {
		if err := runChild(os.Args[2:], os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "loadbench:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "loadbench:", err)
		os.Exit(1)
	}
}

type config struct {
	sizes    []int
	reps     int
	warmup   int
	postgres string
	brute    bool
	startMax time.Duration
	keep     string
	extra    []string
	clients  []int
	// clientKinds are the throughput load clients, "sdk" and/or "http".
	clientKinds []string
	duration    time.Duration
	loaders     bool
	// worst and worstRuns select the worst-case memory run (worstcase.go).
	worst     int
	worstRuns int
	// rest adds the REST binding to the throughput run (rest.go).
	rest bool
	// run repeats every measurement (runs.go).
	run runOptions
}

func parseFlags(args []string) (config, error) {
	c := config{}
	fs := flag.NewFlagSet("loadbench", flag.ContinueOnError)
	sizes := fs.String("n", "0", "comma-separated store counts (0: the embedded dataset)")
	fs.IntVar(&c.reps, "reps", 40, "timed requests per query and size")
	fs.IntVar(&c.warmup, "warmup", 5, "untimed requests per query before timing")
	fs.StringVar(&c.postgres, "postgres", "", "serve from PostgreSQL at this DSN (the storefinder loads the dataset into it first)")
	fs.BoolVar(&c.brute, "brute", true, "also time the in-process brute-force baseline")
	fs.DurationVar(&c.startMax, "start-timeout", 45*time.Minute, "longest start-up to wait for")
	fs.StringVar(&c.keep, "dir", "", "folder for generated datasets (default: a temporary folder, removed afterwards)")
	extra := fs.String("server-flags", "", "extra storefinder flags, space-separated")
	tp := fs.String("throughput", "", "instead of the latency table: comma-separated client counts for a throughput run on the default dataset, beside a minimal go-sdk server")
	fs.DurationVar(&c.duration, "duration", 10*time.Second, "length of each throughput measurement")
	clients := fs.String("client", "sdk,http", "throughput load clients, comma-separated: sdk (go-sdk client sessions, which decode every answer) and http (plain HTTP posts, which check every answer's frame and decode one in 64), one table each")
	fs.BoolVar(&c.loaders, "loaders", false, "instead of the latency table: load each generated dataset in a process of its own with each dataset loader (whole file + Parse, streamed ParseFile) into a store, and print time and peak RSS")
	fs.IntVar(&c.worst, "worstcase", 0, "instead of the latency table: send this many worst-case requests of each memory-heavy kind at once to a server at default flags, direct and via the SDK, and print its peak RSS")
	fs.BoolVar(&c.rest, "rest", false, "with -throughput: also send the search over REST (POST /ucp/locations/search) to the same store finder with http load clients, and print it beside the direct MCP path and the go-sdk floor")
	fs.IntVar(&c.worstRuns, "worstcase-runs", 3, "fresh server processes per path for -worstcase")
	addRunFlags(fs, &c.run)
	addStartupFlags(fs)
	addPostgresLoadFlags(fs)
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if err := c.run.check(); err != nil {
		return c, err
	}
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 {
			return c, fmt.Errorf("-n: %q is not a store count", f)
		}
		c.sizes = append(c.sizes, n)
	}
	if c.reps < 1 {
		return c, fmt.Errorf("-reps: %d: must be at least 1", c.reps)
	}
	c.extra = strings.Fields(*extra)
	for _, k := range strings.Split(*clients, ",") {
		switch k = strings.TrimSpace(k); k {
		case "sdk", "http":
			c.clientKinds = append(c.clientKinds, k)
		default:
			return c, fmt.Errorf("-client: %q is neither sdk nor http", k)
		}
	}
	if c.rest && !slices.Contains(c.clientKinds, "http") {
		return c, errors.New("-rest: needs the http load client (-client http)")
	}
	if *tp != "" {
		for _, f := range strings.Split(*tp, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				return c, fmt.Errorf("-throughput: %q is not a client count", f)
			}
			c.clients = append(c.clients, n)
		}
	}
	return c, nil
}

func run(args []string, out io.Writer) error {
	c, err := parseFlags(args)
	if err != nil {
		return err
	}
	dir := c.keep
	if dir == "" {
		d, err := os.MkdirTemp("", "loadbench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	if c.loaders {
		return compareLoadersRuns(out, c, dir)
	}
	bin := filepath.Join(dir, "storefinder")
	build := exec.Command("go", "build", "-o", bin, "github.com/ucpgen/ucpgen/examples/storefinder")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("build storefinder: %w", err)
	}
	if startupMode {
		return runStartup(out, c, bin, dir)
	}
	if postgresLoadMode {
		return runPostgresLoad(out, c, bin, dir)
	}
	if c.worst > 0 {
		return runWorstCase(out, bin, c.worst, c.worstRuns, c.extra)
	}
	if len(c.clients) > 0 {
		return runThroughputRuns(out, c, bin)
	}
	return runLatency(out, c, bin, dir)
}

func writeDataset(path string, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := generate(f, n); err != nil {
		f.Close()
		return fmt.Errorf("generate %d stores: %w", n, err)
	}
	return f.Close()
}

// result is what one server run measured.
type result struct {
	startup   time.Duration
	startCPU  time.Duration // the server's user+system CPU until it answered
	peakRSSKB int64
	lat       map[string][]time.Duration
	// latHTTP are the same calls from a plain HTTP client (plainCall).
	latHTTP map[string][]time.Duration
}

// plainCall posts one tools/call (MCP 2025-11-25, stateless) as the
// throughput run's http clients do and returns the time until the whole
// answer was read. The answer is checked after the clock stops: its frame
// and id, no isError, and a locations array in its structured content.
func plainCall(client *http.Client, endpoint, tool, args string, id int) (time.Duration, error) {
	body := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	t0 := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	d := time.Since(t0)
	if err != nil {
		return 0, err
	}
	var msg toolReply
	if resp.StatusCode != http.StatusOK || json.Unmarshal(raw, &msg) != nil || msg.ID != id || msg.Result.IsError || msg.Result.StructuredContent.Locations == nil {
		return 0, fmt.Errorf("status %d, answer %.200q", resp.StatusCode, raw)
	}
	return d, nil
}

// toolReply is what the plain HTTP clients read of a tools/call answer to
// check it: its id, and that it is a result holding Locations.
type toolReply struct {
	ID     int `json:"id"`
	Result struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			Locations []json.RawMessage `json:"locations"`
		} `json:"structuredContent"`
	} `json:"result"`
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func measure(c config, bin, data string) (result, error) {
	var r result
	addr, err := freeAddr()
	if err != nil {
		return r, err
	}
	// Each query is sent twice (go-sdk session, then plain HTTP) from one
	// agent profile, faster than --rate's default allows at 1M: the rate
	// limit would measure itself. -server-flags can set it again.
	args := []string{"--addr", addr, "--rate", "0"}
	if data != "" {
		args = append(args, "--data", data)
	}
	if c.postgres != "" {
		args = append(args, "--postgres", c.postgres)
	}
	args = append(args, c.extra...)
	start := time.Now()
	stop, pid, err := startServer(bin, args, "http://"+addr, c.startMax)
	if err != nil {
		return r, err
	}
	defer stop()
	base := "http://" + addr
	r.startup = time.Since(start)
	r.startCPU = cpuTime(pid)

	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "loadbench", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/ucp/mcp"}, nil)
	if err != nil {
		return r, fmt.Errorf("connect: %w", err)
	}
	defer cs.Close()

	ids, err := browseIDs(ctx, cs, 50)
	if err != nil {
		return r, err
	}
	r.lat = map[string][]time.Duration{}
	r.latHTTP = map[string][]time.Duration{}
	plain := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	defer plain.CloseIdleConnections()
	for _, q := range queryMix {
		for i := range c.warmup + c.reps {
			args := q.args(i, ids)
			t0 := time.Now()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: q.tool, Arguments: json.RawMessage(args)})
			d := time.Since(t0)
			if err != nil {
				return r, fmt.Errorf("%s: %w", q.name, err)
			}
			if res.IsError {
				return r, fmt.Errorf("%s: tool error: %v", q.name, res.Content)
			}
			// The same call from a plain HTTP client, right after: the
			// server's time without the go-sdk session's decoding of the
			// answer into maps, which grows with the answer.
			dh, err := plainCall(plain, base+"/ucp/mcp", q.tool, args, i+1)
			if err != nil {
				return r, fmt.Errorf("%s over plain HTTP: %w", q.name, err)
			}
			if i >= c.warmup {
				r.lat[q.name] = append(r.lat[q.name], d)
				r.latHTTP[q.name] = append(r.latHTTP[q.name], dh)
			}
		}
	}
	r.peakRSSKB = peakRSS(pid)
	return r, nil
}

// browseIDs pages through the browse order to collect ids for the lookup.
func browseIDs(ctx context.Context, cs *mcp.ClientSession, n int) ([]string, error) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_locations", Arguments: json.RawMessage(`{"meta":` + meta + `,"location":{"pagination":{"limit":` + strconv.Itoa(n) + `}}}`)})
	if err != nil {
		return nil, fmt.Errorf("browse for lookup ids: %w", err)
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return nil, err
	}
	var body struct {
		Locations []struct {
			ID string `json:"id"`
		} `json:"locations"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, fmt.Errorf("browse for lookup ids: %w", err)
	}
	var ids []string
	for _, l := range body.Locations {
		ids = append(ids, l.ID)
	}
	if len(ids) == 0 {
		return nil, errors.New("browse returned no Locations")
	}
	return ids, nil
}

// cpuTime reads the process's user plus system CPU time (Linux), so a
// start-up on a busy machine can be told apart from a slow one.
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return -1
	}
	// Fields after the parenthesised command name: state is field 3, utime
	// and stime are fields 14 and 15, in clock ticks of 1/100 s.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return -1
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	k, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+k) * 10 * time.Millisecond
}

// peakRSS reads the process's high-water resident set (Linux), in KiB.
func peakRSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			v, _ := strconv.ParseInt(f[1], 10, 64)
			return v
		}
	}
	return -1
}

func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(0, min(i-1, len(s)-1))]
}

func fmtDur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.2f ms", float64(d)/1e6)
	default:
		return fmt.Sprintf("%.0f µs", float64(d)/1e3)
	}
}

// loadRecords reads the dataset the server was given (the embedded one for "").
func loadRecords(path string) ([]dataset.Record, error) {
	if path == "" {
		return sample.Default()
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return dataset.Parse(b)
}

// exited reports whether the server process has already ended, without
// reaping it (Wait runs once, in measure's deferred clean-up).
func exited(cmd *exec.Cmd) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid))
	if err != nil {
		return true
	}
	f := strings.Fields(string(b))
	return len(f) > 2 && f[2] == "Z"
}

// startServer starts the storefinder binary and waits until its profile
// endpoint answers; stop kills it, pid names it for the RSS reading. The
// access log is off: a line per request would be measured too and pile up
// in the log buffer kept for start-up errors.
func startServer(bin string, args []string, base string, wait time.Duration) (stop func(), pid int, err error) {
	cmd := exec.Command(bin, append([]string{"--access-log=false"}, args...)...)
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = io.Discard, &logs
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, 0, err
	}
	stop = func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	for {
		resp, err := http.Get(base + "/.well-known/ucp")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return stop, cmd.Process.Pid, nil
			}
		}
		if time.Since(start) > wait {
			stop()
			return nil, 0, fmt.Errorf("storefinder did not start within %s", wait)
		}
		if exited(cmd) {
			stop()
			return nil, 0, fmt.Errorf("storefinder exited during start-up:\n%s", logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
