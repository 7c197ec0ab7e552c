package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/sampledata"
	"github.com/ucpgen/ucpgen/runtime/domain/lookup"
	"github.com/ucpgen/ucpgen/runtime/domain/pagination"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
)

// fileService is newService over a dataset file opened with OpenFile.
func fileService(t *testing.T, path string, o testOptions) testStore {
	t.Helper()
	df, err := dataset.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { df.Close() })
	src, err := NewFile(df, Options{MaxDistance: o.MaxDistance})
	if err != nil {
		t.Fatal(err)
	}
	h, err := location.NewService(src, location.ServiceOptions{
		Lookup: lookup.Options{BatchMax: o.BatchMax},
		Pages:  pagination.Options{MaxLimit: o.PageMax},
	})
	if err != nil {
		t.Fatal(err)
	}
	return testStore{hooks: h, src: src}
}

// TestFileSourceAnswersTheSame proves that a source whose Locations stay in
// the dataset file (read at their offsets when they are candidates) answers
// searches, items filters and lookups exactly as one built from the
// records in memory.
func TestFileSourceAnswersTheSame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stores.json")
	if err := os.WriteFile(path, sampledata.JSON(t), 0o600); err != nil {
		t.Fatal(err)
	}
	mem := newStore(t, testOptions{PageMax: 100})
	saved := keepDecodedUpTo
	keepDecodedUpTo = 0
	defer func() { keepDecodedUpTo = saved }()
	file := fileService(t, path, testOptions{PageMax: 100})
	if e := file.src.ents[0]; e.raw != nil || e.loc != nil || e.span.Len == 0 {
		t.Fatalf("the file source keeps its Locations in memory (raw %d bytes, span %+v)", len(e.raw), e.span)
	}
	ctx := context.Background()
	for _, req := range []string{
		`{}`,
		`{"query":"electronics","pagination":{"limit":50}}`,
		`{"filters":{"items":["sku-aa-batteries-8"]},"pagination":{"limit":100}}`,
		`{"filters":{"items":["no-such-item"]}}`,
		`{"distance":{"center":{"latitude":40.75,"longitude":-73.98},"max":25000},"filters":{"hours":{"open_at":"2026-09-07T14:30:00Z"}}}`,
	} {
		a, err := mem.Search(ctx, nil, searchReq(t, req))
		if err != nil {
			t.Fatal(err)
		}
		b, err := file.Search(ctx, nil, searchReq(t, req))
		if err != nil {
			t.Fatal(err)
		}
		// Cursors are signed with each service's own key; the rest must match.
		if len(a.Locations) == 0 != strings.Contains(req, "no-such-item") {
			t.Errorf("%s: %d Locations", req, len(a.Locations))
		}
		if ja, jb := mustJSON(t, a.Locations), mustJSON(t, b.Locations); ja != jb || a.Pagination.V.HasNextPage != b.Pagination.V.HasNextPage {
			t.Errorf("%s: answers differ:\n%.300s\n%.300s", req, ja, jb)
		}
	}
	var ids []string
	for _, r := range records(t)[:40] {
		ids = append(ids, r.ID)
		ids = append(ids, r.Aliases...)
	}
	var lreq location.LookupRequest
	if err := json.Unmarshal([]byte(`{"ids":`+mustJSON(t, ids[:min(len(ids), 50)])+`}`), &lreq); err != nil {
		t.Fatal(err)
	}
	a, err := mem.Lookup(ctx, nil, &lreq)
	if err != nil {
		t.Fatal(err)
	}
	b, err := file.Lookup(ctx, nil, &lreq)
	if err != nil {
		t.Fatal(err)
	}
	if ja, jb := mustJSON(t, a), mustJSON(t, b); ja != jb {
		t.Errorf("lookup answers differ:\n%s\n%s", ja, jb)
	}
}

// TestFileSourceDetectsChangedFile rewrites a Location in place under a
// running file source: asking for that store is an error that says the
// file changed, never the other text.
func TestFileSourceDetectsChangedFile(t *testing.T) {
	data := sampledata.JSON(t)
	path := filepath.Join(t.TempDir(), "stores.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	saved := keepDecodedUpTo
	keepDecodedUpTo = 0
	defer func() { keepDecodedUpTo = saved }()
	file := fileService(t, path, testOptions{})
	first := records(t)[0]
	name := []byte(`"name":"`)
	at := bytes.Index(data, name) + len(name)
	changed := bytes.Clone(data)
	changed[at] ^= 0x20 // same length, other case
	if err := os.WriteFile(path, changed, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := file.src.Resolve(context.Background(), []string{first.ID})
	if !errors.Is(err, dataset.ErrChanged) {
		t.Fatalf("lookup of the changed store: err = %v, want dataset.ErrChanged", err)
	}
}

// TestFileSourceRejectsLikeNew: a file whose records break a Location rule
// fails with the same *dataset.FieldError as New over Parse's records, plus
// the byte offset of the record's Location in the file.
func TestFileSourceRejectsLikeNew(t *testing.T) {
	for _, data := range []string{
		`[{"location":{"id":"a","name":""}}]`,
		`[{"location":{"id":"a","name":"A"}},` + "\n" + `{"location":{"id":"b","name":"B","geo":{"latitude":99,"longitude":0}}}]`,
		`[{"location":{"id":"a","name":"A"},"private":true,"service_area":{"countries":["XX"]}}]`,
	} {
		path := filepath.Join(t.TempDir(), "stores.json")
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		recs, err := dataset.Parse([]byte(data))
		if err != nil {
			t.Fatal(err)
		}
		_, want := New(recs, Options{})
		df, err := dataset.OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, got := NewFile(df, Options{})
		df.Close()
		var fe *dataset.FieldError
		if want == nil || got == nil || !errors.As(got, &fe) {
			t.Fatalf("%s: NewFile error %v, New error %v", data, got, want)
		}
		at := int64(strings.LastIndex(data, `"location":`) + len(`"location":`))
		if fe.Offset != at || !strings.Contains(got.Error(), fmt.Sprintf("at byte %d, ", at)) {
			t.Errorf("%s: NewFile error %v (offset %d), want the offset %d", data, got, fe.Offset, at)
		}
		plain := *fe
		plain.Offset = 0
		if plain.Error() != want.Error() {
			t.Errorf("%s: NewFile error %v, New error %v", data, got, want)
		}
	}
}
