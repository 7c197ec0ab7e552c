package main

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/examples/storefinder/sample"
)

// TestTamperedSnapshotIsRebuilt starts the storefinder with --snapshot, as
// an operator would, alters the snapshot it wrote the way an attacker
// without the --snapshot-key could (a byte of a store id changed and the
// CRC recomputed; the same with an HMAC under the attacker's own key), and
// starts it again on each: every start logs the refusal at WARN with its
// reason, rebuilds from --data, and answers searches (text, serves, items)
// and lookups over MCP byte for byte as a start without --snapshot does;
// the snapshot it then writes opens on the next start.
func TestTamperedSnapshotIsRebuilt(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "stores.json")
	snap := filepath.Join(dir, "stores.snapshot")
	key := snapshotKeyFile(t, dir)
	cursorKeys := filepath.Join(dir, "cursor-keys.json")
	if err := os.WriteFile(cursorKeys, []byte(`{"current":"a","keys":{"a":"`+base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{9}, 32))+`"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	b := bytes.NewBuffer(sample.DefaultJSON())
	if err := os.WriteFile(data, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	first := func(re string) string {
		m := regexp.MustCompile(re).FindSubmatch(b.Bytes())
		if m == nil {
			t.Fatalf("the generated data has no %s", re)
		}
		return string(m[1])
	}
	id := first(`"id":\s*"(loc_[^"]+)"`)
	sku := first(`"(sku-[^"]+)"`)
	country := first(`"address_country":\s*"([A-Z]{2})"`)
	calls := []string{
		toolCall(1, "search_locations", "https://p.example/a", `{"query":"market","pagination":{"limit":50}}`),
		toolCall(2, "search_locations", "https://p.example/a", `{"serves":{"address":{"address_country":"`+country+`"}},"pagination":{"limit":50}}`),
		toolCall(5, "search_locations", "https://p.example/a", `{"serves":{"point":{"latitude":40.7128,"longitude":-74.006}},"filters":{"items":["`+sku+`"]},"pagination":{"limit":50}}`),
		toolCall(3, "search_locations", "https://p.example/a", `{"filters":{"items":["`+sku+`"]},"pagination":{"limit":50}}`),
		toolCall(4, "lookup_locations", "https://p.example/a", `{"ids":["`+id+`","no-such-store"]}`),
	}
	// answers starts the server, asks every call and stops it.
	answers := func(args ...string) ([]string, *running) {
		t.Helper()
		r := startServe(t, nil, append([]string{"--data", data, "--cursor-keys", cursorKeys}, args...)...)
		base := r.waitPublic(t)
		r.waitLog(t, `msg="storefinder serving MCP" endpoint=(\S+)`)
		client := &http.Client{Timeout: 30 * time.Second}
		var out []string
		for _, call := range calls {
			st, _, body := rpcRaw(t, client, base+"/ucp/mcp", call)
			if st != 200 || strings.Contains(body, `"error"`) || strings.Contains(body, `"isError":true`) {
				t.Fatalf("%s: %d %.300s", call, st, body)
			}
			out = append(out, body)
		}
		r.stop()
		<-r.done
		r.done <- nil // for the cleanup
		return out, r
	}
	want, _ := answers()
	for i, w := range want {
		if i == 3 {
			continue // the lookup
		}
		if !strings.Contains(w, `"locations":[{`) {
			t.Fatalf("call %d finds nothing; the comparison proves little: %.300s", i+1, w)
		}
	}
	snapArgs := []string{"--snapshot", snap, "--snapshot-key", key}
	_, r := answers(snapArgs...)
	r.waitLog(t, `msg="(wrote the snapshot)"`)
	good, err := os.ReadFile(snap)
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.LastIndex(good, []byte(id))
	if at < 0 {
		t.Fatalf("no %s in the snapshot", id)
	}
	crc := func(b []byte) []byte {
		return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)))
	}
	for _, tc := range []struct {
		name   string
		tamper func() []byte
	}{
		{"an id changed, CRC recomputed", func() []byte {
			body := bytes.Clone(good[:len(good)-4])
			body[at+len(id)-1] ^= 0x01
			return crc(body)
		}},
		{"an id changed, signed with another key", func() []byte {
			body := bytes.Clone(good[:len(good)-4-sha256.Size])
			body[at+len(id)-1] ^= 0x01
			mac := hmac.New(sha256.New, []byte("the attacker's own key, 32 bytes"))
			mac.Write(body)
			return crc(mac.Sum(body))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(snap, tc.tamper(), 0o600); err != nil {
				t.Fatal(err)
			}
			got, r := answers(snapArgs...)
			r.waitLog(t, `level=(WARN) msg="building the stores from --data" snapshot=\S+ reason=".*snapshot is not authenticated by the snapshot key: it was written under another key, or altered since"`)
			r.waitLog(t, `msg="(wrote the snapshot)"`)
			if r.sink.count("opened the stores from the snapshot") > 0 {
				t.Fatal("the tampered snapshot was opened")
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("call %d after the refusal:\n%.300s\nwant\n%.300s", i+1, got[i], want[i])
				}
			}
			got, r = answers(snapArgs...)
			r.waitLog(t, `msg="(opened the stores from the snapshot)"`)
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("call %d from the rewritten snapshot:\n%.300s\nwant\n%.300s", i+1, got[i], want[i])
				}
			}
		})
	}
}
