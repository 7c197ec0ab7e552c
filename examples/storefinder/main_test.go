package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseFlags(t *testing.T) {
	cases := []struct {
		args    []string
		want    config
		wantErr string
	}{
		{nil, config{addr: "127.0.0.1:8080"}, ""},
		{[]string{"--stdio", "--batch-max", "20", "--page-max", "50", "--data", "x.json"}, config{addr: "127.0.0.1:8080", stdio: true, batchMax: 20, pageMax: 50, data: "x.json"}, ""},
		{[]string{"--batch-max", "ten"}, config{}, "invalid value"},
		{[]string{"extra"}, config{}, "unexpected arguments"},
	}
	for _, tc := range cases {
		got, err := parseFlags(tc.args)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%v: err = %v, want %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		got.limits = limits{} // TestLimitFlags checks these
		// TestDatabaseFaults and TestOpsFlags check these.
		got.postgresTimeout, got.ops = 0, nil
		if err != nil || got != tc.want {
			t.Errorf("%v: got %+v, %v; want %+v", tc.args, got, err, tc.want)
		}
	}
}

func TestNewServerRejectsBadConfig(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`[{"location":{"id":"a","name":"A","geo":{"latitude":95,"longitude":0}}}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	mars := filepath.Join(t.TempDir(), "mars.json")
	if err := os.WriteFile(mars, []byte(`[{"location":{"id":"a","name":"A"}},{"location":{"id":"b","name":"B","timezone":"Mars/Olympus_Mons","hours":[{"day":"monday","opens":"09:00","closes":"17:00"}]}}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		c    config
		want string
	}{
		{config{data: filepath.Join(t.TempDir(), "missing.json")}, "--data"},
		{config{data: bad}, "/0/location/geo/latitude"},
		{config{data: mars}, "load stores from " + mars + ": dataset record 1 at byte 48, /1/location/timezone"},
		{config{batchMax: 3}, "batch maximum"},
	}
	for _, tc := range cases {
		if _, _, err := newServer(tc.c, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want it to mention %q", tc.c, err, tc.want)
		}
	}
	if _, n, err := newServer(config{}, nil); err != nil || n == 0 {
		t.Fatalf("embedded dataset: %d records, %v", n, err)
	}
}
