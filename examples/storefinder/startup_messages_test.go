package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestRecordErrorNamesTheFile runs the storefinder on a --data file with a
// bad record, as a user would: the error names the file, the record, its
// byte offset and the field.
func TestRecordErrorNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stores.json")
	data := `[{"location":{"id":"a","name":"A"}},` + "\n" + `{"location":{"id":"b","name":"B","timezone":"Mars/Olympus_Mons","hours":[{"day":"monday","opens":"09:00","closes":"17:00"}]}}]`
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	at := strings.LastIndex(data, `"location":`) + len(`"location":`)
	want := "load stores from " + path + ": dataset record 1 at byte " + strconv.Itoa(at) + ", /1/location/timezone: unusable schedule"
	err := run([]string{"--stdio", "--data", path})
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

// TestStartupSaysLoadingThenListening starts the storefinder on a --data
// file and holds the load, as a slow start would: the log says "loading"
// with the file and its size while /readyz says "loading", and says
// "listening" only once the load is done and the MCP endpoint answers.
func TestStartupSaysLoadingThenListening(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stores.json")
	data := `[{"location":{"id":"a","name":"A"}}]`
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	hold := &holdLoading{release: make(chan struct{})}
	r := startServe(t, hold, "--data", path)
	line := r.waitLog(t, `(msg="storefinder loading" .*)`)
	if want := "data=" + path + " size=" + strconv.Itoa(len(data)) + " "; !strings.Contains(line, want) {
		t.Errorf("loading line %q lacks %q", line, want)
	}
	base := r.waitPublic(t)
	if st, body := get(t, base+"/readyz"); st != 503 || !strings.Contains(body, `"loading"`) {
		t.Fatalf("/readyz while loading: %d %s", st, body)
	}
	if n := r.sink.count("storefinder listening"); n != 0 {
		t.Fatalf("the log says listening before the data is loaded:\n%s", r.sink.b.String())
	}
	close(hold.release)
	r.waitLog(t, `msg="(storefinder listening)" addr=`)
	if st, body := get(t, base+"/readyz"); st != 200 {
		t.Fatalf("/readyz once listening: %d %s", st, body)
	}
	logs := r.sink.b.String()
	if strings.Index(logs, "storefinder loading") > strings.Index(logs, "storefinder listening") {
		t.Errorf("listening logged before loading:\n%s", logs)
	}
}
