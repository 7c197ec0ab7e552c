package memory

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/sampledata"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/domain/lookup"
	"github.com/ucpgen/ucpgen/runtime/domain/pagination"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
)

// mutationScale multiplies the random mutations of
// TestSnapshotMutationsAreNeverServed (go test -snapshot-mutations 20 for
// a long run).
var mutationScale = flag.Int("snapshot-mutations", 1, "scale of the random snapshot mutations")

// snapshotPart is one field range of a snapshot file: [off, off+n).
type snapshotPart struct {
	name   string
	off, n int
}

// snapshotParts walks a snapshot the way OpenSnapshot reads it and returns
// its head, each section (length prefix included), the arena, the MAC and
// the checksum, in file order.
func snapshotParts(t *testing.T, b []byte) []snapshotPart {
	t.Helper()
	d := &dec{b: b[len(snapshotMagic) : len(b)-4-macLen], what: "layout"}
	pos := func() int { return len(b) - 4 - macLen - len(d.b) }
	d.uv()
	d.uv()
	d.u32()
	d.uv()
	d.uv()
	for range d.count(4) {
		d.u32()
	}
	d.uv()
	parts := []snapshotPart{{"head", 0, pos()}}
	names := []string{"schedules", "entries", "sets", "item sets", "service areas", "item codes", "aliases", "text index", "spatial order", "arena"}
	for _, name := range names {
		at := pos()
		n := d.uv()
		d.b = d.b[n:]
		parts = append(parts, snapshotPart{name, at, pos() - at})
	}
	if d.err != nil || len(d.b) != 0 {
		t.Fatalf("snapshot layout: %v, %d bytes left", d.err, len(d.b))
	}
	return append(parts, snapshotPart{"mac", len(b) - 4 - macLen, macLen}, snapshotPart{"checksum", len(b) - 4, 4})
}

// snapshotMutation is one change an attacker makes to a snapshot's bytes
// (MAC and checksum included; the checksum is recomputed afterwards).
type snapshotMutation struct {
	name   string
	change func(b []byte) []byte
}

// snapshotMutations are the attacker's changes to the snapshot good: bit
// flips anywhere, byte changes inside the ids, the strings the predicates
// read (countries, amenities, item codes, postal codes) and every
// section's numbers and length prefix, truncations, and swapped,
// repeated and dropped sections.
func snapshotMutations(t *testing.T, good []byte, built *Source, scale int) []snapshotMutation {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 11))
	parts := snapshotParts(t, good)
	body := len(good) - 4
	var ms []snapshotMutation
	add := func(name string, change func([]byte) []byte) {
		ms = append(ms, snapshotMutation{name, change})
	}
	setByte := func(at int) func([]byte) []byte {
		v := byte(1 + r.IntN(255)) // never 0, so the byte changes
		return func(b []byte) []byte { b[at] ^= v; return b }
	}
	for range 80 * scale {
		at, bit := r.IntN(body), byte(1)<<r.IntN(8)
		add(fmt.Sprintf("flip bit %d of byte %d", bit, at), func(b []byte) []byte { b[at] ^= bit; return b })
	}
	// Strings the build derived from the records, found in the arena.
	arena := parts[len(parts)-3]
	var views []string
	for i := 0; i < len(built.ents); i += max(1, len(built.ents)/20) {
		views = append(views, built.ents[i].id)
	}
	views = append(views, built.countries...)
	for it := range built.itemCode {
		views = append(views, it)
	}
	views = append(views, "parking", "pharmacy")
	for _, v := range views {
		i := bytes.Index(good[arena.off:arena.off+arena.n], []byte(v))
		if i < 0 {
			continue
		}
		for range 2 {
			at := arena.off + i + r.IntN(len(v))
			add(fmt.Sprintf("change byte %d of %q in the arena", at-arena.off-i, v), setByte(at))
		}
	}
	// Numbers: offsets, lengths, references and counts in every part.
	for _, p := range parts[:len(parts)-1] {
		if p.n == 0 {
			continue
		}
		add("change the first byte of "+p.name, setByte(p.off))
		for range 6 * scale {
			at := p.off + r.IntN(p.n)
			add(fmt.Sprintf("change byte %d of %s", at-p.off, p.name), setByte(at))
		}
	}
	for range 20 * scale {
		n := r.IntN(body)
		add(fmt.Sprintf("truncate to %d bytes", n), func(b []byte) []byte { return b[:n] })
	}
	add("drop the MAC", func(b []byte) []byte { return append(b[:body-macLen], b[body:]...) })
	sections := parts[1 : len(parts)-2]
	chunk := func(b []byte, p snapshotPart) []byte { return bytes.Clone(b[p.off : p.off+p.n]) }
	for i, p := range sections {
		for _, q := range sections[i+1:] {
			add("swap "+p.name+" and "+q.name, func(b []byte) []byte {
				out := bytes.Clone(b[:p.off])
				out = append(out, chunk(b, q)...)
				out = append(out, b[p.off+p.n:q.off]...)
				out = append(out, chunk(b, p)...)
				return append(out, b[q.off+q.n:]...)
			})
		}
		add("repeat "+p.name, func(b []byte) []byte {
			out := bytes.Clone(b[:p.off+p.n])
			out = append(out, chunk(b, p)...)
			return append(out, b[p.off+p.n:]...)
		})
		add("drop "+p.name, func(b []byte) []byte {
			return append(bytes.Clone(b[:p.off]), b[p.off+p.n:]...)
		})
	}
	return ms
}

