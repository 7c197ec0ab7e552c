package memory

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/sampledata"
	"github.com/ucpgen/ucpgen/runtime/opt"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
)

// TestFromStoresRejectsWhatAFileWould: stores given as Go values are held
// to the rules of a dataset file, and the error names the store's index
// and the offending member.
func TestFromStoresRejectsWhatAFileWould(t *testing.T) {
	ok := func(id string) dataset.Store {
		return dataset.Store{Location: location.Location{ID: id, Name: "Store " + id}}
	}
	cases := []struct {
		name    string
		stores  []dataset.Store
		index   int
		pointer string
	}{
		{"duplicate id", []dataset.Store{ok("a"), ok("b"), ok("a")}, 2, "/2/location/id"},
		{"alias equal to an id", []dataset.Store{ok("a"), {Location: ok("b").Location, Aliases: []string{"a"}}}, 1, "/1/aliases/0"},
		{"empty name", []dataset.Store{ok("a"), {Location: location.Location{ID: "b"}}}, 1, "/1/location"},
		{"unknown zone", []dataset.Store{{Location: location.Location{ID: "a", Name: "A", Timezone: opt.Some("Mars/Olympus"),
			Hours: opt.Some([]location.DailyHour{{Day: "monday", Opens: "09:00", Closes: "17:00"}})}}}, 0, "/0/location"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := FromStores(c.stores, Options{})
			var fe *dataset.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a *dataset.FieldError", err)
			}
			if fe.Index != c.index || !strings.HasPrefix(fe.Pointer, c.pointer) {
				t.Fatalf("error %q names record %d at %s, want record %d at %s...", err, fe.Index, fe.Pointer, c.index, c.pointer)
			}
		})
	}
}

// TestFromStoresAnswersAsTheFile: the sample dataset given as Go values
// serves the same candidates as the same stores read from the file.
func TestFromStoresAnswersAsTheFile(t *testing.T) {
	recs, err := sampledata.Records()
	if err != nil {
		t.Fatal(err)
	}
	fromFile, err := New(recs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	stores := make([]dataset.Store, len(recs))
	for i, r := range recs {
		l, err := location.DecodeLocation(r.Location)
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		stores[i] = dataset.Store{Location: *l, Aliases: r.Aliases, Items: r.Items, ServiceArea: r.ServiceArea, Private: r.Private}
	}
	fromGo, err := FromStores(stores, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	h := location.Hints{Limit: 1 << 20}
	a, err := fromFile.Candidates(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	b, err := fromGo.Candidates(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != len(b) || len(a) < 1000 {
		t.Fatalf("%d candidates from the file, %d from Go values", len(a), len(b))
	}
	for i := range a {
		x, _ := a[i].Location.AppendJSON(nil)
		y, _ := b[i].Location.AppendJSON(nil)
		if string(x) != string(y) {
			t.Fatalf("candidate %d differs:\nfile %s\n  go %s", i, x, y)
		}
	}
}

// TestOpenFileErrorsNameTheFile: a missing file and an invalid one fail
// with the path and the cause, and Close releases the file.
func TestOpenFileErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.json")
	if _, err := OpenFile(missing, Options{}); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Fatalf("missing file: got %v", err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`[{"location":{"id":"a","name":"A"}},{"location":{"id":"a","name":"B"}}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	var fe *dataset.FieldError
	if _, err := OpenFile(bad, Options{}); !errors.As(err, &fe) || fe.Index != 1 || !strings.Contains(err.Error(), bad) {
		t.Fatalf("duplicate id: got %v, want a FieldError for record 1 naming %s", err, bad)
	}
	good := filepath.Join(dir, "good.json")
	if err := os.WriteFile(good, []byte(`[{"location":{"id":"a","name":"A"}}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	src, err := OpenFile(good, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := src.Close(); err != nil {
		t.Fatal(err)
	}
	if err := src.Close(); !errors.Is(err, os.ErrClosed) || !strings.Contains(err.Error(), good) {
		t.Fatalf("second Close: got %v, want the file already closed, naming it", err)
	}
}
