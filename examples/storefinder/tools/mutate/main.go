// Command mutate sends mutated requests to an in-memory storefinder and
// counts its answers by class: MCP over HTTP and REST at both served
// versions, and newline-delimited lines over stdio. Any HTTP 5xx or
// JSON-RPC -32603 is a fault the storefinder must never give; the command
// lists each one it meets and exits 1. With -soak it instead replays valid
// walks and mutated calls for that long and counts every answer that is not
// the idle server's, with the process's RSS. It is a tool, not a test: CI
// does not run it.
//
//	go run ./examples/storefinder/tools/mutate -http 10000 -stdio 1000
//	go run ./examples/storefinder/tools/mutate -soak 10m -http 2000 -workers 8
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

func main() {
	httpN := flag.Int("http", 10000, "mutated HTTP requests, spread over MCP and REST at both versions")
	stdioN := flag.Int("stdio", 1000, "mutated stdio lines")
	seed := flag.Uint64("seed", 1, "random seed, so a run can be repeated")
	workers := flag.Int("workers", 2, "HTTP requests in flight")
	soakFor := flag.Duration("soak", 0, "instead: send the valid walks and -http mutated calls again and again for this long, and count answers that differ from the idle server's")
	flag.Parse()
	if err := run(*httpN, *stdioN, *seed, *workers, *soakFor); err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(1)
	}
}

// versions are the storefinder's served versions and their base paths.
var versions = []struct{ version, mcp, rest string }{
	{"2026-08-25", "/ucp/mcp", "/ucp"},
	{"2026-08-21", "/ucp/2026-08-21/mcp", "/ucp/2026-08-21"},
}

// seeds are request bodies, valid and near-valid, that mutations start from.
var seeds = []struct{ tool, body string }{
	{"search_locations", `{}`},
	{"search_locations", `{"query":"coffee","pagination":{"limit":3}}`},
	{"search_locations", `{"distance":{"center":{"latitude":40.7128,"longitude":-74.006},"max":20000},"pagination":{"limit":2}}`},
	{"search_locations", `{"serves":{"point":{"latitude":40.7128,"longitude":-74.006}}}`},
	{"search_locations", `{"serves":{"address":{"address_country":"US","address_region":"NY"}}}`},
	{"search_locations", `{"filters":{"hours":{"open_at":"2026-12-02T15:00:00Z"},"amenities":["dev.ucp.amenity.wi_fi"]}}`},
	{"search_locations", `{"filters":{"items":["sku-1","sku-2"]}}`},
	{"search_locations", `{"filters":{"inventory":[{"id":"sku-1","availability_status":"in_stock"}]}}`},
	{"search_locations", `{"pagination":{"cursor":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","limit":5}}`},
	{"lookup_locations", `{"ids":["loc_a72bfe596943","no-such-store"]}`},
	{"lookup_locations", `{"ids":["x"],"distance":{"center":{"latitude":1,"longitude":2},"max":5}}`},
}

// fragments are what mutations splice into a body.
var fragments = []string{
	`null`, `true`, `-0`, `1e400`, `-1e400`, `9223372036854775808`, `1.7976931348623157e308`, `0.1e-400`,
	`""`, `"\u0000"`, `"\ud800"`, "\"\xff\xfe\"", `[]`, `{}`, `[[[[[[[[[[[[]]]]]]]]]]]]`, `{"a":1,"a":2}`,
	`"` + strings.Repeat("a", 5000) + `"`, `"https://evil.example/p.json"`, `"http://127.0.0.1/p"`, `{"latitude":91,"longitude":0}`,
	`"2026-02-30T25:61:00Z"`, `"dev.ucp.amenity.unknown"`, `{"unit":"km"}`, `"\u2028"`,
}

// names are member names mutations add or rename to.
var names = []string{"query", "distance", "center", "max", "serves", "point", "address", "filters", "hours", "open_at",
	"items", "inventory", "amenities", "pagination", "cursor", "limit", "ids", "meta", "ucp-agent", "profile", "UCP-AGENT", "__proto__", ""}

