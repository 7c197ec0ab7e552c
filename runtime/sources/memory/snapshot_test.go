package memory

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/sampledata"
	"github.com/ucpgen/ucpgen/internal/storegen"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/domain/lookup"
	"github.com/ucpgen/ucpgen/runtime/domain/pagination"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
)

// testKey is the snapshot key the tests write and open snapshots under.
var testKey = bytes.Repeat([]byte("snapshot test key "), 2)

// snapshotFixture writes a dataset file, builds a Source from it with
// NewFile and saves that Source's snapshot beside it.
func snapshotFixture(t *testing.T, data []byte) (built *Source, dataPath, snapPath string) {
	t.Helper()
	dir := t.TempDir()
	dataPath = filepath.Join(dir, "stores.json")
	snapPath = filepath.Join(dir, "stores.snapshot")
	if err := os.WriteFile(dataPath, data, 0o600); err != nil {
		t.Fatal(err)
	}
	built, df, err := buildAndWrite(dataPath, snapPath)
	if df != nil {
		t.Cleanup(func() { df.Close() })
	}
	if err != nil {
		t.Fatal(err)
	}
	return built, dataPath, snapPath
}

// buildAndWrite builds a Source over the dataset file at dataPath and
// writes its snapshot to snapPath; the Source reads from df until it is
// closed.
func buildAndWrite(dataPath, snapPath string) (built *Source, df *dataset.File, err error) {
	before, err := dataset.FileFingerprint(dataPath)
	if err != nil {
		return nil, nil, err
	}
	if df, err = dataset.OpenFile(dataPath); err != nil {
		return nil, nil, err
	}
	if built, err = NewFile(df, Options{MaxDistance: 500_000}); err != nil {
		return nil, df, err
	}
	return built, df, built.WriteSnapshot(snapPath, before, testKey)
}

// snapshotCopies is a fresh copy of snapshotFixture's two files, built
// once per process for data: a snapshot names its dataset by contents only,
// so a copy opens as the original does, and each test that spoils one
// costs a file copy rather than a build and a write.
func snapshotCopies(t *testing.T, data []byte) (dataPath, snapPath string) {
	t.Helper()
	fixtures.once.Do(func() {
		fixtures.dir, fixtures.err = os.MkdirTemp("", "memory-snapshot-")
		if fixtures.err != nil {
			return
		}
		fixtures.data = data
		fixtures.dataPath = filepath.Join(fixtures.dir, "stores.json")
		fixtures.snapPath = filepath.Join(fixtures.dir, "stores.snapshot")
		if fixtures.err = os.WriteFile(fixtures.dataPath, data, 0o600); fixtures.err != nil {
			return
		}
		var df *dataset.File
		_, df, fixtures.err = buildAndWrite(fixtures.dataPath, fixtures.snapPath)
		if df != nil {
			df.Close()
		}
	})
	if fixtures.err != nil {
		t.Fatal(fixtures.err)
	}
	if !bytes.Equal(fixtures.data, data) {
		t.Fatal("snapshotCopies serves one dataset per process")
	}
	dir := t.TempDir()
	dataPath, snapPath = filepath.Join(dir, "stores.json"), filepath.Join(dir, "stores.snapshot")
	for _, c := range [][2]string{{fixtures.dataPath, dataPath}, {fixtures.snapPath, snapPath}} {
		b, err := os.ReadFile(c[0])
		if err == nil {
			err = os.WriteFile(c[1], b, 0o600)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dataPath, snapPath
}

// fixtures is snapshotCopies' one build, removed by TestMain.
var fixtures struct {
	once               sync.Once
	dir                string
	data               []byte
	dataPath, snapPath string
	err                error
}

// TestMain removes snapshotCopies' build after the tests ran.
func TestMain(m *testing.M) {
	code := m.Run()
	if fixtures.dir != "" {
		os.RemoveAll(fixtures.dir)
	}
	os.Exit(code)
}

func openSnapshotT(t *testing.T, snapPath, dataPath string) *Source {
	t.Helper()
	s, err := OpenSnapshot(snapPath, dataPath, testKey, Options{MaxDistance: 500_000})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.file.Close() })
	return s
}

