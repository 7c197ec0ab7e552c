package readme

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// curlSession returns the README's curl session: the ```sh block of the
// "Talk to the example with curl" section.
func curlSession(t *testing.T, root string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "\n## Talk to the example with curl\n")
	if i < 0 {
		t.Fatal("README.md has no 'Talk to the example with curl' section")
	}
	s = s[i:]
	start := strings.Index(s, "\n```sh\n")
	if start < 0 {
		t.Fatal("the curl section has no ```sh block")
	}
	s = s[start+len("\n```sh\n"):]
	end := strings.Index(s, "\n```\n")
	if end < 0 {
		t.Fatal("the curl section's ```sh block is not closed")
	}
	return s[:end+1]
}

// TestCurlSessionInBashAndZsh runs the README's curl session verbatim
// (only the port changed) in bash and in zsh against the example server:
// zsh does not split an unquoted $H into words, which once made every
// call an HTTP 415 there.
func TestCurlSessionInBashAndZsh(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds and starts the example server")
	}
	for _, tool := range []string{"bash", "zsh", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			testshared.Missing(t, "%s is not installed; the README's curl session is tested in bash and zsh", tool)
		}
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	session := curlSession(t, root)
	if !strings.Contains(session, "127.0.0.1:8080") {
		t.Fatal("the curl session does not talk to the example's default address 127.0.0.1:8080")
	}

	bin := filepath.Join(t.TempDir(), "storefinder")
	build := exec.Command("go", "build", "-o", bin, "./examples/storefinder")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the example: %v\n%s", err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := exec.CommandContext(ctx, bin, "--addr", addr)
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Wait()
	defer cancel()
	waitUp(t, "http://"+addr+"/.well-known/ucp")

	script := strings.ReplaceAll(session, "127.0.0.1:8080", addr)
	outputs := map[string]string{}
	for _, sh := range []string{"bash", "zsh"} {
		// -f keeps zsh from reading the user's startup files (-f in zsh is
		// NO_RCS); bash gets --norc for the same reason.
		args := []string{"-c", script}
		if sh == "zsh" {
			args = append([]string{"-f"}, args...)
		} else {
			args = append([]string{"--norc", "--noprofile"}, args...)
		}
		out, err := exec.Command(sh, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", sh, err, out)
		}
		got := string(out)
		outputs[sh] = got
		for _, want := range []string{
			`"dev.ucp.common"`, // the profile
			`{"jsonrpc":"2.0","id":1,"result":`,
			`{"jsonrpc":"2.0","id":2,"result":{`,
			`{"jsonrpc":"2.0","id":3,"result":{"content":`,
			`{"jsonrpc":"2.0","id":4,"result":{"content":`,
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32602`,
			`/location/distance/max`,
			`"transport": "rest"`,            // the profile's REST entry
			`{"ucp":{"version":"2026-08-25"`, // a REST 200 body
			`"code":"not_found"`,             // the REST lookup
			`{"code":"invalid_params"`,       // the REST 400
			`"pointer":"/distance/max"`,      // relative to the body
		} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: output lacks %s:\n%s", sh, want, got)
			}
		}
	}
	if outputs["bash"] != outputs["zsh"] {
		t.Errorf("bash and zsh print different results:\n--- bash\n%s\n--- zsh\n%s", outputs["bash"], outputs["zsh"])
	}
}

// waitUp polls url until the server answers 200; the deadline only guards
// against a server that never starts.
func waitUp(t *testing.T, url string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			// The profile answers "loading" (503) until the data is in.
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("example server did not start: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