// mutate returns body changed once or a few times.
func mutate(r *rand.Rand, body string) string {
	b := []byte(body)
	for range 1 + r.IntN(3) {
		switch r.IntN(9) {
		case 0: // flip a byte
			if len(b) > 0 {
				b[r.IntN(len(b))] ^= byte(1 << r.IntN(8))
			}
		case 1: // delete a range
			if len(b) > 1 {
				i := r.IntN(len(b))
				j := min(len(b), i+1+r.IntN(8))
				b = append(b[:i:i], b[j:]...)
			}
		case 2: // replace a value after a colon with a fragment
			if idx := indexes(b, ':'); len(idx) > 0 {
				i := idx[r.IntN(len(idx))] + 1
				j := valueEnd(b, i)
				b = slices.Concat(b[:i], []byte(fragments[r.IntN(len(fragments))]), b[j:])
			}
		case 3: // add a member at the start of an object
			if idx := indexes(b, '{'); len(idx) > 0 {
				i := idx[r.IntN(len(idx))] + 1
				m := fmt.Sprintf(`%q:%s,`, names[r.IntN(len(names))], fragments[r.IntN(len(fragments))])
				b = slices.Concat(b[:i], []byte(m), b[i:])
			}
		case 4: // truncate
			if len(b) > 0 {
				b = b[:r.IntN(len(b))]
			}
		case 5: // insert a random byte
			i := r.IntN(len(b) + 1)
			b = slices.Concat(b[:i], []byte{byte(r.IntN(256))}, b[i:])
		case 6: // duplicate a member name
			if m := regexp.MustCompile(`"[a-z_]+":`).FindAllIndex(b, -1); len(m) > 0 {
				k := m[r.IntN(len(m))]
				b = slices.Concat(b[:k[0]], b[k[0]:k[1]], []byte(`0,`), b[k[0]:])
			}
		case 7: // wrap the body in an array or nest it deep
			if r.IntN(2) == 0 {
				b = slices.Concat([]byte("["), b, []byte("]"))
			} else {
				b = slices.Concat([]byte(`{"query":`+strings.Repeat("[", 600)), []byte(strings.Repeat("]", 600)+`}`))
			}
		case 8: // a huge number anywhere a digit is
			if i := bytes.IndexAny(b, "0123456789"); i >= 0 {
				b = slices.Concat(b[:i], []byte("1"+strings.Repeat("0", 400)), b[i:])
			}
		}
	}
	return string(b)
}

// indexes lists where c stands in b.
func indexes(b []byte, c byte) []int {
	var out []int
	for i, x := range b {
		if x == c {
			out = append(out, i)
		}
	}
	return out
}

// valueEnd is where the value beginning at i ends, roughly: the next comma
// or closing bracket at its own depth.
func valueEnd(b []byte, i int) int {
	depth, inStr := 0, false
	for j := i; j < len(b); j++ {
		c := b[j]
		switch {
		case inStr && c == '\\':
			j++
		case inStr:
			inStr = c != '"'
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth == 0 {
				return j
			}
			depth--
		case c == ',' && depth == 0:
			return j
		}
	}
	return len(b)
}

// tally counts answers by class and keeps the faults.
type tally struct {
	mu     sync.Mutex
	counts map[string]int
	faults []string
}

func (t *tally) add(class string, fault bool, what string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.counts[class]++
	if fault && len(t.faults) < 50 {
		t.faults = append(t.faults, class+": "+clip(what))
	}
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

func run(httpN, stdioN int, seed uint64, workers int, soakFor time.Duration) error {
	dir, err := os.MkdirTemp("", "mutate")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "storefinder")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/ucpgen/ucpgen/examples/storefinder").CombinedOutput(); err != nil {
		return fmt.Errorf("build: %v\n%s", err, out)
	}
	if soakFor > 0 {
		return soak(bin, soakFor, httpN, seed, workers)
	}
	t := &tally{counts: map[string]int{}}
	start := time.Now()
	if err := runHTTP(bin, httpN, seed, workers, t); err != nil {
		return err
	}
	if err := runStdio(bin, stdioN, seed, t); err != nil {
		return err
	}
	var keys []string
	for k := range t.counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	fmt.Printf("%d HTTP requests and %d stdio lines in %s\n", httpN, stdioN, time.Since(start).Round(time.Millisecond))
	for _, k := range keys {
		fmt.Printf("%7d  %s\n", t.counts[k], k)
	}
	if len(t.faults) > 0 {
		fmt.Println("faults:")
		for _, f := range t.faults {
			fmt.Println("  " + f)
		}
		return fmt.Errorf("%d answers were 5xx or -32603", len(t.faults))
	}
	fmt.Println("no 5xx, no -32603")
	return nil
}

// runHTTP starts the storefinder on a loopback port with no rate limits
// and sends n mutated requests, half MCP and half REST, over both versions.
func runHTTP(bin string, n int, seed uint64, workers int, t *tally) error {
	cmd, base, err := startHTTP(bin)
	if err != nil {
		return err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	client := &http.Client{Timeout: 60 * time.Second}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(seed, uint64(w)))
			for i := range jobs {
				mixedCall(r, base, i).send(client, t)
			}
		}()
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return nil
}

