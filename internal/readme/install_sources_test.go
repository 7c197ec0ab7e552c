package readme

import (
	"bufio"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/internal/equivcorpus"
	"github.com/ucpgen/ucpgen/internal/storegen"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/internal/version"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
	"github.com/ucpgen/ucpgen/runtime/sources/postgis/pgtest"
)

// sourcesStores is the size of the file the README's source programs
// serve: large enough that the indexes, not a scan, answer.
const sourcesStores = 50_000

// sourcesCorpus is the number of corpus requests sent to both programs;
// walks make it several times as many calls. It is small because this
// test shares the package's time with the rest of the install test.
const sourcesCorpus = 12

// sourcesWalkPages caps each walk through the programs' pages. The
// corpus's free-text walk at a small page size runs to about 600 pages at
// 50,000 stores, half a minute of PostGIS ranking that proves no more than
// 40 pages do: each next page still sends the memory program's cursor to
// the PostGIS one. The storefinder's equivalence tests walk every page.
const sourcesWalkPages = 40

// sourceProgramLines is the most lines a README source program may have:
// serving a file or a database is a short program, not a copied example.
const sourceProgramLines = 80

// sourcesMeta is the meta of every tool call the test makes.
const sourcesMeta = `{"ucp-agent":{"profile":"https://platform.example/p.json"}}`

// followSourcesSection builds the README's two source programs in the shop
// module, as a user copies them, and runs them: the memory program on a
// generated 50,000-store file, then the PostGIS program on a database it
// loads from the same file, and requires the same answers from both to a
// randomized corpus of searches (walked through their pages) and lookups.
func followSourcesSection(t *testing.T, goBin, shop string, env []string, readme string) {
	t.Helper()
	for _, name := range []string{"jsonstores", "pgstores"} {
		src := readmeProgram(t, readme, name)
		if n := strings.Count(src, "\n"); n > sourceProgramLines {
			t.Errorf("the README's %s program has %d lines, want at most %d", name, n, sourceProgramLines)
		}
		if strings.Contains(src, `"`+version.ModulePath+`/examples/`) {
			t.Errorf("the README's %s program imports a package under examples/; the ready-made sources are library packages", name)
		}
		dir := filepath.Join(shop, "cmd", name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	testshared.GoOutput(t, goBin, shop, env, "mod", "tidy")
	bin := filepath.Join(t.TempDir(), "bin")
	testshared.GoOutput(t, goBin, shop, env, "build", "-o", bin+string(filepath.Separator), "./cmd/jsonstores", "./cmd/pgstores")

	data := filepath.Join(t.TempDir(), "stores.json")
	f, err := os.Create(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := storegen.GenerateTo(f, storegen.DefaultSeed, sourcesStores); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	recs, err := dataset.ParseFile(data)
	if err != nil {
		t.Fatal(err)
	}
	keys := filepath.Join(t.TempDir(), "keys.json")
	key := base64.StdEncoding.EncodeToString([]byte("install-test-cursor-key-32-bytes"))
	if err := os.WriteFile(keys, []byte(`{"current":"k1","keys":{"k1":"`+key+`"}}`), 0o600); err != nil {
		t.Fatal(err)
	}

	started := time.Now()
	mem := startSourceProgram(t, filepath.Join(bin, "jsonstores"), "-data", data, "-cursor-keys", keys)
	t.Logf("jsonstores listens after %s", time.Since(started).Round(time.Millisecond))
	t.Run("memory", func(t *testing.T) {
		var ids []string
		for _, r := range recs {
			if !r.Private && len(ids) < 3 {
				ids = append(ids, r.ID)
			}
		}
		got, err := equivcorpus.Call(context.Background(), mem, sourcesMeta, "lookup_locations", `{"ids":["`+strings.Join(ids, `","`)+`"]}`)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			if !strings.Contains(got, `"id":"`+id+`"`) {
				t.Errorf("lookup of %s from the memory program: %.300s", id, got)
			}
		}
	})
	t.Run("postgis", func(t *testing.T) {
		dsn := pgtest.SchemaDSN(t, pgtest.DSN(t), pgtest.Schema(t))
		started := time.Now()
		pg := startSourceProgram(t, filepath.Join(bin, "pgstores"), "-postgres", dsn, "-data", data, "-cursor-keys", keys)
		t.Logf("pgstores loaded %d stores and listens after %s", sourcesStores, time.Since(started).Round(time.Millisecond))
		call := func(cs *mcp.ClientSession) equivcorpus.Caller {
			return func(ctx context.Context, tool, body string) (string, error) {
				return equivcorpus.Call(ctx, cs, sourcesMeta, tool, body)
			}
		}
		loaded := time.Now()
		corpus := equivcorpus.Generate(t, recs, sourcesCorpus, storegen.DefaultSeed)
		st := equivcorpus.CompareUpTo(t, corpus, call(mem), []equivcorpus.Caller{call(pg)}, sourcesWalkPages)
		t.Logf("%d requests, %d tool calls compared in %s: %+v", len(corpus), st.Calls, time.Since(loaded).Round(time.Millisecond), st)
		if st.Calls < sourcesCorpus || st.Located < st.Calls/3 || st.MultiPage < 2 || st.Ranked < sourcesCorpus {
			t.Fatalf("corpus too thin: %+v", st)
		}
	})
}

// startSourceProgram starts one of the README's source programs on a port
// of the system's choosing, reads the address from its "serving ... on
// ADDR" log line (written once it listens), and returns an MCP session
// over HTTP to it; the process is killed when the test ends.
func startSourceProgram(t *testing.T, bin string, args ...string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	cmd := exec.CommandContext(ctx, bin, append(args, "-addr", "127.0.0.1:0")...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})
	var log strings.Builder
	addr := ""
	sc := bufio.NewScanner(stderr)
	for addr == "" && sc.Scan() {
		fmt.Fprintln(&log, sc.Text())
		if i := strings.LastIndex(sc.Text(), " on "); i >= 0 && strings.Contains(sc.Text(), "serving ") {
			addr = sc.Text()[i+len(" on "):]
		}
	}
	if addr == "" {
		t.Fatalf("%s %s exited before serving:\n%s", filepath.Base(bin), strings.Join(args, " "), log.String())
	}
	go func() { _, _ = io.Copy(io.Discard, stderr) }()
	client := mcp.NewClient(&mcp.Implementation{Name: "install-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/ucp/mcp"}, nil)
	if err != nil {
		t.Fatalf("connect to %s: %v", filepath.Base(bin), err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
