package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generator/delta"
	"github.com/ucpgen/ucpgen/internal/testshared"
)

// TestGenerateReportsTheBump regenerates one package from the bundled
// 2026-08-25 tree and then from UCP's newer main tree: the second run says,
// before its file list, that Ask is a new capability the Business has not
// written yet. A first run, a run that changes nothing and --check print no
// report, and a manifest ucpgen cannot read is a warning, not a failure.
func TestGenerateReportsTheBump(t *testing.T) {
	next := testshared.Path(t, "ucp-upstream", "main-2026-10-07", "source")
	out := filepath.Join(t.TempDir(), "loc")
	bundled := []string{"generate", "--out", out}
	newer := []string{"generate", "--schemas", next, "--ucp-version", "2026-10-07", "--out", out}
	const heading = "ucpgen: what UCP"

	run := func(args ...string) string {
		t.Helper()
		code, stdout, errs := ucpgen(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, errs)
		}
		return stdout
	}
	if stdout := run(bundled...); strings.Contains(stdout, heading) {
		t.Errorf("the first run, with no manifest in --out, reported a bump:\n%s", stdout)
	}
	if stdout := run(bundled...); strings.Contains(stdout, heading) {
		t.Errorf("a run that changes nothing reported a bump:\n%s", stdout)
	}
	code, stdout, _ := ucpgen(t, append(newer, "--check")...)
	if code != exitStale || strings.Contains(stdout, heading) {
		t.Errorf("--check: exit %d (want %d) and it must print no report:\n%.800s", code, exitStale, stdout)
	}

	stdout = run(newer...)
	report, files, found := strings.Cut(stdout, "\nwrote ")
	if !found {
		t.Fatalf("no file list after the report:\n%s", stdout)
	}
	for _, want := range []string{
		"ucpgen: what UCP 2026-08-25 -> 2026-10-07 brings:\n",
		"\n  + capability dev.ucp.common.ask: methods ask_business; not served until implemented\n",
		"\n  + method ask_business: in dev.ucp.common.ask; not served until implemented; new types AskConversation, AskRequest, AskResponse,",
		"\n  + REST operation POST /ask: binds ask_business; header Idempotency-Key (optional) besides those of the other operations\n",
		"\n  + member Meta.idempotency-key: optional string\n",
		"\n  4 changes, none breaking",
	} {
		if !strings.Contains(report+"\n", want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	if !strings.Contains(files, "ask_business.input.json") {
		t.Errorf("the file list does not follow the report:\n%s", stdout)
	}

	// Back to the bundled tree: Ask goes, which breaks Business code.
	if stdout := run(bundled...); !strings.Contains(stdout, "  - method ask_business: was in dev.ucp.common.ask; with types") ||
		!strings.Contains(stdout, "4 changes, 4 breaking\n") {
		t.Errorf("going back does not report Ask as removed and breaking:\n%s", stdout)
	}

	manifest := filepath.Join(out, delta.ManifestName)
	if err := os.WriteFile(manifest, []byte(`{"ucpgen_surface": 99}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, errs := ucpgen(t, newer...)
	if code != 0 || strings.Contains(stdout, heading) {
		t.Errorf("unreadable manifest: exit %d, stdout:\n%s", code, stdout)
	}
	if want := "ucpgen: warning: no report of what this run changes: " + manifest + ": ucpgen_surface: format 99 is newer"; !strings.Contains(errs, want) {
		t.Errorf("stderr lacks %q:\n%s", want, errs)
	}
}