// waitListening reads the storefinder's log until it serves and returns
// its base URL; the rest of the log is drained.
func waitListening(stderr io.Reader) (string, error) {
	sc := bufio.NewScanner(stderr)
	re := regexp.MustCompile(`msg="storefinder listening" addr=(\S+)`)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			go io.Copy(io.Discard, stderr)
			return "http://" + m[1], nil
		}
	}
	return "", fmt.Errorf("the storefinder stopped before it listened")
}

// callLine is a tools/call of tool; the location is mutated, or the whole
// line is.
func callLine(r *rand.Rand, id int, tool, body string) string {
	loc := body
	if r.IntN(4) > 0 {
		loc = mutate(r, body)
	}
	line := toolCallLine(id, tool, loc)
	if r.IntN(5) == 0 {
		line = mutate(r, line)
	}
	return line
}

// toolCallLine is the JSON-RPC tools/call of tool with location as sent.
func toolCallLine(id int, tool, location string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{"meta":{"ucp-agent":{"profile":"https://platform.example/p.json"}},"location":%s}}}`, id, tool, location)
}

// httpCall is one HTTP request of a run, kept whole so that a soak can
// send it again and expect the same answer.
type httpCall struct {
	label       string // transport and version, "mcp 2026-08-25"
	rest        bool
	method, url string
	header      http.Header
	body        string
}

// answer is what the storefinder sent back for an httpCall.
type answer struct {
	status int
	ctype  string
	body   []byte
}

func (c httpCall) do(client *http.Client) (answer, error) {
	req, err := http.NewRequest(c.method, c.url, strings.NewReader(c.body))
	if err != nil {
		return answer{}, err
	}
	req.Header = c.header.Clone()
	resp, err := client.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header.Get("Content-Type"), raw}, err
}

// classify names the answer's class and says whether it is a fault: a 5xx,
// a -32603, a body that is not the transport's JSON.
func (c httpCall) classify(a answer) (string, bool) {
	class := fmt.Sprintf("%s %d", c.label, a.status)
	if c.rest {
		if a.status == 200 {
			return class, a.ctype != "application/json"
		}
		var ref struct {
			Code string `json:"code"`
		}
		if json.Unmarshal(a.body, &ref) != nil || ref.Code == "" {
			return class + " not a refusal", true
		}
		return class + " " + ref.Code, a.status >= 500 || a.ctype != "application/json"
	}
	var m struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code int64 `json:"code"`
		} `json:"error"`
	}
	switch {
	case json.Unmarshal(a.body, &m) != nil:
		class += " not JSON-RPC"
	case m.Error != nil:
		class += fmt.Sprintf(" %d", m.Error.Code)
	case m.Result != nil:
		class += " result"
	}
	return class, a.status >= 500 || m.Error != nil && m.Error.Code == -32603 || !strings.HasPrefix(a.ctype, "application/json")
}

// send makes the call and tallies its answer.
func (c httpCall) send(client *http.Client, t *tally) {
	a, err := c.do(client)
	if err != nil {
		t.add(c.label+" transport error", true, err.Error())
		return
	}
	class, fault := c.classify(a)
	t.add(class, fault, string(a.body))
}

// mcpCall is a tools/call of tool over HTTP, mutated in its line or its
// headers.
func mcpCall(r *rand.Rand, url, tool, body, label string) httpCall {
	c := mcpRequest(label, url, callLine(r, r.IntN(1000), tool, body))
	h := c.header
	switch r.IntN(12) {
	case 0:
		h.Set("Content-Encoding", "gzip")
	case 1:
		h.Set("Content-Type", "application/json; charset=iso-8859-1")
	case 2:
		h.Add("Content-Type", "text/plain")
	}
	return c
}

// mcpRequest is an MCP POST of line with the headers a client sends.
func mcpRequest(label, url, line string) httpCall {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	return httpCall{label: label, method: http.MethodPost, url: url, header: h, body: line}
}

// restCall is a REST call of tool's operation, mutated in its body, path,
// method or headers.
func restCall(r *rand.Rand, base, tool, body, label string) httpCall {
	op := restOp(tool)
	if r.IntN(10) == 0 {
		op = []string{"/locations/search/", "/Locations/search", "//locations/search", "/locations/./search", "/locations%2Fsearch", "/x"}[r.IntN(6)]
	}
	if r.IntN(4) > 0 {
		body = mutate(r, body)
	}
	c := restRequest(label, base+op, body, r.Uint64()&0xffffffffffff)
	h := c.header
	sum := sha256.Sum256([]byte(body))
	digest := "sha-256=:" + base64.StdEncoding.EncodeToString(sum[:]) + ":"
	switch r.IntN(16) {
	case 0:
		h.Set("UCP-Agent", headerSafe(mutate(r, `profile="https://platform.example/p.json"`)))
	case 1:
		h.Add("UCP-Agent", `profile="https://other.example/p.json"`)
	case 2:
		h.Set("Request-Id", "00000000-0000-0000-0000-000000000000")
	case 3:
		h.Add("Request-Id", "8ef9b0c2-78d1-4e4b-91c2-000000000001")
	case 4:
		h.Set("Content-Digest", digest)
	case 5:
		h.Set("Content-Digest", "sha-256=:AAAA:, "+digest)
	case 6:
		h.Set("Content-Encoding", "gzip")
	case 7:
		h.Set("Content-Type", "application/json; charset=utf-16")
	case 8:
		h.Set("Idempotency-Key", headerSafe(mutate(r, "k")))
	case 9:
		c.method = []string{"GET", "PUT", "DELETE", "PATCH"}[r.IntN(4)]
	}
	return c
}

// restOp is the path of tool's REST operation under the endpoint.
func restOp(tool string) string {
	if tool == "lookup_locations" {
		return "/locations/lookup"
	}
	return "/locations/search"
}

// restRequest is a REST POST of body with the headers a Platform sends,
// its Request-Id ending in the 48 bits of id.
func restRequest(label, url, body string, id uint64) httpCall {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("UCP-Agent", `profile="https://platform.example/p.json"`)
	h.Set("Request-Id", fmt.Sprintf("8ef9b0c2-78d1-4e4b-91c2-%012x", id))
	return httpCall{label: label, rest: true, method: http.MethodPost, url: url, header: h, body: body}
}

// mixedCall is the i-th call of a run: MCP and REST in turn, at both
// versions, from a random seed.
func mixedCall(r *rand.Rand, base string, i int) httpCall {
	v := versions[i%2]
	s := seeds[r.IntN(len(seeds))]
	if i%4 < 2 {
		return mcpCall(r, base+v.mcp, s.tool, s.body, "mcp "+v.version)
	}
	return restCall(r, base+v.rest, s.tool, s.body, "rest "+v.version)
}

// headerSafe replaces the bytes Go's client refuses to send in a header
// value (controls but tab, DEL), so that every mutated request is sent.
func headerSafe(v string) string {
	return strings.Map(func(c rune) rune {
		if c < 0x20 && c != '\t' || c == 0x7f {
			return 'x'
		}
		return c
	}, v)
}

// runStdio starts the storefinder with --stdio and sends n mutated lines,
// reading one answer for each line that is not a notification.
func runStdio(bin string, n int, seed uint64, t *tally) error {
	cmd := exec.Command(bin, "--stdio", "--access-log=false", "--rate", "0", "--items-rate", "0", "--other-rate", "0")
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() { in.Close(); cmd.Process.Kill(); cmd.Wait() }()
	replies := bufio.NewScanner(out)
	replies.Buffer(nil, 16<<20)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mutate","version":"1"}}}`)
	if !replies.Scan() {
		return fmt.Errorf("stdio: no answer to initialize")
	}
	fmt.Fprintln(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	r := rand.New(rand.NewPCG(seed, 99))
	for i := range n {
		s := seeds[r.IntN(len(seeds))]
		line := strings.ReplaceAll(callLine(r, i+1, s.tool, s.body), "\n", " ")
		fmt.Fprintln(in, line)
		// A mutated line may have become a notification (no id): ping
		// after it, so there is always one answer to wait for.
		fmt.Fprintln(in, `{"jsonrpc":"2.0","id":"ping","method":"ping"}`)
		for {
			if !replies.Scan() {
				return fmt.Errorf("stdio: the session ended after %d lines (last %.200q)", i, line)
			}
			var m struct {
				ID     json.RawMessage `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  *struct {
					Code int64 `json:"code"`
				} `json:"error"`
			}
			if err := json.Unmarshal(replies.Bytes(), &m); err != nil {
				t.add("stdio not JSON-RPC", true, replies.Text())
				continue
			}
			if string(m.ID) == `"ping"` {
				break
			}
			class := "stdio result"
			if m.Error != nil {
				class = fmt.Sprintf("stdio %d", m.Error.Code)
			}
			t.add(class, m.Error != nil && m.Error.Code == -32603, replies.Text())
		}
	}
	return nil
}
