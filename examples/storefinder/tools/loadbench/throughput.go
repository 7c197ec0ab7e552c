package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/generated/location"
)

// floorResult is the fixed, small search result of the floor server: a page
// of one Location, the least any UCP search answer carries, at the version
// the store finder serves so a spec bump needs no edit here.
var floorResult = `{"ucp":{"version":"` + location.ProtocolVersion + `","capabilities":{"dev.ucp.common.location.search":[{"version":"` + location.ProtocolVersion + `"}]}},"locations":[{"id":"loc_1","name":"Floor"}],"pagination":{"has_next_page":false}}`

// floorFlag makes the binary serve one floor server, in a process of its
// own like the store finder, so that neither side shares a runtime (or a
// garbage collector) with the load clients.
const floorFlag = "-loadbench-floor"

// runFloor serves the floor at args[0] with the result in file args[1]
// until the process is killed.
func runFloor(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("%s: want an address and a result file", floorFlag)
	}
	result, err := os.ReadFile(args[1])
	if err != nil {
		return err
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "floor", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "search_locations", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{
			StructuredContent: json.RawMessage(result),
			Content:           []mcp.Content{&mcp.TextContent{Text: string(result)}},
		}, nil
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	srv := &http.Server{Addr: args[0], Handler: h, ReadHeaderTimeout: 5 * time.Second}
	return srv.ListenAndServe()
}

// ceilingFlag makes the binary serve the payload ceiling: tools/call is
// answered by replaying the store finder's own answer (one per protocol
// version, fetched once, the id swapped in), everything else is passed to
// the store finder. Its rate bounds what any server could reach with that
// answer and those clients, since it does no work but writing the bytes.
const ceilingFlag = "-loadbench-ceiling"

// runCeiling serves the ceiling at args[0] in front of the store finder's
// endpoint args[1] until the process is killed.
func runCeiling(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("%s: want an address and the store finder's endpoint", ceilingFlag)
	}
	upstream, err := url.Parse(args[1])
	if err != nil {
		return err
	}
	// The ceiling serves the store finder's path, so requests pass as they are.
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: upstream.Scheme, Host: upstream.Host})
	var mu sync.Mutex
	answers := map[string][]byte{} // protocol version -> result
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if r.Method != http.MethodPost || json.Unmarshal(body, &req) != nil || req.Method != "tools/call" || len(req.ID) == 0 {
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.Host = upstream.Host
			proxy.ServeHTTP(w, r)
			return
		}
		version := r.Header.Get("Mcp-Protocol-Version")
		mu.Lock()
		result, ok := answers[version]
		mu.Unlock()
		if !ok {
			up, err := http.NewRequest(http.MethodPost, upstream.String(), bytes.NewReader(body))
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
			up.Header = r.Header.Clone()
			resp, err := http.DefaultClient.Do(up)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var msg struct {
				Result json.RawMessage `json:"result"`
			}
			if resp.StatusCode != http.StatusOK || json.Unmarshal(raw, &msg) != nil || len(msg.Result) == 0 {
				http.Error(w, fmt.Sprintf("store finder answered %d: %.200s", resp.StatusCode, raw), http.StatusBadGateway)
				return
			}
			result = msg.Result
			mu.Lock()
			answers[version] = result
			mu.Unlock()
		}
		out := make([]byte, 0, len(result)+64)
		out = append(out, `{"jsonrpc":"2.0","id":`...)
		out = append(out, req.ID...)
		out = append(out, `,"result":`...)
		out = append(out, result...)
		out = append(out, '}')
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(out)))
		w.Write(out)
	})
	srv := &http.Server{Addr: args[0], Handler: h, ReadHeaderTimeout: 5 * time.Second}
	return srv.ListenAndServe()
}

// childServer starts this binary as a server (flag and args), waits until
// it accepts connections on addr, and returns its URL and a stop function.
func childServer(addr, flag string, args ...string) (string, func(), error) {
	url, stop, _, err := childServerPid(addr, flag, args...)
	return url, stop, err
}

// childServerPid is childServer that also returns the server's process id.
func childServerPid(addr, flag string, args ...string) (string, func(), int, error) {
	self, err := os.Executable()
	if err != nil {
		return "", nil, 0, err
	}
	cmd := exec.Command(self, append([]string{flag, addr}, args...)...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return "", nil, 0, err
	}
	stop := func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return "http://" + addr, stop, cmd.Process.Pid, nil
		}
		if time.Since(start) > 30*time.Second {
			stop()
			return "", nil, 0, fmt.Errorf("%s server did not start on %s", flag, addr)
		}
	}
}

