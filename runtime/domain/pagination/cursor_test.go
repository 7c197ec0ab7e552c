package pagination

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

func testKey(b byte) []byte { return bytes.Repeat([]byte{b}, MinKeyLen) }

func mustSigner(t testing.TB, current string, keys map[string][]byte) *Signer {
	t.Helper()
	s, err := NewSigner(current, keys)
	if err != nil {
		t.Fatalf("NewSigner: %v", err)
	}
	return s
}

func mustSign(t testing.TB, s *Signer, after string, digest [32]byte) string {
	t.Helper()
	c, err := s.Sign(after, digest)
	if err != nil {
		t.Fatalf("Sign(%q): %v", after, err)
	}
	return c
}

// wantCursorErr asserts err is an *rpcerr.InvalidParams at CursorPointer
// carrying exactly msg.
func wantCursorErr(t testing.TB, err error, msg, what string) {
	t.Helper()
	var ip *rpcerr.InvalidParams
	if !errors.As(err, &ip) {
		t.Fatalf("%s: want *rpcerr.InvalidParams, got %T %v", what, err, err)
	}
	if len(ip.Violations) != 1 || ip.Violations[0].Pointer != CursorPointer || ip.Violations[0].Message != msg {
		t.Fatalf("%s: want one violation at %s saying %q, got %+v", what, CursorPointer, msg, ip.Violations)
	}
}

var (
	digestA = ConstraintDigest([]byte(`{"query":"coffee"}`), nil, nil, []byte(`{"amenities":["wifi"]}`))
	digestB = ConstraintDigest([]byte(`{"query":"tea"}`), nil, nil, []byte(`{"amenities":["wifi"]}`))
)

func TestSignVerifyRoundTrip(t *testing.T) {
	s := mustSigner(t, "k1", map[string][]byte{"k1": testKey(1)})
	for _, after := range []string{"", "0000000042", "Zürich|2026-08-25|loc_9", strings.Repeat("x", MaxSortKeyLen), "\x00\xff binary"} {
		c := mustSign(t, s, after, digestA)
		if strings.ContainsAny(c, "+/=") {
			t.Errorf("cursor %q is not unpadded base64url", c)
		}
		got, err := s.Verify(c, digestA)
		if err != nil {
			t.Fatalf("Verify(Sign(%q)): %v", after, err)
		}
		if got != after {
			t.Errorf("round trip: got %q, want %q", got, after)
		}
	}
}

func TestCursorIsCompact(t *testing.T) {
	s := mustSigner(t, "k1", map[string][]byte{"k1": testKey(1)})
	c := mustSign(t, s, "0000000042", digestA)
	// 2 header + 2 key id + 16 digest + 10 key + 16 tag = 46 bytes -> 62 chars.
	if len(c) != 62 {
		t.Errorf("cursor %q is %d characters, want 62", c, len(c))
	}
}

func TestSignRejectsLongSortKey(t *testing.T) {
	s := mustSigner(t, "k1", map[string][]byte{"k1": testKey(1)})
	if _, err := s.Sign(strings.Repeat("x", MaxSortKeyLen+1), digestA); err == nil {
		t.Fatal("want error for an oversized sort key")
	}
}

// TestCursorBitFlips flips every bit of a real cursor, both in its decoded
// bytes (re-encoded, so only the authentication can catch it) and in its
// base64 text; every variant must be rejected with the generic message.
func TestCursorBitFlips(t *testing.T) {
	s := mustSigner(t, "k1", map[string][]byte{"k1": testKey(1)})
	c := mustSign(t, s, "0000000042", digestA)
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		t.Fatal(err)
	}
	for i := range len(raw) * 8 {
		b := bytes.Clone(raw)
		b[i/8] ^= 1 << (i % 8)
		_, err := s.Verify(base64.RawURLEncoding.EncodeToString(b), digestA)
		wantCursorErr(t, err, MsgInvalidCursor, "decoded bit flip")
	}
	for i := range len(c) * 8 {
		b := []byte(c)
		b[i/8] ^= 1 << (i % 8)
		_, err := s.Verify(string(b), digestA)
		wantCursorErr(t, err, MsgInvalidCursor, "text bit flip")
	}
}

