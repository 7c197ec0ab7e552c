package mainbump

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ucpgen/ucpgen/internal/openapicheck"
	"github.com/ucpgen/ucpgen/internal/testshared"
)

// mainVersion is the version the main tree is generated as: the newest
// version stamp found for it (see ../shared's SOURCES.txt).
const mainVersion = "2026-10-07"

// Idempotency keys, one per transport, so an echoed key shows which
// request carried it.
const (
	goSDKKey = "0f8e3b1c-5a7d-4e2b-9c6f-000000000001"
	restKey  = "0f8e3b1c-5a7d-4e2b-9c6f-000000000002"
	tsKey    = "0f8e3b1c-5a7d-4e2b-9c6f-000000000003"
)

// platformProfile is the Platform profile every request names.
const platformProfile = "https://platform.example/profile.json"

// TestMainRegenerationKeepsExamplesAndServesAskWhereImplemented takes UCP
// main, which adds the Ask capability to the common service, through a
// copy of this module as a Business would: generated/location regenerated
// from it at 2026-10-07 (and generated/location20260821, served from it, by
// its own //go:generate line), then built and run. The storefinder and
// examples/minimal build without a changed line and serve Location at the
// new version and nothing of Ask, which they do not implement; a Business
// that composes NewService with its own Ask hooks serves Ask beside
// Location through the Go SDK, the TypeScript SDK and REST, held to main's
// OpenAPI document and schemas. One copy and one build serve every subtest.
// The copy is where ucpgen regenerates; the go commands then run in the
// checkout with the copy's changed files laid over it (-overlay), so the
// packages the bump did not touch are the very ones the suite compiled
// (a build in the copy's folder would compile the whole module again).
func TestMainRegenerationKeepsExamplesAndServesAskWhereImplemented(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the regeneration-from-main test in -short mode (it builds the examples in a copy of the module)")
	}
	src := testshared.Path(t, "ucp-upstream", "main-2026-10-07", "source")
	goBin, err := exec.LookPath("go")
	if err != nil {
		testshared.Missing(t, "the go command is not on PATH")
	}
	if _, err := exec.LookPath("git"); err != nil {
		testshared.Missing(t, "git is not on PATH; it lists the files of the module")
	}
	root := testshared.RepoRoot(t)
	start := time.Now()
	copyDir := copyModule(t, root)
	regenerateFromMain(t, goBin, root, copyDir, src)
	if err := os.MkdirAll(filepath.Join(copyDir, "internal", "askbiz"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(copyDir, "internal", "askbiz", "main.go"), []byte(askBusinessSource), 0o644); err != nil {
		t.Fatal(err)
	}
	overlay := overlayOf(t, root, copyDir)
	t.Logf("copy and regenerate: %v", time.Since(start).Round(time.Millisecond))

	step := time.Now()
	testshared.GoOutput(t, goBin, root, nil, "vet", "-overlay", overlay, "./generated/location")
	t.Logf("go vet ./generated/location: %v", time.Since(step).Round(time.Millisecond))
	bin := t.TempDir()
	step = time.Now()
	testshared.GoOutput(t, goBin, root, nil, "build", "-overlay", overlay, "-o", bin+string(filepath.Separator), "./examples/storefinder", "./examples/minimal", "./internal/askbiz")
	t.Logf("go build of storefinder, minimal and askbiz: %v", time.Since(step).Round(time.Millisecond))
	exe := func(name string) string {
		if runtime.GOOS == "windows" {
			name += ".exe"
		}
		return filepath.Join(bin, name)
	}
	for _, name := range []string{"storefinder", "minimal", "askbiz"} {
		if _, err := os.Stat(exe(name)); err != nil {
			t.Fatalf("the build wrote no %s binary: %v", name, err)
		}
	}
	storefinder := exe("storefinder")

	t.Run("storefinder serves Location at the new version and no Ask", func(t *testing.T) {
		base := startStorefinder(t, storefinder)
		t.Run("profile", func(t *testing.T) {
			p := fetchProfile(t, base+"/.well-known/ucp")
			if p.UCP.Version != mainVersion {
				t.Errorf("profile version %q, want %s", p.UCP.Version, mainVersion)
			}
			if got, want := p.capabilityNames(), []string{"dev.ucp.common.location.lookup", "dev.ucp.common.location.search"}; !slices.Equal(got, want) {
				t.Errorf("profile capabilities %v, want exactly %v (no dev.ucp.common.ask)", got, want)
			}
			for name, c := range p.UCP.Capabilities {
				if len(c) != 1 || c[0].Version != mainVersion {
					t.Errorf("capability %s: %+v, want one entry at %s", name, c, mainVersion)
				}
			}
			for _, s := range p.UCP.Services["dev.ucp.common"] {
				if s.Version != mainVersion || !strings.HasPrefix(s.Schema, "https://ucp.dev/"+mainVersion+"/") {
					t.Errorf("service %+v, want version %s and its schema", s, mainVersion)
				}
			}
		})
		cs := connectMCP(t, base+"/ucp/mcp")
		t.Run("tools/list has the Location tools only", func(t *testing.T) {
			if got, want := toolNames(t, cs), []string{"lookup_locations", "search_locations"}; !slices.Equal(got, want) {
				t.Errorf("tools %v, want %v", got, want)
			}
		})
		t.Run("ask_business is an unknown tool", func(t *testing.T) {
			_, err := callTool(cs, "ask_business", askArgs(goSDKKey))
			var je *jsonrpc.Error
			if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || !strings.Contains(je.Message, `unknown tool "ask_business"`) {
				t.Errorf("ask_business: err %v, want the SDK's -32602 unknown tool", err)
			}
		})
		t.Run("POST /ucp/ask is a JSON 404", func(t *testing.T) {
			r := restPostAs(t, base+"/ucp/ask", `{"query":"Do you gift-wrap?"}`, "Idempotency-Key", restKey)
			var ref restRefusal
			if r.status != http.StatusNotFound || r.header.Get("Content-Type") != "application/json" || json.Unmarshal(r.body, &ref) != nil || ref.Code != "not_found" {
				t.Errorf("status %d %s: %s, want a JSON 404 not_found", r.status, r.header.Get("Content-Type"), r.body)
			}
		})
		t.Run("a search whose meta carries an idempotency-key is served", func(t *testing.T) {
			args := fmt.Sprintf(`{"meta":{"ucp-agent":{"profile":%q},"idempotency-key":%q},"location":{"query":"coffee","pagination":{"limit":2}}}`, platformProfile, goSDKKey)
			page := structured(t, cs, "search_locations", args)
			var got struct {
				UCP struct {
					Version string `json:"version"`
				} `json:"ucp"`
				Locations []json.RawMessage `json:"locations"`
			}
			if err := json.Unmarshal(page, &got); err != nil || got.UCP.Version != mainVersion || len(got.Locations) == 0 {
				t.Errorf("search answer %s, want locations at ucp.version %s", page, mainVersion)
			}
		})
	})

	t.Run("storefinder still serves 2026-08-21 beside it", func(t *testing.T) {
		base := startStorefinder(t, storefinder, "--supported-versions", "2026-08-21")
		p := fetchProfile(t, base+"/.well-known/ucp")
		if p.UCP.Version != mainVersion {
			t.Errorf("current profile version %q, want %s", p.UCP.Version, mainVersion)
		}
		if leaf := fetchProfile(t, base+"/.well-known/ucp/2026-08-21"); leaf.UCP.Version != "2026-08-21" || slices.Contains(leaf.capabilityNames(), "dev.ucp.common.ask") {
			t.Errorf("2026-08-21 profile: version %q capabilities %v", leaf.UCP.Version, leaf.capabilityNames())
		}
		cs := connectMCP(t, base+"/ucp/2026-08-21/mcp")
		if got, want := toolNames(t, cs), []string{"lookup_locations", "search_locations"}; !slices.Equal(got, want) {
			t.Errorf("2026-08-21 tools %v, want %v", got, want)
		}
		args := fmt.Sprintf(`{"meta":{"ucp-agent":{"profile":%q}},"location":{"query":"coffee","pagination":{"limit":2}}}`, platformProfile)
		var got struct {
			UCP struct {
				Version string `json:"version"`
			} `json:"ucp"`
			Locations []json.RawMessage `json:"locations"`
		}
		if page := structured(t, cs, "search_locations", args); json.Unmarshal(page, &got) != nil || got.UCP.Version != "2026-08-21" || len(got.Locations) == 0 {
			t.Errorf("2026-08-21 search answer %s, want locations at ucp.version 2026-08-21", page)
		}
		r := restPostAs(t, base+"/ucp/2026-08-21/locations/search", `{"query":"coffee","pagination":{"limit":2}}`)
		got.UCP.Version = ""
		if r.status != http.StatusOK || json.Unmarshal(r.body, &got) != nil || got.UCP.Version != "2026-08-21" {
			t.Errorf("REST 2026-08-21 search: status %d: %s", r.status, r.body)
		}
	})

	t.Run("a Business with its own Ask hooks serves Ask beside Location", func(t *testing.T) {
		base := startBinary(t, exe("askbiz"), nil, `askbiz serving (\S+)`)
		bodies := mainSchemas(t, src)
		doc := mainOpenAPI(t, src)
		t.Run("profile lists Ask beside Location on both transports", func(t *testing.T) {
			p := fetchProfile(t, base+"/.well-known/ucp")
			if got, want := p.capabilityNames(), []string{"dev.ucp.common.ask", "dev.ucp.common.location.lookup", "dev.ucp.common.location.search"}; !slices.Equal(got, want) {
				t.Errorf("profile capabilities %v, want %v", got, want)
			}
			if ask := p.UCP.Capabilities["dev.ucp.common.ask"]; len(ask) != 1 || ask[0].Version != mainVersion || ask[0].Schema != "https://ucp.dev/"+mainVersion+"/schemas/common/ask.json" {
				t.Errorf("Ask entry %+v", ask)
			}
			byTransport := map[string]profileService{}
			for _, s := range p.UCP.Services["dev.ucp.common"] {
				byTransport[s.Transport] = s
			}
			if s := byTransport["mcp"]; s.Endpoint != base+"/ucp/mcp" || s.Version != mainVersion {
				t.Errorf("MCP service %+v", s)
			}
			if s := byTransport["rest"]; s.Endpoint != base+"/ucp" || s.Version != mainVersion || s.Schema != "https://ucp.dev/"+mainVersion+"/services/common/rest.openapi.json" {
				t.Errorf("REST service %+v", s)
			}
		})
		cs := connectMCP(t, base+"/ucp/mcp")
		t.Run("tools/list has ask_business", func(t *testing.T) {
			if got, want := toolNames(t, cs), []string{"ask_business", "lookup_locations", "search_locations"}; !slices.Equal(got, want) {
				t.Errorf("tools %v, want %v", got, want)
			}
		})
		t.Run("ask_business over the Go SDK sees the idempotency key", func(t *testing.T) {
			answer := structured(t, cs, "ask_business", askArgs(goSDKKey))
			bodies.check(t, "ask_response", answer)
			checkAnswer(t, answer, goSDKKey)
		})
		t.Run("POST /ucp/ask carries Idempotency-Key to the hook", func(t *testing.T) {
			body := `{"query":"Do you gift-wrap?","ids":["s1"]}`
			bodies.check(t, "ask_request", []byte(body))
			r := restPostAs(t, base+"/ucp/ask", body, "Idempotency-Key", restKey)
			if r.status != http.StatusOK {
				t.Fatalf("status %d: %s", r.status, r.body)
			}
			doc.held(t, r, true)
			bodies.check(t, "ask_response", r.body)
			checkAnswer(t, r.body, restKey)
		})
		t.Run("an Idempotency-Key that is not a UUID is refused naming it", func(t *testing.T) {
			r := restPostAs(t, base+"/ucp/ask", `{"query":"Do you gift-wrap?"}`, "Idempotency-Key", "retry-7")
			var ref restRefusal
			if err := json.Unmarshal(r.body, &ref); err != nil || r.status != http.StatusBadRequest || ref.Header != "Idempotency-Key" || !strings.Contains(ref.Content, "Idempotency-Key") || len(ref.Violations) != 0 {
				t.Errorf("status %d: %s, want 400 naming the Idempotency-Key header and no body violation", r.status, r.body)
			}
			doc.held(t, r, false)
		})
		t.Run("Location search answers over MCP and REST", func(t *testing.T) {
			req := `{"query":"books","pagination":{"limit":2}}`
			bodies.check(t, "search_request", []byte(req))
			viaMCP := structured(t, cs, "search_locations", fmt.Sprintf(`{"meta":{"ucp-agent":{"profile":%q}},"location":%s}`, platformProfile, req))
			bodies.check(t, "search_response", viaMCP)
			r := restPostAs(t, base+"/ucp/locations/search", req)
			if r.status != http.StatusOK {
				t.Fatalf("REST status %d: %s", r.status, r.body)
			}
			doc.held(t, r, true)
			bodies.check(t, "search_response", r.body)
			if !jsonEqual(viaMCP, r.body) {
				t.Errorf("REST body differs from MCP structuredContent\nREST %s\nMCP  %s", r.body, viaMCP)
			}
		})
		t.Run("the TypeScript SDK calls ask_business and search_locations", func(t *testing.T) {
			out := testshared.RunTypeScript(t, "ask.mjs", base+"/ucp/mcp", tsKey)
			var got struct {
				Tools           []string
				HasOutputSchema []string
				Ask             json.RawMessage
				AskIsError      bool
				AskText         string
				Search          json.RawMessage
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("client output: %v\n%s", err, out)
			}
			want := []string{"ask_business", "lookup_locations", "search_locations"}
			if !slices.Equal(got.Tools, want) || !slices.Equal(got.HasOutputSchema, want) {
				t.Errorf("tools %v with output schemas %v, want %v for both", got.Tools, got.HasOutputSchema, want)
			}
			if got.AskIsError {
				t.Errorf("ask_business isError: %s", got.Ask)
			}
			bodies.check(t, "ask_response", got.Ask)
			checkAnswer(t, got.Ask, tsKey)
			if !jsonEqual(got.Ask, []byte(got.AskText)) {
				t.Errorf("text content %q is not the structured answer %s", got.AskText, got.Ask)
			}
			bodies.check(t, "search_response", got.Search)
		})
	})
}