// floorServer starts the SDK's floor: a minimal go-sdk server whose one
// tool returns result without looking at its arguments, served statelessly
// with JSON responses like the store finder, in a process of its own.
func floorServer(dir, name, result string) (string, func(), error) {
	file := filepath.Join(dir, name+".json")
	if err := os.WriteFile(file, []byte(result), 0o644); err != nil {
		return "", nil, err
	}
	addr, err := freeAddr()
	if err != nil {
		return "", nil, err
	}
	return childServer(addr, floorFlag, file)
}

// throughput runs clients concurrent callers of kind ("sdk" or "http",
// see caller), each calling the realistic search back to back for d, and
// returns completed calls per second.
func throughput(kind, endpoint string, clients int, d time.Duration) (float64, error) {
	call, done, err := caller(kind, endpoint, clients)
	if err != nil {
		return 0, err
	}
	defer done()
	return callLoop(clients, d, call)
}

// httpCaller returns the call of a plain HTTP load client and the function
// that closes its connections: a plain load generator, as wrk or hey would
// be, so that the clients' own decoding does not take the CPU the servers
// are measured on. Each client posts tools/call over keep-alive connections
// (stateless, MCP 2025-11-25) and reads every answer whole.
// Every answer's status and JSON-RPC frame are checked; one in 64 (and each
// client's first) is decoded and must carry locations in its structured
// content.
func httpCaller(endpoint string, clients int) (call func(i, n int) error, done func()) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}}
	return func(i, n int) error {
		id := strconv.Itoa(n)
		body := `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"search_locations","arguments":` + realistic(n) + `}}`
		req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		raw, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		frame := `{"jsonrpc":"2.0","id":` + id + `,"result":{`
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(string(raw[:min(len(raw), len(frame))]), frame) || !strings.HasSuffix(string(raw[max(0, len(raw)-2):]), "}}") {
			return fmt.Errorf("status %d, answer %.200q", resp.StatusCode, raw)
		}
		if n%64 == i%64 {
			var msg toolReply
			if err := json.Unmarshal(raw, &msg); err != nil || msg.Result.IsError || len(msg.Result.StructuredContent.Locations) == 0 {
				return fmt.Errorf("answer without locations (%v): %.200q", err, raw)
			}
		}
		return nil
	}, client.CloseIdleConnections
}

// callLoop runs call(client, n) back to back from clients goroutines for d
// and returns completed calls per second; the first error ends the run.
func callLoop(clients int, d time.Duration, call func(client, n int) error) (float64, error) {
	calls, elapsed, err := callCount(clients, 0, d, call)
	if err != nil {
		return 0, err
	}
	return float64(calls) / elapsed.Seconds(), nil
}