// generated is a storegen dataset of n stores, large enough for the
// sectioned parse and for every shared table to hold many rows.
func generated(t *testing.T, n int, shape storegen.Shape) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := storegen.GenerateShapeTo(&b, storegen.DefaultSeed, n, shape); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestSnapshotIsTheBuiltSource: a Source opened from a snapshot holds
// exactly what the build held (every entry, shared table, alias, the text
// index and the spatial order) and answers every kind of request with the
// same bytes.
func TestSnapshotIsTheBuiltSource(t *testing.T) {
	saved := keepDecodedUpTo
	keepDecodedUpTo = 0 // both sides decode from the file
	defer func() { keepDecodedUpTo = saved }()
	type datasetCase struct {
		name string
		data func() []byte
	}
	cases := []datasetCase{
		{"default dataset", func() []byte { return sampledata.JSON(t) }},
		{"storegen full 2500", func() []byte { return generated(t, 2500, storegen.Full) }},
		{"storegen light 2500", func() []byte { return generated(t, 2500, storegen.Light) }},
	}
	// Writing and opening a snapshot runs on one goroutine: under the race
	// detector one dataset goes through it; the plain pass compares all.
	for _, tc := range testshared.RaceCases(cases, cases[:1]) {
		t.Run(tc.name, func(t *testing.T) {
			built, dataPath, snapPath := snapshotFixture(t, tc.data())
			opened := openSnapshotT(t, snapPath, dataPath)
			sameSource(t, built, opened)
			sameAnswers(t, built, opened)
		})
	}
}

// sameSource compares two Sources field by field; compiled schedules are
// compared by the schedule they were compiled from.
// sameArea reports whether two service areas (nil: none) hold the same.
func sameArea(a, b *dataset.ServiceArea) bool {
	if a == nil || b == nil {
		return a == b
	}
	if (a.RadiusM == nil) != (b.RadiusM == nil) || a.RadiusM != nil && *a.RadiusM != *b.RadiusM {
		return false
	}
	return slices.Equal(a.Countries, b.Countries) && slices.Equal(a.Regions, b.Regions) && slices.Equal(a.PostalCodes, b.PostalCodes)
}

func sameSource(t *testing.T, a, b *Source) {
	t.Helper()
	if len(a.ents) != len(b.ents) {
		t.Fatalf("%d entries built, %d opened", len(a.ents), len(b.ents))
	}
	key := func(s *Source) map[any]string {
		m := map[any]string{}
		for k, c := range s.schedules {
			m[c] = k
		}
		return m
	}
	ka, kb := key(a), key(b)
	for i := range a.ents {
		x, y := a.ents[i], b.ents[i]
		xc, yc := a.compiled[x.compiled], b.compiled[y.compiled]
		if ka[xc] != kb[yc] || (xc == nil) != (yc == nil) {
			t.Fatalf("entry %d (%s): schedules differ", i, x.id)
		}
		if !slices.Equal(a.itemsOf(&x), b.itemsOf(&y)) {
			t.Fatalf("entry %d (%s): items %v built, %v opened", i, x.id, a.itemsOf(&x), b.itemsOf(&y))
		}
		if xl, yl := a.lists[x.amenities], b.lists[y.amenities]; !slices.Equal(xl, yl) {
			t.Fatalf("entry %d (%s): amenities %q built, %q opened", i, x.id, xl, yl)
		}
		if xl, yl := a.lists[x.countries], b.lists[y.countries]; !slices.Equal(xl, yl) {
			t.Fatalf("entry %d (%s): countries %q built, %q opened", i, x.id, xl, yl)
		}
		if xa, ya := a.areas[x.area], b.areas[y.area]; !sameArea(xa, ya) {
			t.Fatalf("entry %d (%s): service area %+v built, %+v opened", i, x.id, xa, ya)
		}
		// What the tables hold is compared; the numbers may differ.
		x.compiled, y.compiled, x.items, y.items = 0, 0, 0, 0
		x.amenities, y.amenities, x.countries, y.countries, x.area, y.area = 0, 0, 0, 0, 0, 0
		x.loc, y.loc = nil, nil
		if !reflect.DeepEqual(x, y) {
			t.Fatalf("entry %d differs:\nbuilt  %+v\nopened %+v", i, x, y)
		}
	}
	for name, pair := range map[string][2]any{
		"aliases":   {a.aliases, b.aliases},
		"geoDoc":    {a.geoDoc, b.geoDoc},
		"countries": {a.countries, b.countries},
		"caps":      {a.caps, b.caps},
		"itemCode":  {a.itemCode, b.itemCode},
		"text":      {a.text.Frozen(), b.text.Frozen()},
		"spatial":   {a.spatial.Order(), b.spatial.Order()},
		"records":   {a.records, b.records},
	} {
		if !reflect.DeepEqual(pair[0], pair[1]) {
			t.Errorf("%s differ:\nbuilt  %.400v\nopened %.400v", name, pair[0], pair[1])
		}
	}
	if len(a.ents) > 0 && len(a.text.Frozen().Vocab) == 0 {
		t.Error("the text index is empty; the comparison proves nothing")
	}
}

