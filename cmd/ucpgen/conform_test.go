package main

import (
	"encoding/json"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConformExitCodes drives `ucpgen conform` as CI would: a Business
// that fails a MUST exits 1 with the rule named, a command line or URL the
// checker cannot work with exits 2, and --json and --junit carry the same
// verdict.
func TestConformExitCodes(t *testing.T) {
	noProfile := httptest.NewServer(http.NotFoundHandler())
	defer noProfile.Close()
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	// A profile whose only transport does not answer: the budget of 3
	// runs out before the checks can finish.
	tiny := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodGet {
			_, _ = w.Write([]byte(`{"ucp":{"version":"2026-08-25","payment_handlers":{},
				"services":{"dev.ucp.common":[{"version":"2026-08-25","transport":"mcp","endpoint":"http://` + r.Host + `/mcp"}]},
				"capabilities":{"dev.ucp.common.location.search":[{"version":"2026-08-25","schema":"https://ucp.dev/s.json"}]}}}`))
			return
		}
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"t","version":"1"}}}`))
	}))
	defer tiny.Close()

	cases := []struct {
		name     string
		args     []string
		code     int
		stdout   string
		stderror string
	}{
		{"no URL", []string{"conform"}, exitBadInput, "", "accepts 1 arg"},
		{"not an http URL", []string{"conform", "ftp://example.com"}, exitBadInput, "", "absolute http or https URL"},
		{"bad --at", []string{"conform", noProfile.URL, "--at", "noon"}, exitBadInput, "", "--at \"noon\": want an RFC 3339 instant"},
		{"bad --transport", []string{"conform", noProfile.URL, "--transport", "grpc"}, exitBadInput, "", `transport "grpc": want mcp or rest`},
		{"a version the profile does not list", []string{"conform", tiny.URL, "--ucp-version", "2025-01-01"}, exitBadInput, "", "version 2025-01-01: the Business profile lists [2026-08-25]"},
		{"rate 0", []string{"conform", noProfile.URL, "--rate", "0"}, exitBadInput, "", "rate 0"},
		{"unreachable", []string{"conform", gone.URL}, exitBadInput, "", "fetch the Business profile"},
		{"no profile", []string{"conform", noProfile.URL, "--rate", "100"}, exitNonConforming, "FAIL    §1       discovery.profile", "does not conform: 1 MUST checks failed"},
		{"budget spent", []string{"conform", tiny.URL, "--rate", "100", "--max-requests", "3"}, exitBadInput, "incomplete", "request budget"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := ucpgen(t, tc.args...)
			if code != tc.code || !strings.Contains(out, tc.stdout) || !strings.Contains(errOut, tc.stderror) {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s\nwant stdout with %q, stderr with %q", code, tc.code, out, errOut, tc.stdout, tc.stderror)
			}
		})
	}

	t.Run("json and junit", func(t *testing.T) {
		junit := filepath.Join(t.TempDir(), "conform.xml")
		code, out, _ := ucpgen(t, "conform", noProfile.URL, "--rate", "100", "--json", "--junit", junit)
		if code != exitNonConforming {
			t.Fatalf("exit %d, want %d", code, exitNonConforming)
		}
		var report struct {
			Checks []struct {
				ID, Section, Status string
				Details             []string
			}
		}
		if err := json.Unmarshal([]byte(out), &report); err != nil {
			t.Fatalf("--json: %v\n%s", err, out)
		}
		if len(report.Checks) != 1 || report.Checks[0].ID != "discovery.profile" || report.Checks[0].Status != "fail" || report.Checks[0].Section != "1" {
			t.Fatalf("--json checks: %+v", report.Checks)
		}
		data, err := os.ReadFile(junit)
		if err != nil {
			t.Fatal(err)
		}
		var suites struct {
			Failures int `xml:"failures,attr"`
			Suites   []struct {
				Cases []struct {
					Name    string `xml:"name,attr"`
					Failure *struct {
						Text string `xml:",chardata"`
					} `xml:"failure"`
				} `xml:"testcase"`
			} `xml:"testsuite"`
		}
		if err := xml.Unmarshal(data, &suites); err != nil {
			t.Fatalf("--junit: %v\n%s", err, data)
		}
		if suites.Failures != 1 || len(suites.Suites) != 1 || suites.Suites[0].Cases[0].Failure == nil ||
			!strings.Contains(suites.Suites[0].Cases[0].Failure.Text, "HTTP 404") {
			t.Fatalf("--junit:\n%s", data)
		}
	})
}