func TestCursorTruncations(t *testing.T) {
	s := mustSigner(t, "k1", map[string][]byte{"k1": testKey(1)})
	c := mustSign(t, s, "0000000042", digestA)
	for n := range len(c) {
		_, err := s.Verify(c[:n], digestA)
		wantCursorErr(t, err, MsgInvalidCursor, "prefix truncation")
		_, err = s.Verify(c[len(c)-n:], digestA)
		wantCursorErr(t, err, MsgInvalidCursor, "suffix truncation")
	}
}

func TestCursorRejections(t *testing.T) {
	k1 := mustSigner(t, "k1", map[string][]byte{"k1": testKey(1)})
	real := mustSign(t, k1, "0000000042", digestA)

	// A well-formed, correctly tagged token of an unknown version, built
	// directly so only the version check can reject it.
	v2 := token{version: 2, keyID: "k1", after: "0000000042"}
	copy(v2.digest[:], digestA[:])
	v2.tag = computeTag(testKey(1), v2.body())

	tests := []struct {
		name   string
		signer *Signer
		cursor string
		digest [32]byte
		msg    string
	}{
		{"empty string", k1, "", digestA, MsgInvalidCursor},
		{"garbage characters", k1, "!!!!not-a-cursor!!!!", digestA, MsgInvalidCursor},
		{"standard base64 alphabet", k1, strings.NewReplacer("-", "+", "_", "/").Replace(real) + "+/", digestA, MsgInvalidCursor},
		{"padded", k1, real + "==", digestA, MsgInvalidCursor},
		{"embedded newline", k1, real[:20] + "\n" + real[20:], digestA, MsgInvalidCursor},
		{"trailing space", k1, real + " ", digestA, MsgInvalidCursor},
		{"huge input", k1, strings.Repeat("A", 1<<20), digestA, MsgInvalidCursor},
		{"unknown version", k1, v2.encode(), digestA, MsgInvalidCursor},
		{"unknown key id", mustSigner(t, "k9", map[string][]byte{"k9": testKey(1)}), real, digestA, MsgInvalidCursor},
		{"same key id, other key", mustSigner(t, "k1", map[string][]byte{"k1": testKey(2)}), real, digestA, MsgInvalidCursor},
		{"other constraints", k1, real, digestB, MsgCursorMismatch},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			after, err := tc.signer.Verify(tc.cursor, tc.digest)
			if err == nil {
				t.Fatalf("accepted, resumed after %q", after)
			}
			wantCursorErr(t, err, tc.msg, tc.name)
		})
	}
}

func TestKeyRotation(t *testing.T) {
	old := mustSigner(t, "2026-07", map[string][]byte{"2026-07": testKey(1)})
	c := mustSign(t, old, "k42", digestA)

	rotated := mustSigner(t, "2026-08", map[string][]byte{"2026-07": testKey(1), "2026-08": testKey(2)})
	if got, err := rotated.Verify(c, digestA); err != nil || got != "k42" {
		t.Fatalf("rotated signer rejects a cursor under a known old key: %q, %v", got, err)
	}
	fresh := mustSign(t, rotated, "k43", digestA)
	tok, err := decodeToken(fresh)
	if err != nil {
		t.Fatal(err)
	}
	if tok.keyID != "2026-08" {
		t.Errorf("rotated signer signed with %q, want the current key 2026-08", tok.keyID)
	}
	if _, err := old.Verify(fresh, digestA); err == nil {
		t.Error("a signer without the new key accepted its cursor")
	}

	retired := mustSigner(t, "2026-08", map[string][]byte{"2026-08": testKey(2)})
	_, err = retired.Verify(c, digestA)
	wantCursorErr(t, err, MsgInvalidCursor, "removed key")
}

func TestNewSignerErrors(t *testing.T) {
	tests := []struct {
		name    string
		current string
		keys    map[string][]byte
		want    string
	}{
		{"no keys", "k1", nil, "no keys"},
		{"empty current", "", map[string][]byte{"k1": testKey(1)}, "current key id is empty"},
		{"current missing", "k2", map[string][]byte{"k1": testKey(1)}, `"k2" is not among the keys`},
		{"short key", "k1", map[string][]byte{"k1": make([]byte, MinKeyLen-1)}, `key "k1" is 31 bytes`},
		{"empty key id", "k1", map[string][]byte{"k1": testKey(1), "": testKey(2)}, `key id "" is 0 bytes`},
		{"long key id", "k1", map[string][]byte{"k1": testKey(1), strings.Repeat("k", MaxKeyIDLen+1): testKey(2)}, "must be 1 to 32"},
		{"bad key id byte", "k 1", map[string][]byte{"k 1": testKey(1)}, `has byte ' ' at 1`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSigner(tc.current, tc.keys)
			if err == nil {
				t.Fatalf("accepted: %+v", s)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
		})
	}
}