// snapshotAnswers are the answers a Source gives to a fixed set of
// searches (every predicate: text, distance, hours, amenities, items and
// serves by country and by point) and lookups (ids and aliases), one JSON
// or error text per request.
func snapshotAnswers(t *testing.T, s *Source, ref *Source) []string {
	t.Helper()
	// One fixed cursor key, so cursors compare too.
	signer, err := pagination.NewSigner("k", map[string][]byte{"k": bytes.Repeat([]byte{3}, pagination.MinKeyLen)})
	if err != nil {
		t.Fatal(err)
	}
	h, err := location.NewService(s, location.ServiceOptions{
		Lookup: lookup.Options{BatchMax: 100},
		Pages:  pagination.Options{MaxLimit: 100},
		Signer: signer,
	})
	if err != nil {
		return []string{"new service: " + err.Error()}
	}
	ts := testStore{hooks: h, src: s}
	ctx := context.Background()
	first := ref.ents[0]
	lat, lon := jsonNum(first.geo.Lat), jsonNum(first.geo.Lon)
	amenity := "none"
	for _, e := range ref.ents {
		if keys := ref.lists[e.amenities]; len(keys) > 0 {
			amenity = keys[0]
			break
		}
	}
	var out []string
	record := func(v any, err error) {
		if err != nil {
			out = append(out, "error: "+err.Error())
			return
		}
		b, _ := json.Marshal(v)
		out = append(out, string(b))
	}
	for _, req := range []string{
		`{"pagination":{"limit":100}}`,
		`{"query":"market","pagination":{"limit":50}}`,
		`{"query":"express pharmacy","pagination":{"limit":50}}`,
		`{"query":"` + strings.Fields(first.id)[0] + `"}`,
		`{"distance":{"center":{"latitude":` + lat + `,"longitude":` + lon + `},"max":400000},"pagination":{"limit":100}}`,
		`{"distance":{"center":{"latitude":40.75,"longitude":-73.98},"max":25000},"filters":{"hours":{"open_at":"2026-09-07T14:30:00Z"}},"pagination":{"limit":100}}`,
		`{"filters":{"amenities":["` + amenity + `"]},"pagination":{"limit":100}}`,
		`{"filters":{"items":["sku-aa-batteries-8"]},"pagination":{"limit":100}}`,
		`{"filters":{"items":["sku-aa-batteries-8"]},"query":"market","pagination":{"limit":100}}`,
		`{"serves":{"address":{"address_country":"US"}},"pagination":{"limit":100}}`,
		`{"serves":{"address":{"address_country":"US","address_region":"NY"}},"filters":{"items":["sku-aa-batteries-8"]},"pagination":{"limit":100}}`,
		`{"serves":{"point":{"latitude":` + lat + `,"longitude":` + lon + `}},"pagination":{"limit":100}}`,
	} {
		resp, err := ts.Search(ctx, nil, searchReq(t, req))
		if err != nil {
			record(nil, err)
			continue
		}
		record(resp, nil)
	}
	var ids []string
	for i := 0; i < len(ref.ents); i += max(1, len(ref.ents)/40) {
		ids = append(ids, ref.ents[i].id)
	}
	for _, al := range ref.aliases[:min(len(ref.aliases), 10)] {
		ids = append(ids, al.key)
	}
	ids = append(ids, "no-such-store")
	var lreq location.LookupRequest
	if err := json.Unmarshal([]byte(`{"ids":`+mustJSON(t, ids)+`}`), &lreq); err != nil {
		t.Fatal(err)
	}
	lr, err := ts.Lookup(ctx, nil, &lreq)
	record(lr, err)
	return out
}

