package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// floorResult is the fixed, small search result of the floor server: a page
// of one Location, the least any UCP search answer carries.
const floorResult = `{"ucp":{"version":"2026-08-25","capabilities":{"dev.ucp.common.location.search":[{"version":"2026-08-25"}]}},"locations":[{"id":"loc_1","name":"Floor"}],"pagination":{"has_next_page":false}}`

// floorServer is the SDK's floor: a minimal go-sdk server whose one tool
// returns floorResult without looking at its arguments, served statelessly
// with JSON responses like the store finder.
func floorServer(result string) (string, func(), error) {
	s := mcp.NewServer(&mcp.Implementation{Name: "floor", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "search_locations", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{
			StructuredContent: json.RawMessage(result),
			Content:           []mcp.Content{&mcp.TextContent{Text: result}},
		}, nil
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(l)
	return "http://" + l.Addr().String(), func() { srv.Close() }, nil
}

// throughput runs clients concurrent sessions, each calling the realistic
// search back to back for d, and returns completed calls per second.
func throughput(endpoint string, clients int, d time.Duration) (float64, error) {
	ctx := context.Background()
	sessions := make([]*mcp.ClientSession, clients)
	for i := range sessions {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "loadbench", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
		if err != nil {
			return 0, fmt.Errorf("connect: %w", err)
		}
		defer cs.Close()
		sessions[i] = cs
	}
	var done atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	stop := time.Now().Add(d)
	start := time.Now()
	for i, cs := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := i; time.Now().Before(stop); n++ {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_locations", Arguments: json.RawMessage(realistic(n))})
				if err == nil && res.IsError {
					err = fmt.Errorf("tool error: %v", res.Content)
				}
				if err != nil {
					once.Do(func() { firstErr = err })
					return
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return 0, firstErr
	}
	return float64(done.Load()) / time.Since(start).Seconds(), nil
}

// realistic is the throughput request: stores open now within 5 km of a
// metro centre, with an amenity, first page of 10.
func realistic(i int) string {
	return `{"meta":` + meta + `,"location":{` + circle(i, 5_000) + `,"filters":{"hours":{"open_at":"2026-12-02T18:30:00Z"},"amenities":["dev.ucp.amenity.parking"]},"pagination":{"limit":10}}}`
}

// runThroughput measures the store finder on the default dataset and the
// floor server side by side, alternating per client count.
//
// Every client sends the same agent profile, so the server's per-caller
// rate limit would measure itself: it runs with --rate 0 unless extra
// (-server-flags) says otherwise.
func runThroughput(out io.Writer, bin string, counts []int, d time.Duration, extra []string) error {
	addr, err := freeAddr()
	if err != nil {
		return err
	}
	args := append([]string{"--addr", addr, "--rate", "0"}, extra...)
	stop, _, err := startServer(bin, args, "http://"+addr, 5*time.Minute)
	if err != nil {
		return err
	}
	defer stop()
	floor, closeFloor, err := floorServer(floorResult)
	if err != nil {
		return err
	}
	defer closeFloor()
	// The second floor answers with the store finder's own answer to the
	// first request, fixed: the SDK's cost for a payload of the same size.
	same, err := fixedAnswer("http://" + addr + "/ucp/mcp")
	if err != nil {
		return err
	}
	floorSame, closeSame, err := floorServer(same)
	if err != nil {
		return err
	}
	defer closeSame()
	fmt.Fprintf(out, "small floor result %d bytes; storefinder result %d bytes\n\n", len(floorResult), len(same))
	fmt.Fprintln(out, "| clients | storefinder req/s | go-sdk floor req/s | storefinder / floor | floor, same payload, req/s | storefinder / same-payload floor |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|")
	for _, c := range counts {
		sf, err := throughput("http://"+addr+"/ucp/mcp", c, d)
		if err != nil {
			return fmt.Errorf("storefinder, %d clients: %w", c, err)
		}
		fl, err := throughput(floor, c, d)
		if err != nil {
			return fmt.Errorf("floor, %d clients: %w", c, err)
		}
		fs, err := throughput(floorSame, c, d)
		if err != nil {
			return fmt.Errorf("same-payload floor, %d clients: %w", c, err)
		}
		fmt.Fprintf(out, "| %d | %.0f | %.0f | %.0f%% | %.0f | %.0f%% |\n", c, sf, fl, 100*sf/fl, fs, 100*sf/fs)
	}
	return nil
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