// callCount is callLoop returning the completed calls and the time they
// took; each client's n starts at first plus its number, so that slices of
// one measurement go on through the request mix instead of repeating it.
func callCount(clients, first int, d time.Duration, call func(client, n int) error) (int64, time.Duration, error) {
	var done atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	stop := time.Now().Add(d)
	start := time.Now()
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := first + i; time.Now().Before(stop); n += clients {
				if err := call(i, n); err != nil {
					once.Do(func() { firstErr = err })
					return
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	return done.Load(), time.Since(start), firstErr
}

// realistic is the throughput request: stores open now within 5 km of a
// metro centre, with an amenity, first page of 10.
func realistic(i int) string {
	return `{"meta":` + meta + `,"location":` + realisticLocation(i) + `}`
}

// realisticLocation is the location part of the throughput request, which
// is also the whole REST body.
func realisticLocation(i int) string {
	return `{` + circle(i, 5_000) + `,"filters":{"hours":{"open_at":"2026-12-02T18:30:00Z"},"amenities":["dev.ucp.amenity.parking"]},"pagination":{"limit":10}}`
}

// runThroughput measures the store finder on the default dataset, the same
// store finder with tools/call through the SDK, and the floor servers side
// by side, alternating per client count.
//
// Every client sends the same agent profile, so the server's per-caller
// rate limit would measure itself: it runs with --rate 0 unless extra
// (-server-flags) says otherwise. With rest, the http clients also send the
// search over REST to the same store finder, and a table sets it beside the
// direct MCP path and the floor of the same run. The caller (runs.go)
// prints the figures, summarised over runs.
func runThroughput(bin string, counts []int, kinds []string, d time.Duration, extra []string, rest bool) (tpResult, error) {
	var res tpResult
	addr, err := freeAddr()
	if err != nil {
		return res, err
	}
	args := append([]string{"--addr", addr, "--rate", "0"}, extra...)
	stop, sfPid, err := startServer(bin, args, "http://"+addr, 5*time.Minute)
	if err != nil {
		return res, err
	}
	defer stop()
	// The same store finder with tools/call through the SDK's session, as
	// before the direct path: what the direct path is worth, same run.
	viaAddr, err := freeAddr()
	if err != nil {
		return res, err
	}
	viaArgs := append([]string{"--addr", viaAddr, "--rate", "0", "--tool-calls-via-sdk"}, extra...)
	stopVia, _, err := startServer(bin, viaArgs, "http://"+viaAddr, 5*time.Minute)
	if err != nil {
		return res, err
	}
	defer stopVia()
	dir, err := os.MkdirTemp("", "loadbench-floor-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	floor, closeFloor, err := floorServer(dir, "small", floorResult)
	if err != nil {
		return res, err
	}
	defer closeFloor()
	// The second floor answers with the store finder's own answer to the
	// first request, fixed: the SDK's cost for a payload of the same size.
	same, err := fixedAnswer("http://" + addr + "/ucp/mcp")
	if err != nil {
		return res, err
	}
	floorSame, closeSame, err := floorServer(dir, "same", same)
	if err != nil {
		return res, err
	}
	defer closeSame()
	ceilAddr, err := freeAddr()
	if err != nil {
		return res, err
	}
	ceiling, closeCeiling, ceilPid, err := childServerPid(ceilAddr, ceilingFlag, "http://"+addr+"/ucp/mcp")
	if err != nil {
		return res, err
	}
	defer closeCeiling()
	res.floorBytes, res.answerBytes = len(floorResult), len(same)
	for _, kind := range kinds {
		for _, c := range counts {
			// The store finder and its ceiling are measured in turns
			// (paired), so that the machine's load, which drifts over
			// seconds, weighs on both alike.
			rates, cpus, err := paired(kind, c, d, []side{{"storefinder", "http://" + addr + "/ucp/mcp", sfPid}, {"payload ceiling", ceiling + "/ucp/mcp", ceilPid}})
			if err != nil {
				return res, fmt.Errorf("%d %s clients: %w", c, kind, err)
			}
			sf, sfCPU, ceil, ceilCPU := rates[0], cpus[0], rates[1], cpus[1]
			via, err := throughput(kind, "http://"+viaAddr+"/ucp/mcp", c, d)
			if err != nil {
				return res, fmt.Errorf("storefinder via the SDK, %d %s clients: %w", c, kind, err)
			}
			fl, err := throughput(kind, floor, c, d)
			if err != nil {
				return res, fmt.Errorf("floor, %d %s clients: %w", c, kind, err)
			}
			fs, err := throughput(kind, floorSame, c, d)
			if err != nil {
				return res, fmt.Errorf("same-payload floor, %d %s clients: %w", c, kind, err)
			}
			row := tpRow{kind: kind, clients: c, direct: sf, viaSDK: via, floor: fl, sameFloor: fs, ceiling: ceil, directCPU: sfCPU, ceilingCPU: ceilCPU}
			if rest && kind == "http" {
				r, err := throughputREST("http://"+addr+"/ucp", c, d)
				if err != nil {
					return res, fmt.Errorf("storefinder over REST, %d clients: %w", c, err)
				}
				row.rest = r
			}
			res.rows = append(res.rows, row)
		}
	}
	return res, nil
}

// tpResult is one throughput run: requests per second of every server, per
// load client kind and client count.
type tpResult struct {
	floorBytes, answerBytes int
	rows                    []tpRow
}

// tpRow is one client count of one throughput run, in requests per second.
type tpRow struct {
	kind                                      string
	clients                                   int
	direct, viaSDK, floor, sameFloor, ceiling float64
	rest                                      float64 // with -rest and http clients only
	// directCPU and ceilingCPU are the store finder's and the ceiling's
	// own CPU time per call in µs (user + system, from /proc), which
	// depends on the machine's load far less than the rates do.
	directCPU, ceilingCPU float64
}

// side is one server of a paired measurement.
type side struct {
	name     string
	endpoint string
	pid      int // for its CPU time; 0: not read
}

// pairedSlices is how many turns each side of a paired measurement takes.
const pairedSlices = 5

// paired measures the throughput of each side (requests per second) and
// its own CPU time per call (µs, 0 where /proc cannot tell) with clients
// callers of kind, d in all per side. The sides take turns of d /
// pairedSlices, in an order that alternates every round (AB, BA, AB, ...),
// after an untimed warm-up of each, so that a drift in the machine's load,
// or a server's first calls (connections, caches, the heap's growth), does
// not fall on one side only: their ratio is then the figure to read.
func paired(kind string, clients int, d time.Duration, sides []side) (rates, cpus []float64, err error) {
	callers := make([]func(i, n int) error, len(sides))
	for k, sd := range sides {
		call, done, err := caller(kind, sd.endpoint, clients)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", sd.name, err)
		}
		defer done()
		callers[k] = call
		if _, _, err := callCount(clients, 0, max(d/pairedSlices, 200*time.Millisecond), call); err != nil {
			return nil, nil, fmt.Errorf("%s, warm-up: %w", sd.name, err)
		}
	}
	calls := make([]int64, len(sides))
	elapsed := make([]time.Duration, len(sides))
	cpu := make([]time.Duration, len(sides))
	cpuKnown := make([]bool, len(sides))
	for k := range sides {
		cpuKnown[k] = sides[k].pid > 0
	}
	slice := d / pairedSlices
	for round := range pairedSlices {
		for j := range sides {
			k := j
			if round%2 == 1 {
				k = len(sides) - 1 - j
			}
			before, errBefore := procCPU(sides[k].pid)
			n, took, err := callCount(clients, int(calls[k]), slice, callers[k])
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", sides[k].name, err)
			}
			after, errAfter := procCPU(sides[k].pid)
			calls[k] += n
			elapsed[k] += took
			cpu[k] += after - before
			cpuKnown[k] = cpuKnown[k] && errBefore == nil && errAfter == nil
		}
	}
	rates = make([]float64, len(sides))
	cpus = make([]float64, len(sides))
	for k := range sides {
		if calls[k] == 0 {
			return nil, nil, fmt.Errorf("%s: no call completed in %v", sides[k].name, elapsed[k])
		}
		rates[k] = float64(calls[k]) / elapsed[k].Seconds()
		if cpuKnown[k] {
			cpus[k] = float64(cpu[k]) / float64(time.Microsecond) / float64(calls[k])
		}
	}
	return rates, cpus, nil
}

// caller returns the call of one load client of kind at endpoint and the
// function that closes its connections: "http" is httpCaller; "sdk" uses
// go-sdk client sessions, every answer decoded into a CallToolResult,
// structured content included, as an agent's client does.
func caller(kind, endpoint string, clients int) (call func(i, n int) error, done func(), err error) {
	if kind == "http" {
		call, done := httpCaller(endpoint, clients)
		return call, done, nil
	}
	ctx := context.Background()
	sessions := make([]*mcp.ClientSession, clients)
	done = func() {
		for _, cs := range sessions {
			if cs != nil {
				cs.Close()
			}
		}
	}
	for i := range sessions {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "loadbench", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
		if err != nil {
			done()
			return nil, nil, fmt.Errorf("connect: %w", err)
		}
		sessions[i] = cs
	}
	return func(i, n int) error {
		res, err := sessions[i].CallTool(ctx, &mcp.CallToolParams{Name: "search_locations", Arguments: json.RawMessage(realistic(n))})
		if err == nil && res.IsError {
			err = fmt.Errorf("tool error: %v", res.Content)
		}
		return err
	}, done, nil
}

// clockTicks is the unit of /proc/<pid>/stat's CPU times, USER_HZ, which
// is 100 on every Linux this benchmark runs on.
const clockTicks = 100

// procCPU is the user + system CPU time process pid has used so far.
func procCPU(pid int) (time.Duration, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) is in parentheses and may hold spaces:
	// fields are counted after its closing one.
	_, rest, ok := strings.Cut(string(raw), ") ")
	if !ok {
		return 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	fields := strings.Fields(rest)
	// utime and stime are fields 14 and 15, the 12th and 13th after it.
	if len(fields) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(fields)+2)
	}
	var ticks int64
	for _, f := range fields[11:13] {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}

// fixedAnswer is the structured content of the store finder's answer to
// the first throughput request.
func fixedAnswer(endpoint string) (string, error) {
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "loadbench", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		return "", fmt.Errorf("connect: %w", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_locations", Arguments: json.RawMessage(realistic(0))})
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(res.StructuredContent)
	return string(b), err
}