func TestNewSignerCopiesKeys(t *testing.T) {
	k := testKey(1)
	s := mustSigner(t, "k1", map[string][]byte{"k1": k})
	c := mustSign(t, s, "a", digestA)
	k[0] ^= 0xff // the caller reuses its buffer
	if _, err := s.Verify(c, digestA); err != nil {
		t.Fatalf("signer shares the caller's key buffer: %v", err)
	}
}

func TestProcessSigner(t *testing.T) {
	a, err := NewProcessSigner()
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewProcessSigner()
	if err != nil {
		t.Fatal(err)
	}
	c := mustSign(t, a, "x", digestA)
	if _, err := a.Verify(c, digestA); err != nil {
		t.Fatalf("own cursor rejected: %v", err)
	}
	_, err = b.Verify(c, digestA)
	wantCursorErr(t, err, MsgInvalidCursor, "another process's cursor")
}

func TestNilSigner(t *testing.T) {
	var s *Signer
	if _, err := s.Sign("x", digestA); err == nil {
		t.Error("nil signer signed")
	}
	if _, err := s.Verify("x", digestA); err == nil {
		t.Error("nil signer verified")
	}
}

func TestConstraintDigest(t *testing.T) {
	cases := []struct {
		name  string
		parts [][]byte
	}{
		{"none", nil},
		{"one nil", [][]byte{nil}},
		{"one empty", [][]byte{{}}},
		{"two nil", [][]byte{nil, nil}},
		{"ab|c", [][]byte{[]byte("ab"), []byte("c")}},
		{"a|bc", [][]byte{[]byte("a"), []byte("bc")}},
		{"abc", [][]byte{[]byte("abc")}},
		{"abc|nil", [][]byte{[]byte("abc"), nil}},
		{"nil|abc", [][]byte{nil, []byte("abc")}},
	}
	// Cursors already handed out carry digests: the bytes hashed may never
	// change, whatever the code that frames them.
	for _, pin := range []struct {
		parts [][]byte
		hex   string
	}{
		{[][]byte{[]byte(`{"query":"coffee"}`), nil, {}, []byte(`{"amenities":["wifi"]}`)}, "9794d73d4a4f0fe94460cfbaeb1e3dc5894ea8ba889b7be2862521049c3b346a"},
		{nil, "75699a4b746fa00d12a4750231a3c7896e1af5b08c72842f5df4eaf825949804"},
	} {
		if d := ConstraintDigest(pin.parts...); hex.EncodeToString(d[:]) != pin.hex {
			t.Errorf("ConstraintDigest(%q) = %x, want %s as before", pin.parts, d, pin.hex)
		}
	}
	long := bytes.Repeat([]byte("x"), 5000)
	if ConstraintDigest(long) == ConstraintDigest(long[:4999]) {
		t.Error("a part longer than the stack buffer is not hashed whole")
	}
	seen := map[[32]byte]string{}
	for _, c := range cases {
		d := ConstraintDigest(c.parts...)
		if prev, dup := seen[d]; dup {
			t.Errorf("%s and %s share a digest", prev, c.name)
		}
		seen[d] = c.name
		if again := ConstraintDigest(c.parts...); again != d {
			t.Errorf("%s: digest is not deterministic", c.name)
		}
	}
}