// copyModule copies the module's files, as git lists them and as they are
// in the working tree, into a folder named after the checkout, which is
// removed when the test ends; an earlier run's leftover is removed first.
func copyModule(t *testing.T, root string) string {
	t.Helper()
	sum := sha256.Sum256([]byte(root))
	base := filepath.Join(os.TempDir(), "ucpgen-mainbump-"+hex.EncodeToString(sum[:6]))
	if err := os.RemoveAll(base); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	dst := filepath.Join(base, "ucpgen")
	for _, rel := range testshared.ModuleFiles(t, root) {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if errors.Is(err, fs.ErrNotExist) {
			continue // listed by git but deleted in the working tree
		}
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dst, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// regenerateFromMain points generated/location's //go:generate line at
// the main tree, as a Business bumping UCP edits it, and runs every
// ucpgen line of the copy with this checkout's ucpgen, as `go generate
// ./...` would run them: generated/location from main,
// generated/location20260821 with its own flags.
func regenerateFromMain(t *testing.T, goBin, root, copyDir, src string) {
	t.Helper()
	gen := filepath.Join(copyDir, "generated", "location", "generate.go")
	b := readFile(t, gen)
	const line = "//go:generate go run github.com/ucpgen/ucpgen/cmd/ucpgen generate --out . --package location\n"
	if !bytes.Contains(b, []byte(line)) {
		t.Fatalf("%s lacks the line %q this test rewrites", gen, line)
	}
	bumped := "//go:generate go run github.com/ucpgen/ucpgen/cmd/ucpgen generate --schemas " + strconv.Quote(src) + " --ucp-version " + mainVersion + " --out . --package location\n"
	if err := os.WriteFile(gen, bytes.Replace(b, []byte(line), []byte(bumped), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	ucpgen := filepath.Join(t.TempDir(), "ucpgen")
	testshared.GoOutput(t, goBin, root, nil, "build", "-o", ucpgen, "./cmd/ucpgen")
	cmd := exec.Command(ucpgen, "generate", copyDir+string(filepath.Separator)+"...")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("ucpgen generate %s/...: %v\n%s%s", copyDir, err, stdout.String(), stderr.String())
	}
	if strings.Contains(stderr.String(), "warning") {
		t.Errorf("generating from main warns:\n%s", stderr.String())
	}
	for _, pkg := range []string{"location", "location20260821"} {
		if !strings.Contains(stdout.String(), filepath.Join(copyDir, "generated", pkg)+": ") {
			t.Errorf("generate did not report generated/%s:\n%s", pkg, stdout.String())
		}
	}
	mcpGo := readFile(t, filepath.Join(copyDir, "generated", "location", "mcp.go"))
	for _, want := range []string{`const ProtocolVersion = "` + mainVersion + `"`, "type AskHooks interface"} {
		if !bytes.Contains(mcpGo, []byte(want)) {
			t.Fatalf("the regenerated mcp.go lacks %q", want)
		}
	}
}

// overlayOf writes a go command overlay that shows the checkout at root
// as the copy at dir now is: every file of the copy that is new or whose
// content differs replaces the checkout's, and every module file the copy
// no longer has is hidden. It returns the overlay file's path.
func overlayOf(t *testing.T, root, dir string) string {
	t.Helper()
	replace := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		mine, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		theirs, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err != nil || !bytes.Equal(mine, theirs) {
			replace[filepath.Join(root, rel)] = p
		}
		return nil
	})
	if err != nil {
		t.Fatalf("compare the copy with the checkout: %v", err)
	}
	for _, rel := range testshared.ModuleFiles(t, root) {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel))); errors.Is(err, fs.ErrNotExist) {
			replace[filepath.Join(root, filepath.FromSlash(rel))] = ""
		}
	}
	b, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "overlay.json")
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("the bump changed %d files of the module", len(replace))
	return out
}