// TestSnapshotMutationsAreNeverServed drives an attacker who can write the
// snapshot file but does not hold the snapshot key: every mutation of a
// snapshot the store wrote itself, with the checksum recomputed and the
// MAC either kept or made under a key of the attacker's, is opened, and
// no opened Source may answer the fixed requests differently from a fresh
// build. Every refusal must say why.
func TestSnapshotMutationsAreNeverServed(t *testing.T) {
	saved := keepDecodedUpTo
	keepDecodedUpTo = 0 // the fresh build reads Locations from the file too
	defer func() { keepDecodedUpTo = saved }()
	built, dataPath, snapPath := snapshotFixture(t, sampledata.JSON(t))
	want := snapshotAnswers(t, built, built)
	good, err := os.ReadFile(snapPath)
	if err != nil {
		t.Fatal(err)
	}
	// The intact snapshot opens and answers as the build does, so the
	// comparison below can tell a served mutation apart.
	if got := snapshotAnswers(t, openSnapshotT(t, snapPath, dataPath), built); !slices.Equal(got, want) {
		t.Fatalf("the intact snapshot answers differently from the build:\n%.300q\n%.300q", got, want)
	}
	nonEmpty := 0
	for _, a := range want {
		if strings.Contains(a, `"locations":[{`) {
			nonEmpty++
		}
	}
	for _, a := range want {
		if strings.HasPrefix(a, "error: ") {
			t.Fatalf("a request of the fixed set is refused, so it compares nothing: %s", a)
		}
	}
	if nonEmpty < 10 {
		t.Fatalf("only %d of %d requests find anything; the comparison proves little: %.500q", nonEmpty, len(want), want)
	}
	attackerKey := bytes.Repeat([]byte("not the deployment's key"), 2)
	dir := t.TempDir()
	mutations := snapshotMutations(t, good, built, *mutationScale)
	// Under the race detector one mutation in raceSample runs: opening and
	// serving a snapshot is the same path for every mutation, and the
	// plain pass tries them all.
	sample := 1
	if testshared.Race {
		sample = raceSample
	}
	var total, refused, identical, different int
	for _, resign := range []bool{false, true} {
		for i, m := range mutations {
			if i%sample != 0 {
				continue
			}
			b := m.change(bytes.Clone(good[:len(good)-4]))
			if resign && len(b) >= len(snapshotMagic)+macLen {
				b = seal(b[:len(b)-macLen], attackerKey)
			} else {
				b = binary.LittleEndian.AppendUint32(b, dataset.Checksum(b))
			}
			if bytes.Equal(b, good) {
				t.Fatalf("mutation %q leaves the snapshot unchanged", m.name)
			}
			p := filepath.Join(dir, fmt.Sprintf("m%d-%v", i, resign))
			if err := os.WriteFile(p, b, 0o600); err != nil {
				t.Fatal(err)
			}
			total++
			s, err := OpenSnapshot(p, dataPath, testKey, Options{MaxDistance: 500_000})
			if err != nil {
				refused++
				msg := err.Error()
				if !strings.HasPrefix(msg, "snapshot "+p+": ") || len(msg) < len("snapshot "+p+": ")+10 {
					t.Errorf("%s: refusal names no reason: %v", m.name, err)
				}
				if resign && !errors.Is(err, ErrSnapshotUnauthenticated) && !errors.Is(err, ErrSnapshotStale) && !strings.Contains(msg, "not a storefinder snapshot") && !strings.Contains(msg, "damaged") {
					t.Errorf("%s, signed with the attacker's key: refused for another reason than the MAC: %v", m.name, err)
				}
				os.Remove(p)
				continue
			}
			got := snapshotAnswers(t, s, built)
			s.file.Close()
			if slices.Equal(got, want) {
				identical++
			} else {
				different++
				t.Errorf("%s (re-signed: %v): accepted, and answers differently from a fresh build", m.name, resign)
			}
			os.Remove(p)
		}
	}
	t.Logf("snapshot mutations: %d, refused %d, accepted and identical %d, accepted and different %d", total, refused, identical, different)
	if total*sample < 400 {
		t.Errorf("only %d mutations; the attack is too small to mean much", total)
	}
}

// raceSample is how many of TestSnapshotMutationsAreNeverServed's
// mutations the race pass counts as one.
const raceSample = 10

// TestSnapshotKeyFile: ReadSnapshotKey takes the base64 of 32 random bytes
// from a file only its owner's group may read, and refuses anything else
// with the file's name and the reason.
func TestSnapshotKeyFile(t *testing.T) {
	dir := t.TempDir()
	good := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{5, 9}, 16))
	for _, tc := range []struct {
		name, text string
		mode       os.FileMode
		want       string
	}{
		{"good", good + "\n", 0o600, ""},
		{"group may read", good, 0o640, ""},
		{"others may read", good, 0o644, "lets other users read or write it"},
		{"others may write", good, 0o602, "chmod o-rw"},
		{"empty", "\n", 0o600, "empty"},
		{"not base64", "key!", 0o600, "not standard base64"},
		{"short", base64.StdEncoding.EncodeToString(make([]byte, 8)), 0o600, "must be at least 32 random bytes"},
		{"zero", base64.StdEncoding.EncodeToString(make([]byte, 32)), 0o600, "every byte is zero"},
		{"huge", strings.Repeat("A", 5000), 0o600, "over 4096 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			if err := os.WriteFile(p, []byte(tc.text), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(p, tc.mode); err != nil {
				t.Fatal(err)
			}
			key, err := ReadSnapshotKey(p)
			if tc.want == "" {
				if err != nil || len(key) != 32 {
					t.Fatalf("key %d bytes, err %v", len(key), err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want the file and %q", err, tc.want)
			}
		})
	}
	if _, err := ReadSnapshotKey(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: err = %v", err)
	}
}