// sameAnswers runs searches of every predicate and lookups through the
// generated service over both Sources.
func sameAnswers(t *testing.T, a, b *Source) {
	t.Helper()
	svc := func(s *Source) testStore {
		h, err := location.NewService(s, location.ServiceOptions{
			Lookup: lookup.Options{BatchMax: 100},
			Pages:  pagination.Options{MaxLimit: 100},
		})
		if err != nil {
			t.Fatal(err)
		}
		return testStore{hooks: h, src: s}
	}
	ha, hb := svc(a), svc(b)
	first := a.ents[0]
	ctx := context.Background()
	nonEmpty := 0
	for _, req := range []string{
		`{}`,
		`{"pagination":{"limit":100}}`,
		`{"query":"electronics","pagination":{"limit":50}}`,
		`{"query":"express pharmacy","pagination":{"limit":50}}`,
		`{"query":"` + strings.Fields(first.id)[0] + `"}`,
		`{"distance":{"center":{"latitude":40.75,"longitude":-73.98},"max":25000},"filters":{"hours":{"open_at":"2026-09-07T14:30:00Z"}},"pagination":{"limit":100}}`,
		`{"distance":{"center":{"latitude":` + jsonNum(first.geo.Lat) + `,"longitude":` + jsonNum(first.geo.Lon) + `},"max":400000},"pagination":{"limit":100}}`,
		`{"distance":{"center":{"latitude":` + jsonNum(first.geo.Lat) + `,"longitude":` + jsonNum(first.geo.Lon) + `},"max":400000},"query":"market","pagination":{"limit":100}}`,
		`{"filters":{"items":["sku-aa-batteries-8"]},"pagination":{"limit":100}}`,
		`{"filters":{"amenities":["parking"]},"pagination":{"limit":100}}`,
		`{"filters":{"serves":{"address":{"address_country":"US"}}},"pagination":{"limit":100}}`,
		`{"filters":{"serves":{"point":{"latitude":` + jsonNum(first.geo.Lat) + `,"longitude":` + jsonNum(first.geo.Lon) + `}}},"pagination":{"limit":100}}`,
	} {
		ra, errA := ha.Search(ctx, nil, searchReq(t, req))
		rb, errB := hb.Search(ctx, nil, searchReq(t, req))
		if (errA == nil) != (errB == nil) || errA != nil && errA.Error() != errB.Error() {
			t.Fatalf("%s: errors differ: %v / %v", req, errA, errB)
		}
		if errA != nil {
			continue
		}
		if len(ra.Locations) > 0 {
			nonEmpty++
		}
		if ja, jb := mustJSON(t, ra.Locations), mustJSON(t, rb.Locations); ja != jb || ra.Pagination.V.HasNextPage != rb.Pagination.V.HasNextPage {
			t.Errorf("%s: answers differ:\n%.300s\n%.300s", req, ja, jb)
		}
	}
	if nonEmpty < 4 {
		t.Errorf("only %d searches matched anything; the comparison proves little", nonEmpty)
	}
	var ids []string
	for i := 0; i < len(a.ents) && len(ids) < 40; i += max(1, len(a.ents)/40) {
		ids = append(ids, a.ents[i].id)
	}
	for _, al := range a.aliases[:min(len(a.aliases), 10)] {
		ids = append(ids, al.key)
	}
	var lreq location.LookupRequest
	if err := json.Unmarshal([]byte(`{"ids":`+mustJSON(t, ids)+`}`), &lreq); err != nil {
		t.Fatal(err)
	}
	la, err := ha.Lookup(ctx, nil, &lreq)
	if err != nil {
		t.Fatal(err)
	}
	lb, err := hb.Lookup(ctx, nil, &lreq)
	if err != nil {
		t.Fatal(err)
	}
	if ja, jb := mustJSON(t, la), mustJSON(t, lb); ja != jb || len(la.Locations) == 0 {
		t.Errorf("lookup answers differ or are empty:\n%.300s\n%.300s", ja, jb)
	}
}

