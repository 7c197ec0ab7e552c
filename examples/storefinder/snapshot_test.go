package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/internal/storegen"
)

// TestSnapshotFlag starts the storefinder on a generated --data file with
// --snapshot three times, as an operator would across deploys: the first
// start builds the stores and writes the snapshot, the second opens them
// from it, and after the data file changes the third builds again (saying
// why) and replaces the snapshot. Every start answers the same search with
// the same stores as a start without --snapshot.
func TestSnapshotFlag(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "stores.json")
	snap := filepath.Join(dir, "stores.snapshot")
	key := snapshotKeyFile(t, dir)
	var b bytes.Buffer
	if err := storegen.GenerateShapeTo(&b, storegen.DefaultSeed, 2000, storegen.Light); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(data, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	const search = `{"query":"market","pagination":{"limit":20}}`
	answer := func(args ...string) (string, *running) {
		t.Helper()
		r := startServe(t, nil, append([]string{"--data", data}, args...)...)
		base := r.waitPublic(t)
		r.waitLog(t, `msg="storefinder serving MCP" endpoint=(\S+)`)
		client := &http.Client{Timeout: 30 * time.Second}
		st, _, body := rpcRaw(t, client, base+"/ucp/mcp", toolCall(1, "search_locations", "https://p.example/a", search))
		if st != 200 || !strings.Contains(body, `"locations":[{`) {
			t.Fatalf("search: %d %.300s", st, body)
		}
		r.stop()
		<-r.done
		r.done <- nil // for the cleanup
		// Cursors are signed with a per-process key; the stores must match.
		var reply struct {
			Result struct {
				StructuredContent struct {
					Locations json.RawMessage `json:"locations"`
				} `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(body), &reply); err != nil || len(reply.Result.StructuredContent.Locations) < 100 {
			t.Fatalf("search reply %.300s: %v", body, err)
		}
		return string(reply.Result.StructuredContent.Locations), r
	}
	want, _ := answer()

	got, r := answer("--snapshot", snap, "--snapshot-key", key)
	r.waitLog(t, `msg="building the stores from --data" .*reason="(no snapshot yet)"`)
	r.waitLog(t, `msg="(wrote the snapshot)"`)
	if got != want {
		t.Fatalf("first start with --snapshot answers differently:\n%.300s\n%.300s", got, want)
	}
	if _, err := os.Stat(snap); err != nil {
		t.Fatal(err)
	}

	got, r = answer("--snapshot", snap, "--snapshot-key", key)
	r.waitLog(t, `msg="(opened the stores from the snapshot)"`)
	if r.sink.count("building the stores") > 0 {
		t.Fatal("second start built again")
	}
	if got != want {
		t.Fatalf("start from the snapshot answers differently:\n%.300s\n%.300s", got, want)
	}

	// One store less: the snapshot is stale and is replaced.
	recs := bytes.SplitN(b.Bytes(), []byte(",\n"), 2)
	if err := os.WriteFile(data, append([]byte("[\n"), recs[1]...), 0o600); err != nil {
		t.Fatal(err)
	}
	_, r = answer("--snapshot", snap, "--snapshot-key", key)
	r.waitLog(t, `msg="building the stores from --data" .*reason=".*(snapshot is stale: it was made from other contents)`)
	r.waitLog(t, `msg="(wrote the snapshot)"`)
	_, r = answer("--snapshot", snap, "--snapshot-key", key)
	r.waitLog(t, `msg="(opened the stores from the snapshot)"`)
}

// snapshotKeyFile writes a snapshot key file (mode 0600) in dir.
func snapshotKeyFile(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "snapshot.key")
	if err := os.WriteFile(p, []byte(base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7, 1, 9}, 11))+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSnapshotFlagNeedsInMemoryData: --snapshot without --data, or with
// --postgres, is refused at parse time with a reason; so is --snapshot
// without --snapshot-key, and the key without --snapshot.
func TestSnapshotFlagNeedsInMemoryData(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--snapshot", "s", "--snapshot-key", "k"}, "--snapshot needs --data"},
		{[]string{"--snapshot", "s", "--snapshot-key", "k", "--data", "d.json", "--postgres", "postgres://u@127.0.0.1:1/db"}, "--snapshot needs --data"},
		{[]string{"--snapshot", "s", "--data", "d.json"}, "--snapshot needs --snapshot-key FILE"},
		{[]string{"--snapshot-key", "k", "--data", "d.json"}, "--snapshot-key needs --snapshot"},
	} {
		if _, err := parseFlags(tc.args); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want %q", tc.args, err, tc.want)
		}
	}
}

// TestSnapshotWrittenWhileServing holds the snapshot write of a first
// start: the server answers searches meanwhile, and once told to stop it
// waits for the write, so the next start opens the snapshot.
func TestSnapshotWrittenWhileServing(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "stores.json")
	snap := filepath.Join(dir, "stores.snapshot")
	key := snapshotKeyFile(t, dir)
	var b bytes.Buffer
	if err := storegen.GenerateShapeTo(&b, storegen.DefaultSeed, 500, storegen.Light); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(data, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := parseFlags([]string{"--addr", "127.0.0.1:0", "--data", data, "--snapshot", snap, "--snapshot-key", key})
	if err != nil {
		t.Fatal(err)
	}
	c.holdWrite = make(chan struct{})
	r := &running{sink: &logSink{}, done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { r.done <- serveHTTP(ctx, c, slog.New(slog.NewTextHandler(r.sink, nil))) }()
	endpoint := r.waitLog(t, `msg="storefinder serving MCP" endpoint=(\S+)`)
	<-c.holdWrite // the write has begun, and waits
	client := &http.Client{Timeout: 30 * time.Second}
	if st, _, body := rpcRaw(t, client, endpoint, toolCall(1, "search_locations", "https://p.example/a", `{"pagination":{"limit":5}}`)); st != 200 || !strings.Contains(body, `"locations":[{`) {
		t.Fatalf("search while the snapshot is written: %d %.300s", st, body)
	}
	cancel()
	r.waitLog(t, `msg="(storefinder waiting for the snapshot write before it exits)"`)
	select {
	case err := <-r.done:
		t.Fatalf("the server exited during the snapshot write: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	c.holdWrite <- struct{}{}
	if err := <-r.done; err != nil {
		t.Fatal(err)
	}
	r.waitLog(t, `msg="(wrote the snapshot)"`)
	next := startServe(t, nil, "--data", data, "--snapshot", snap, "--snapshot-key", key)
	next.waitLog(t, `msg="(opened the stores from the snapshot)"`)
}
