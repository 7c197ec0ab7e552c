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
