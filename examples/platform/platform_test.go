package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/generated/location20260821"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/opt"
	"github.com/ucpgen/ucpgen/runtime/ucpclient"
	"github.com/ucpgen/ucpgen/runtime/ucpclient/discovery"
)

// storefinder builds ./examples/storefinder and this program once, starts
// the store finder on a free port with args, and returns its origin and the
// program's binary.
func storefinder(t *testing.T, args ...string) (origin, platform string) {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping: builds and starts the example store finder")
	}
	dir := t.TempDir()
	for _, pkg := range []string{"storefinder", "platform"} {
		build := exec.Command("go", "build", "-o", filepath.Join(dir, pkg), "./examples/"+pkg)
		build.Dir = filepath.Join("..", "..")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", pkg, err, out)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	srv := exec.CommandContext(ctx, filepath.Join(dir, "storefinder"), append([]string{"--addr", addr}, args...)...)
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); srv.Wait() })
	origin = "http://" + addr
	deadline := time.Now().Add(60 * time.Second) // only guards against a server that never starts
	for {
		resp, err := http.Get(origin + "/.well-known/ucp")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return origin, filepath.Join(dir, "platform")
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the store finder did not start: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// rawWalk pages through the README's search with plain REST requests, as
// an independent count of what the client must find.
func rawWalk(t *testing.T, origin string) []string {
	t.Helper()
	var ids []string
	cursor := ""
	for pages := 0; ; pages++ {
		body := `{"query":"electronics","distance":{"center":{"latitude":40.7128,"longitude":-74.006},"max":5000},"pagination":{"limit":2`
		if cursor != "" {
			c, _ := json.Marshal(cursor)
			body += `,"cursor":` + string(c)
		}
		req, _ := http.NewRequest(http.MethodPost, origin+"/ucp/locations/search", strings.NewReader(body+"}}"))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("UCP-Agent", `profile="https://platform.example/profile.json"`)
		req.Header.Set("Request-Id", "8ef9b0c2-78d1-4e4b-91c2-3e2ef0d3ab9f")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var page struct {
			Locations  []struct{ ID string }
			Pagination struct {
				HasNextPage bool `json:"has_next_page"`
				Cursor      string
			}
		}
		err = json.NewDecoder(resp.Body).Decode(&page)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("raw search page %d: status %d, %v", pages, resp.StatusCode, err)
		}
		for _, l := range page.Locations {
			ids = append(ids, l.ID)
		}
		if !page.Pagination.HasNextPage {
			return ids
		}
		cursor = page.Pagination.Cursor
	}
}

// TestReadmePlatformWalksEveryPageOverBothTransports runs the README's
// Platform program against the real store finder, once per transport
// chosen by UCP_TRANSPORT: it finds every store a plain REST walk finds,
// over more than one page, and looks each of them up by id.
func TestReadmePlatformWalksEveryPageOverBothTransports(t *testing.T) {
	origin, platform := storefinder(t)
	want := rawWalk(t, origin)
	if len(want) <= 2 {
		t.Fatalf("the search has %d results, too few to need a second page", len(want))
	}
	for _, transport := range []string{"mcp", "rest"} {
		t.Run(transport, func(t *testing.T) {
			cmd := exec.Command(platform, origin)
			cmd.Env = append(os.Environ(), "UCP_TRANSPORT="+transport)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("platform: %v\n%s", err, stderr.Bytes())
			}
			var searched []string
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				// 2026-08-25 mcp looked up 10 of [id id ...]
				head, list, ok := strings.Cut(line, " of [")
				f := strings.Fields(head)
				if !ok || len(f) != 5 || f[0] != location.ProtocolVersion || f[1] != transport {
					t.Fatalf("unexpected line %q", line)
				}
				batch := strings.Fields(strings.TrimSuffix(list, "]"))
				if f[4] != strconv.Itoa(len(batch)) {
					t.Errorf("a lookup of %d ids found %s Locations: %q", len(batch), f[4], line)
				}
				searched = append(searched, batch...)
			}
			if !slices.Equal(searched, want) {
				t.Errorf("the client found %v, a plain walk %v", searched, want)
			}
		})
	}
}