// FuzzDecodeCursor feeds arbitrary strings to the decoder and to Verify: neither
// may panic, and anything the decoder accepts must encode back to the very same
// string, so every cursor has exactly one spelling.
func FuzzDecodeCursor(f *testing.F) {
	s := mustSigner(f, "k1", map[string][]byte{"k1": testKey(1)})
	f.Add(mustSign(f, s, "0000000042", digestA))
	f.Add(mustSign(f, s, "", digestA))
	f.Add(mustSign(f, s, strings.Repeat("z", MaxSortKeyLen), digestB))
	f.Add("")
	f.Add("AQJrMQ")
	f.Add("!!!!")
	f.Add(strings.Repeat("A", 100))
	f.Fuzz(func(t *testing.T, in string) {
		tok, err := decodeToken(in)
		if err == nil {
			if out := tok.encode(); out != in {
				t.Fatalf("decode/encode changed the cursor:\n in  %q\n out %q", in, out)
			}
		}
		after, err := s.Verify(in, digestA)
		if err != nil {
			var ip *rpcerr.InvalidParams
			if !errors.As(err, &ip) || ip.Violations[0].Pointer != CursorPointer {
				t.Fatalf("Verify error is not InvalidParams at %s: %v", CursorPointer, err)
			}
			return
		}
		if again := mustSign(t, s, after, digestA); again != in {
			t.Fatalf("accepted cursor %q does not re-sign to itself (%q)", in, again)
		}
	})
}

// The pooled HMAC states give computeTag's tag every time, under every key,
// interleaved, so a reused state never carries a previous call's input.
func TestPooledTagsMatchComputeTag(t *testing.T) {
	s := mustSigner(t, "k1", map[string][]byte{"k1": testKey(1), "k2": testKey(2)})
	for n := range 50 {
		for _, id := range []string{"k1", "k2"} {
			body := bytes.Repeat([]byte{byte(n)}, n)
			tok := token{version: FormatVersion, keyID: id, after: string(body)}
			if got, want := s.tagOf(&tok), computeTag(s.keys[id], tok.body()); got != want {
				t.Fatalf("key %s, sort key %d bytes: pooled token tag %x, want %x", id, n, got, want)
			}
		}
	}
	c := mustSign(t, s, "0000000042", digestA)
	for range 3 {
		if again := mustSign(t, s, "0000000042", digestA); again != c {
			t.Fatalf("signing again gave %q, want %q", again, c)
		}
		if after, err := s.Verify(c, digestA); err != nil || after != "0000000042" {
			t.Fatalf("Verify = %q, %v", after, err)
		}
	}
}

// TestSignAllocations: once the pool holds a state, signing a cursor
// allocates only the cursor's text, since every search page with a next
// page signs one.
func TestSignAllocations(t *testing.T) {
	s := mustSigner(t, "k1", map[string][]byte{"k1": testKey(1)})
	mustSign(t, s, "0000000042", digestA)
	// The race detector makes sync.Pool drop states at random, so the count
	// is checked by the plain pass only.
	if n := testing.AllocsPerRun(100, func() {
		if _, err := s.Sign("0000000042", digestA); err != nil {
			t.Fatal(err)
		}
	}); n > 1 && !testshared.Race {
		t.Errorf("Sign allocates %v times, want at most 1", n)
	}
	long := strings.Repeat("k", MaxSortKeyLen)
	c := mustSign(t, s, long, digestA)
	if after, err := s.Verify(c, digestA); err != nil || after != long {
		t.Fatalf("a cursor with the longest sort key: Verify = %q, %v", after, err)
	}
}

// TestCursorBytesPinned: a cursor signed today is the one 5ca41db signed
// for the same key, sort key and digest, so replicas on either build accept
// each other's cursors; computeTag and the pooled states share one tag
// function, and this is what holds that function to its bytes.
func TestCursorBytesPinned(t *testing.T) {
	s := mustSigner(t, "k1", map[string][]byte{"k1": testKey(1)})
	const want = "AQJrMU8vVcjG7UqpnQNAU17iKSgwMDAwMDAwMDQyCWKZK5EGaUQCDyU2phWxTw"
	for range 2 { // a new HMAC state, then a pooled one
		if got := mustSign(t, s, "0000000042", digestA); got != want {
			t.Fatalf("Sign = %q, want %q", got, want)
		}
	}
	tok := token{version: FormatVersion, keyID: "k1", after: "0000000042"}
	copy(tok.digest[:], digestA[:digestLen])
	tok.tag = computeTag(testKey(1), tok.body())
	if got := tok.encode(); got != want {
		t.Fatalf("computeTag's cursor = %q, want %q", got, want)
	}
}