func jsonNum(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

// seal appends the MAC under key and the checksum to a snapshot's body.
func seal(body, key []byte) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write(body)
	b := mac.Sum(body)
	return binary.LittleEndian.AppendUint32(b, dataset.Checksum(b))
}

// rewrite applies change to the snapshot's body (MAC and checksum
// excluded) and stores it sealed under key (nil: a correct checksum over
// the old MAC, as an attacker without the key would).
func rewrite(t *testing.T, path string, key []byte, change func([]byte) []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	body := change(bytes.Clone(b[:len(b)-4-macLen]))
	if key != nil {
		body = seal(body, key)
	} else {
		body = append(body, b[len(b)-4-macLen:len(b)-4]...)
		body = binary.LittleEndian.AppendUint32(body, dataset.Checksum(body))
	}
	if err := os.WriteFile(path, body, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestSnapshotRefused: every snapshot that is not this program's, of these
// contents, intact, is refused with an error that says which; a stale one
// wraps ErrSnapshotStale, a missing one fs.ErrNotExist.
func TestSnapshotRefused(t *testing.T) {
	data := sampledata.JSON(t)
	for _, tc := range []struct {
		name  string
		spoil func(t *testing.T, dataPath, snapPath string)
		stale bool
		want  string
	}{
		{"dataset edited in place", func(t *testing.T, dataPath, _ string) {
			b := bytes.Clone(data)
			i := bytes.Index(b, []byte(`"name":"`)) + len(`"name":"`)
			b[i] ^= 0x20
			os.WriteFile(dataPath, b, 0o600)
		}, true, "other contents"},
		{"dataset grown", func(t *testing.T, dataPath, _ string) {
			os.WriteFile(dataPath, append(bytes.Clone(data), '\n'), 0o600)
		}, true, "other contents"},
		{"another build", func(t *testing.T, _, _ string) {
			saved := program
			program = func() (programID, error) { return programID{size: 1, sum: 2}, nil }
			t.Cleanup(func() { program = saved })
		}, true, "another build"},
		{"another format", func(t *testing.T, _, snapPath string) {
			rewrite(t, snapPath, testKey, func(b []byte) []byte { b[len(snapshotMagic)] = snapshotVersion + 1; return b })
		}, true, "format 3"},
		{"the first format", func(t *testing.T, _, snapPath string) {
			rewrite(t, snapPath, nil, func(b []byte) []byte { b[len(snapshotMagic)] = 1; return b })
		}, true, "format 1"},
		{"altered, checksum recomputed", func(t *testing.T, _, snapPath string) {
			rewrite(t, snapPath, nil, func(b []byte) []byte { b[len(b)/2] ^= 1; return b })
		}, false, "not authenticated by the snapshot key: it was written under another key, or altered"},
		{"written under another key", func(t *testing.T, _, snapPath string) {
			rewrite(t, snapPath, bytes.Repeat([]byte("k"), 32), func(b []byte) []byte { return b })
		}, false, "not authenticated"},
		{"one bit flipped", func(t *testing.T, _, snapPath string) {
			b, _ := os.ReadFile(snapPath)
			b[len(b)/2] ^= 1
			os.WriteFile(snapPath, b, 0o600)
		}, false, "damaged (checksum mismatch)"},
		{"truncated", func(t *testing.T, _, snapPath string) {
			b, _ := os.ReadFile(snapPath)
			os.WriteFile(snapPath, b[:len(b)/3], 0o600)
		}, false, "damaged"},
		{"truncated with a good checksum", func(t *testing.T, _, snapPath string) {
			rewrite(t, snapPath, testKey, func(b []byte) []byte { return b[:len(b)-10] })
		}, false, "string arena"},
		{"not a snapshot", func(t *testing.T, _, snapPath string) {
			os.WriteFile(snapPath, data, 0o600)
		}, false, "not a storefinder snapshot"},
		{"missing", func(t *testing.T, _, snapPath string) {
			os.Remove(snapPath)
		}, false, "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dataPath, snapPath := snapshotCopies(t, data)
			tc.spoil(t, dataPath, snapPath)
			s, err := OpenSnapshot(snapPath, dataPath, testKey, Options{})
			if err == nil {
				s.file.Close()
				t.Fatal("opened")
			}
			if errors.Is(err, ErrSnapshotUnauthenticated) != strings.Contains(tc.want, "not authenticated") {
				t.Fatalf("err = %v; ErrSnapshotUnauthenticated is wrapped exactly when the MAC fails", err)
			}
			if errors.Is(err, ErrSnapshotStale) != tc.stale || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v; want stale %v and %q", err, tc.stale, tc.want)
			}
			if tc.name == "missing" && !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("err = %v, want fs.ErrNotExist", err)
			}
		})
	}
}