// TestPreviousVersionClientUsesTheLeafProfile reaches the store finder
// serving 2026-08-21 beside the current version with the client generated
// from the 2026-08-21 tree: discovery follows supported_versions to the leaf
// profile, and both transports answer in that version's shapes. A client of
// a version on offer nowhere is refused before any call, naming the
// versions offered.
func TestPreviousVersionClientUsesTheLeafProfile(t *testing.T) {
	origin, _ := storefinder(t, "--supported-versions", location20260821.ProtocolVersion)
	ctx := context.Background()
	for _, transport := range []string{"mcp", "rest"} {
		t.Run(transport, func(t *testing.T) {
			conn, err := discovery.Discover(ctx, origin, location20260821.ClientService(), &discovery.Options{
				Options:   ucpclient.Options{Profile: "https://platform.example/profile.json"},
				Transport: transport,
				HTTP:      discovery.LocalDevelopment(),
			})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if got, want := conn.ProfileURL(), origin+"/.well-known/ucp/"+location20260821.ProtocolVersion; got != want {
				t.Errorf("profile = %s, want the leaf %s", got, want)
			}
			if !strings.Contains(conn.Endpoint(), "/ucp/"+location20260821.ProtocolVersion) {
				t.Errorf("endpoint %s is not the 2026-08-21 one", conn.Endpoint())
			}
			c, err := location20260821.NewClient(conn)
			if err != nil {
				t.Fatal(err)
			}
			var n int
			req := &location20260821.SearchRequest{Query: opt.Some("electronics"), Pagination: opt.Some(location20260821.PaginationRequest{Limit: opt.Some[int64](3)})}
			for page, err := range c.SearchLocationsPages(ctx, req) {
				if err != nil {
					t.Fatal(err)
				}
				if page.UCP.Version != location20260821.ProtocolVersion {
					t.Fatalf("answered at %s", page.UCP.Version)
				}
				if n++; n == 3 {
					break // three pages show the cursor is followed; the rest are the same
				}
			}
			if n != 3 {
				t.Errorf("walked %d pages, want 3", n)
			}
		})
	}
	svc := location.ClientService()
	svc.Version = "2026-01-11"
	_, err := discovery.Discover(ctx, origin, svc, &discovery.Options{Options: ucpclient.Options{Profile: "https://platform.example/profile.json"}, HTTP: discovery.LocalDevelopment()})
	var verr *discovery.VersionError
	if !errors.As(err, &verr) || !strings.Contains(err.Error(), "2026-08-25, 2026-08-21") {
		t.Errorf("a client of 2026-01-11: %v, want a VersionError naming 2026-08-25, 2026-08-21", err)
	}
}

// TestReadmeShowsThisProgram keeps the README's Platform program identical
// to main.go, which this package builds and runs, up to the generated
// package's import path (a user's Platform imports its own).
func TestReadmeShowsThisProgram(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	prog, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	const own, users = `ucploc "github.com/ucpgen/ucpgen/generated/location"`, `"example.com/shop/internal/ucploc"`
	want := strings.Replace(string(prog), own, users, 1)
	if want == string(prog) || !bytes.Contains(readme, []byte("```go\n"+want+"```\n")) {
		t.Errorf("README.md's \"Call a Business from a Platform\" program is not examples/platform/main.go with %s as its import", users)
	}
}

// TestTypeScriptSDKSeesTheSameAnswers walks the README's search and looks
// up what it found twice over MCP: with the generated client on the go-sdk
// and with the official TypeScript SDK (walk.mjs in
// testshared.TypeScriptDir, where .ci/run installs it). Every page and every lookup
// must be the same JSON from both, so what the Go client decodes and
// validates is what an independent implementation reads off the wire.
func TestTypeScriptSDKSeesTheSameAnswers(t *testing.T) {
	origin, _ := storefinder(t)
	ctx := context.Background()
	conn, err := discovery.Discover(ctx, origin, location.ClientService(), &discovery.Options{
		Options:   ucpclient.Options{Profile: "https://platform.example/profile.json"},
		Transport: "mcp",
		HTTP:      discovery.LocalDevelopment(),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c, err := location.NewClient(conn)
	if err != nil {
		t.Fatal(err)
	}
	const request = `{"query":"electronics","distance":{"center":{"latitude":40.7128,"longitude":-74.006},"max":5000},"pagination":{"limit":2}}`
	var req location.SearchRequest
	if err := json.Unmarshal([]byte(request), &req); err != nil {
		t.Fatal(err)
	}
	var goPages, goLookups []any
	var ids []string
	for page, err := range c.SearchLocationsPages(ctx, &req) {
		if err != nil {
			t.Fatal(err)
		}
		goPages = append(goPages, asJSON(t, page))
		for _, l := range page.Locations {
			ids = append(ids, l.ID)
		}
	}
	for batch := range slices.Chunk(ids, 10) {
		resp, err := c.LookupLocations(ctx, &location.LookupRequest{IDs: batch})
		if err != nil {
			t.Fatal(err)
		}
		goLookups = append(goLookups, asJSON(t, resp))
	}
	if len(goPages) < 2 {
		t.Fatalf("the search has %d pages, too few to show cursors followed", len(goPages))
	}

	out := testshared.RunTypeScript(t, "walk.mjs", conn.Endpoint(), request)
	var ts struct {
		Pages   []any
		Lookups []any
	}
	if err := json.Unmarshal(out, &ts); err != nil {
		t.Fatalf("walk.mjs output: %v\n%s", err, out)
	}
	compareAnswers(t, "search page", goPages, ts.Pages)
	compareAnswers(t, "lookup", goLookups, ts.Lookups)
	t.Logf("%d search pages and %d lookups (%d ids) are the same through both SDKs", len(goPages), len(goLookups), len(ids))
}

// asJSON is v encoded by its generated encoder and decoded generically,
// the form in which two clients' answers are compared.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// compareAnswers requires the same answers, in the same order, from the
// go-sdk client and the TypeScript SDK.
func compareAnswers(t *testing.T, what string, goSDK, tsSDK []any) {
	t.Helper()
	if len(goSDK) != len(tsSDK) {
		t.Errorf("%d %ss through the go-sdk client, %d through the TypeScript SDK", len(goSDK), what, len(tsSDK))
	}
	for i := range min(len(goSDK), len(tsSDK)) {
		if !reflect.DeepEqual(goSDK[i], tsSDK[i]) {
			g, _ := json.Marshal(goSDK[i])
			s, _ := json.Marshal(tsSDK[i])
			t.Errorf("%s %d differs:\ngo-sdk:     %s\nTypeScript: %s", what, i, g, s)
		}
	}
}