// syncBuffer collects a child process's output while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startBinary starts a built server and waits for the output line
// matching ready, whose first group it returns; the server is killed when
// the test ends.
func startBinary(t *testing.T, bin string, args []string, ready string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	rx := regexp.MustCompile(ready)
	deadline := time.After(60 * time.Second)
	for {
		if m := rx.FindStringSubmatch(out.String()); m != nil {
			return m[1]
		}
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("%s exited before it was ready: %v\n%s", filepath.Base(bin), err, out.String())
		case <-deadline:
			t.Fatalf("%s printed no line matching %s within 60s:\n%s", filepath.Base(bin), ready, out.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// startStorefinder starts the storefinder on a free loopback port over its
// embedded dataset and returns its base URL once it serves.
func startStorefinder(t *testing.T, bin string, args ...string) string {
	t.Helper()
	endpoint := startBinary(t, bin, append([]string{"--addr", "127.0.0.1:0"}, args...), `msg="storefinder serving MCP" endpoint=(\S+)`)
	return strings.TrimSuffix(endpoint, "/ucp/mcp")
}

// businessProfile is the part of /.well-known/ucp the test reads.
type businessProfile struct {
	UCP struct {
		Version      string                      `json:"version"`
		Services     map[string][]profileService `json:"services"`
		Capabilities map[string][]struct {
			Version string `json:"version"`
			Schema  string `json:"schema"`
		} `json:"capabilities"`
	} `json:"ucp"`
}

type profileService struct {
	Version   string `json:"version"`
	Transport string `json:"transport"`
	Endpoint  string `json:"endpoint"`
	Schema    string `json:"schema"`
}

// capabilityNames lists the advertised capabilities, sorted.
func (p businessProfile) capabilityNames() []string {
	var out []string
	for name := range p.UCP.Capabilities {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

func fetchProfile(t *testing.T, url string) businessProfile {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var p businessProfile
	if resp.StatusCode != http.StatusOK || json.Unmarshal(raw, &p) != nil {
		t.Fatalf("GET %s: status %d: %s", url, resp.StatusCode, raw)
	}
	return p
}

// connectMCP connects the Go SDK's client over streamable HTTP.
func connectMCP(t *testing.T, endpoint string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "ucpgen-bump-test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		t.Fatalf("connect %s: %v", endpoint, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// toolNames lists the session's tools, sorted.
func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tool := range res.Tools {
		out = append(out, tool.Name)
	}
	slices.Sort(out)
	return out
}

func callTool(cs *mcp.ClientSession, name, args string) (*mcp.CallToolResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
}

// structured calls a tool that must answer and returns its
// structuredContent.
func structured(t *testing.T, cs *mcp.ClientSession, name, args string) []byte {
	t.Helper()
	res, err := callTool(cs, name, args)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("%s answered isError: %s", name, b)
	}
	return b
}

// askArgs are ask_business arguments whose meta carries key.
func askArgs(key string) string {
	return fmt.Sprintf(`{"meta":{"ucp-agent":{"profile":%q},"idempotency-key":%q},"ask":{"query":"Do you gift-wrap?","ids":["s1"]}}`, platformProfile, key)
}

// checkAnswer requires an Ask answer at the new version whose text names
// the idempotency key the hook received.
func checkAnswer(t *testing.T, answer []byte, key string) {
	t.Helper()
	var got struct {
		UCP struct {
			Version      string                     `json:"version"`
			Capabilities map[string]json.RawMessage `json:"capabilities"`
		} `json:"ucp"`
		Answer struct {
			Plain string `json:"plain"`
		} `json:"answer"`
	}
	if err := json.Unmarshal(answer, &got); err != nil {
		t.Fatalf("answer %s: %v", answer, err)
	}
	if got.UCP.Version != mainVersion || got.UCP.Capabilities["dev.ucp.common.ask"] == nil {
		t.Errorf("answer ucp %s, want version %s with dev.ucp.common.ask", answer, mainVersion)
	}
	if want := "idempotency-key " + key; !strings.Contains(got.Answer.Plain, want) {
		t.Errorf("answer %q does not name %q: the key did not reach the hook", got.Answer.Plain, want)
	}
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

// restReply is one REST exchange.
type restReply struct {
	req    *http.Request
	body   []byte
	status int
	header http.Header
	// sent is the request body.
	sent string
}

// restPostAs posts body to url with the binding's headers (UCP-Agent,
// Request-Id, Content-Type) and the extra header pairs.
func restPostAs(t *testing.T, url, body string, header ...string) restReply {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("UCP-Agent", `profile="`+platformProfile+`"`)
	req.Header.Set("Request-Id", nextRESTRequestID())
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("post %s: %v", url, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return restReply{req: req, body: raw, status: resp.StatusCode, header: resp.Header, sent: body}
}

var restRequestIDs struct {
	sync.Mutex
	n int
}

// nextRESTRequestID is a fresh UUID for each request's Request-Id.
func nextRESTRequestID() string {
	restRequestIDs.Lock()
	defer restRequestIDs.Unlock()
	restRequestIDs.n++
	return fmt.Sprintf("8ef9b0c2-78d1-4e4b-91c2-%012x", restRequestIDs.n)
}

// restRefusal is the body of a REST refusal.
type restRefusal struct {
	Code       string            `json:"code"`
	Content    string            `json:"content"`
	Header     string            `json:"header"`
	Violations []json.RawMessage `json:"violations"`
}

// bodySchemas are main's body schemas compiled with santhosh-tekuri,
// which shares no code with the generated validators.
type bodySchemas map[string]*jsonschema.Schema

// mainSchemas compiles the request and response schemas of Ask and
// Location search from the main source tree.
func mainSchemas(t *testing.T, src string) bodySchemas {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.UseLoader(noRemoteSchemas{})
	c.AssertFormat()
	err := fs.WalkDir(os.DirFS(src), "schemas", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".json" {
			return err
		}
		raw, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(p)))
		if err != nil {
			return err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		return c.AddResource("https://ucp.dev/"+p, doc)
	})
	if err != nil {
		t.Fatal(err)
	}
	out := bodySchemas{}
	for name, ref := range map[string]string{
		"ask_request":     "https://ucp.dev/schemas/common/ask.json#/$defs/ask_request",
		"ask_response":    "https://ucp.dev/schemas/common/ask.json#/$defs/ask_response",
		"search_request":  "https://ucp.dev/schemas/common/location_search.json#/$defs/search_request",
		"search_response": "https://ucp.dev/schemas/common/location_search.json#/$defs/search_response",
	} {
		s, err := c.Compile(ref)
		if err != nil {
			t.Fatalf("compile %s: %v", ref, err)
		}
		out[name] = s
	}
	return out
}

// check validates doc against the named schema.
func (b bodySchemas) check(t *testing.T, name string, doc []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, doc)
	}
	if err := b[name].Validate(v); err != nil {
		t.Errorf("%s fails main's schema: %v\n%s", name, err, doc)
	}
}

// noRemoteSchemas refuses a $ref outside the tree.
type noRemoteSchemas struct{}

func (noRemoteSchemas) Load(url string) (any, error) {
	return nil, errors.New("not in the main tree: " + url)
}

// openAPIDoc holds REST exchanges to main's OpenAPI document (through
// openapicheck): path and method, declared header parameters with their
// formats, request media type and response status. Bodies are held to the
// schemas by bodySchemas. It is nil under the race detector, where
// libopenapi v0.37.2 races inside BuildV3Model.
type openAPIDoc struct{ check *openapicheck.Checker }

// mainOpenAPI builds the checker from services/common/rest.openapi.json of
// a published-layout copy of the main tree.
func mainOpenAPI(t *testing.T, src string) *openAPIDoc {
	t.Helper()
	if !openapicheck.Usable {
		t.Log("REST exchanges are not held to the OpenAPI document under the race detector (libopenapi races in BuildV3Model)")
		return nil
	}
	c, err := openapicheck.Load(filepath.Join(testshared.PublishedTree(t, src, mainVersion), "services", "common", "rest.openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	return &openAPIDoc{check: c}
}

// held checks one exchange against the document. A request the server
// answered 200 must be one the document accepts, with a declared status;
// one it refused (wantValid false) must be refused by the document too.
func (d *openAPIDoc) held(t *testing.T, r restReply, wantValid bool) {
	t.Helper()
	if d == nil {
		return
	}
	_, op, ok := strings.Cut(r.req.URL.Path, "/ucp/")
	if !ok {
		t.Fatalf("%s is not below /ucp/", r.req.URL.Path)
	}
	req, err := http.NewRequest(r.req.Method, "https://business.example/"+op, strings.NewReader(r.sent))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = r.req.Header.Clone()
	refused := d.check.Request(req)
	switch {
	case wantValid && refused != nil:
		t.Errorf("main's OpenAPI document refuses a request the server accepted: %v", refused)
	case !wantValid && refused == nil:
		t.Errorf("main's OpenAPI document accepts a request the server refused (status %d)", r.status)
	}
	if wantValid {
		if err := d.check.Response(req, r.status); err != nil {
			t.Errorf("response against main's OpenAPI document: %v", err)
		}
	}
}

// askBusinessSource is the test Business: NewService over three stores in
// memory, composed with its own Ask hooks, serving MCP at /ucp/mcp, REST
// below /ucp and the profile at /.well-known/ucp with one budget. Its
// answer names the idempotency key the hook received.
const askBusinessSource = `// Command askbiz is a test Business written by cmd/ucpgen's regeneration
// test: the generated Location service composed with its own Ask hooks.
package main

import (
	"context"
	"fmt"
	"log"
	"net"
	"net/http"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/mcpserver"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
	"github.com/ucpgen/ucpgen/runtime/opt"
	"github.com/ucpgen/ucpgen/runtime/restserver"
)

var stores = []string{ // sorted by id, the order Candidates returns
	"{\"id\":\"s1\",\"name\":\"Harbour Books\",\"geo\":{\"latitude\":51.5080,\"longitude\":-0.0760}}",
	"{\"id\":\"s2\",\"name\":\"Canal Books\",\"geo\":{\"latitude\":51.5362,\"longitude\":-0.1033}}",
	"{\"id\":\"s3\",\"name\":\"Museum Books\",\"geo\":{\"latitude\":51.5194,\"longitude\":-0.1270}}",
}

// shop is the Location data source.
type shop struct{ locs []*location.Location }

func (shop) Capabilities() location.SourceCapabilities { return location.SourceCapabilities{} }

func (s shop) Candidates(_ context.Context, h location.Hints) (out []location.Candidate, _ error) {
	for _, l := range s.locs {
		if (h.After == nil || l.ID > h.After.ID) && len(out) < h.Limit {
			out = append(out, location.Candidate{Location: l})
		}
	}
	return out, nil
}

func (s shop) Resolve(_ context.Context, ids []string) (map[string][]location.Candidate, error) {
	out := map[string][]location.Candidate{}
	for _, l := range s.locs {
		if slices.Contains(ids, l.ID) {
			out[l.ID] = []location.Candidate{{Location: l}}
		}
	}
	return out, nil
}

func (shop) Serves(context.Context, location.ServesTarget, []location.Candidate) ([]bool, error) {
	return nil, nil
}

func (shop) Items(_ context.Context, _ []string, c []location.Candidate) ([]bool, error) {
	return make([]bool, len(c)), nil
}

// desk answers Ask, naming the idempotency key it was given.
type desk struct{}

var _ location.AskHooks = desk{}

func (desk) AskBusiness(_ context.Context, meta *location.Meta, ask *location.AskRequest) (*location.AskResponse, error) {
	key := "none"
	if k, ok := meta.IdempotencyKey.Get(); ok {
		key = k
	}
	return &location.AskResponse{
		UCP:          location.UCPAskResponseSchema{Version: location.ProtocolVersion},
		Answer:       location.AskResponseAnswer{Plain: fmt.Sprintf("You asked %q; idempotency-key %s", ask.Query, key)},
		Conversation: opt.Some(location.AskConversation{ID: "conv-1"}),
		Links:        opt.Some([]location.Link{{Type: "faq", URL: "https://business.example/faq", ID: opt.Some("s1")}}),
	}, nil
}

func main() {
	if err := run(); err != nil {
		log.Fatal(err)
	}
}

func run() error {
	var s shop
	for _, js := range stores {
		l, err := location.DecodeLocation([]byte(js))
		if err != nil {
			return err
		}
		s.locs = append(s.locs, l)
	}
	svc, err := location.NewService(s, location.ServiceOptions{})
	if err != nil {
		return err
	}
	hooks := location.Compose(svc, desk{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()
	budget := ucpcore.NewBudget(ucpcore.BudgetOptions{})
	opts := &ucpcore.Options{}
	server := mcp.NewServer(&mcp.Implementation{Name: "askbiz", Version: "1"}, nil)
	if err := location.Register(server, hooks, opts); err != nil {
		return err
	}
	rest, err := location.RESTHandler(hooks, opts, &restserver.Options{Base: "/ucp", Budget: budget})
	if err != nil {
		return err
	}
	profile, err := location.BusinessProfileWithREST(hooks, base+"/ucp/mcp", base+"/ucp")
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/ucp/mcp", mcpserver.Handler(server, &mcpserver.HTTPOptions{Budget: budget}))
	mux.Handle("/ucp/", rest)
	mux.Handle("/.well-known/ucp", ucpcore.ProfileHandler(profile))
	fmt.Println("askbiz serving", base)
	return http.Serve(ln, mux)
}
`

// readFile is os.ReadFile that ends the test on an error.
func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