// TestSnapshotNeedsTheFile: a Source whose Locations are in memory has no
// file to point a snapshot at, and says so.
func TestSnapshotNeedsTheFile(t *testing.T) {
	s := newStore(t, testOptions{}).src
	err := s.WriteSnapshot(filepath.Join(t.TempDir(), "x"), dataset.Fingerprint{}, testKey)
	if err == nil || !strings.Contains(err.Error(), "dataset file") {
		t.Fatalf("err = %v", err)
	}
}

// TestSnapshotNotOfAChangedLoad: when the dataset changed between the
// fingerprint taken before the load and the write, no snapshot is written.
func TestSnapshotNotOfAChangedLoad(t *testing.T) {
	data := sampledata.JSON(t)
	built, dataPath, snapPath := snapshotFixture(t, data)
	os.Remove(snapPath)
	before, err := dataset.FileFingerprint(dataPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dataPath, append(bytes.Clone(data), ' '), 0o600); err != nil {
		t.Fatal(err)
	}
	err = built.WriteSnapshot(snapPath, before, testKey)
	if !errors.Is(err, dataset.ErrChanged) {
		t.Fatalf("err = %v, want dataset.ErrChanged", err)
	}
	if _, err := os.Stat(snapPath); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a snapshot was written: %v", err)
	}
}

// FuzzOpenSnapshot: whatever the snapshot's bytes after the magic (sealed
// under the key, so the decoders are reached, as if the key had leaked),
// OpenSnapshot returns a Source or an error, and never panics.
func FuzzOpenSnapshot(f *testing.F) {
	dir := f.TempDir()
	dataPath := filepath.Join(dir, "stores.json")
	if err := os.WriteFile(dataPath, sampledata.JSON(f), 0o600); err != nil {
		f.Fatal(err)
	}
	before, err := dataset.FileFingerprint(dataPath)
	if err != nil {
		f.Fatal(err)
	}
	df, err := dataset.OpenFile(dataPath)
	if err != nil {
		f.Fatal(err)
	}
	defer df.Close()
	src, err := NewFile(df, Options{})
	if err != nil {
		f.Fatal(err)
	}
	good := filepath.Join(dir, "good")
	if err := src.WriteSnapshot(good, before, testKey); err != nil {
		f.Fatal(err)
	}
	b, err := os.ReadFile(good)
	if err != nil {
		f.Fatal(err)
	}
	seed := b[len(snapshotMagic) : len(b)-4-macLen]
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Fuzz(func(t *testing.T, body []byte) {
		b := seal(append([]byte(snapshotMagic), body...), testKey)
		p := filepath.Join(t.TempDir(), "snap")
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := OpenSnapshot(p, dataPath, testKey, Options{})
		if err == nil {
			s.file.Close()
		}
	})
}
