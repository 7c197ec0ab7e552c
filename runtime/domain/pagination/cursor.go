// Package pagination holds opaque, signed keyset cursors and the page-fetching
// logic of UCP Location Search, so a Business gets stable pagination under
// concurrent inserts without keeping per-client state.
//
// A cursor carries the store-defined sort key of the last item returned (never
// an offset), a digest binding it to the request's constraints, a format
// version and the id of the key that authenticated it with HMAC-SHA256. It is
// encoded as unpadded base64url.
//
// Wire layout of format version 1, before base64url:
//
//	version (1 byte, = 1)
//	key id length k (1 byte, 1..MaxKeyIDLen)
//	key id (k bytes)
//	constraint digest (first 16 bytes of the SHA-256 from ConstraintDigest)
//	sort key (0..MaxSortKeyLen bytes, the rest up to the tag)
//	tag (first 16 bytes of HMAC-SHA256 over a fixed label and all bytes above)
//
// The package does not depend on MCP, generated types or the predicate engine.
package pagination

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"sort"
	"sync"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// JSON Pointers of the pagination fields in the search_locations arguments,
// used in every rejection this package returns.
const (
	CursorPointer = "/pagination/cursor"
	LimitPointer  = "/pagination/limit"
)

// The messages a rejected cursor can carry. Every failure of the cursor
// itself (encoding, length, version, key id, tag) reads the same, so a client
// learns nothing about which check a forgery failed; only an authentic cursor
// replayed with other constraints, or on a replica that ranks differently,
// gets a more helpful message.
const (
	MsgInvalidCursor  = "invalid or expired cursor; repeat the search without a cursor to start again"
	MsgCursorMismatch = "cursor does not match this request's constraints; send the same query, distance, serves and filters as the request that returned it, or start again without a cursor"
	// MsgCursorOtherRanking is for an authentic relevance cursor minted by a
	// replica whose source ranks text differently (another source or
	// ranking version behind the same keys).
	MsgCursorOtherRanking = "cursor was issued by a server that ranks text differently; repeat the search without a cursor to start again"
)

// Limits of the cursor format, kept small so cursors stay compact and a
// hostile cursor cannot make the decoder allocate much.
const (
	// FormatVersion is the version byte this package writes and accepts.
	FormatVersion = 1
	// MinKeyLen is the smallest HMAC key accepted, matching the SHA-256
	// output size as RFC 2104 recommends.
	MinKeyLen = 32
	// MaxKeyIDLen bounds key ids because every cursor repeats its key id.
	MaxKeyIDLen = 32
	// MaxSortKeyLen bounds the store's sort key because every cursor carries it.
	MaxSortKeyLen = 512

	digestLen = 16
	tagLen    = 16
	// minRaw is version + key id length + 1-byte key id + digest + tag.
	minRaw = 2 + 1 + digestLen + tagLen
	maxRaw = 2 + MaxKeyIDLen + digestLen + MaxSortKeyLen + tagLen
)

// macLabel separates cursor tags from any other use of the same key material.
const macLabel = "ucpgen/pagination/cursor\x00"

// digestLabel separates constraint digests from other SHA-256 uses.
const digestLabel = "ucpgen/pagination/constraints/v1\x00"

var encoding = base64.RawURLEncoding.Strict()

// ConstraintDigest hashes the canonical bytes of a request's constraints
// (query, distance, serves, filters, in an order the caller fixes) so a cursor
// can be bound to them. Each part is length-prefixed, and a nil part (an
// absent constraint) hashes differently from an empty one, so no two distinct
// part lists share a digest by concatenation.
func ConstraintDigest(parts ...[]byte) [32]byte {
	// The framed parts are hashed in one write: a search hashes a few
	// hundred bytes in about twenty pieces, and each write costs more than
	// the bytes it adds.
	n := len(digestLabel) + 8
	for _, p := range parts {
		n += 9 + len(p)
	}
	var room [1024]byte
	b := room[:0]
	if n > len(room) {
		b = make([]byte, 0, n)
	}
	b = append(b, digestLabel...)
	b = binary.BigEndian.AppendUint64(b, uint64(len(parts)))
	for _, p := range parts {
		present := byte(0)
		if p != nil {
			present = 1
		}
		b = append(b, present)
		b = binary.BigEndian.AppendUint64(b, uint64(len(p)))
		b = append(b, p...)
	}
	return sha256.Sum256(b)
}

// Signer issues and checks cursors under a set of named HMAC keys: it signs
// with the current key and verifies with any key it knows, so keys can be
// rotated without breaking cursors already handed out.
type Signer struct {
	current string
	keys    map[string][]byte
	// macs keeps, per key id, keyed HMAC states for reuse: hmac.New
	// allocates and hashes the key's pads on every call, and every page
	// that has a next one signs a cursor.
	macs map[string]*sync.Pool
}

// NewSigner builds a Signer that signs with keys[currentKeyID] and verifies
// with every key in keys. Key ids are 1 to MaxKeyIDLen bytes of ASCII letters,
// digits, '.', '_' or '-'; keys are at least MinKeyLen bytes. The key bytes
// are copied.
func NewSigner(currentKeyID string, keys map[string][]byte) (*Signer, error) {
	if len(keys) == 0 {
		return nil, errors.New("new cursor signer: no keys given")
	}
	ids := make([]string, 0, len(keys))
	for id := range keys {
		ids = append(ids, id)
	}
	sort.Strings(ids) // deterministic error reporting
	own := make(map[string][]byte, len(keys))
	for _, id := range ids {
		if err := checkKeyID(id); err != nil {
			return nil, fmt.Errorf("new cursor signer: %w", err)
		}
		k := keys[id]
		if len(k) < MinKeyLen {
			return nil, fmt.Errorf("new cursor signer: key %q is %d bytes: must be at least %d", id, len(k), MinKeyLen)
		}
		own[id] = append([]byte(nil), k...)
	}
	if currentKeyID == "" {
		return nil, errors.New("new cursor signer: current key id is empty")
	}
	if _, ok := own[currentKeyID]; !ok {
		return nil, fmt.Errorf("new cursor signer: current key id %q is not among the keys", currentKeyID)
	}
	macs := make(map[string]*sync.Pool, len(own))
	for id := range own {
		macs[id] = &sync.Pool{}
	}
	return &Signer{current: currentKeyID, keys: own, macs: macs}, nil
}

// NewProcessSigner builds a Signer with a fresh random key known only to this
// process, for single-instance servers and tests. Its cursors stop verifying
// when the process exits and are not accepted by other replicas; use NewSigner
// with shared keys when either matters.
func NewProcessSigner() (*Signer, error) {
	k := make([]byte, MinKeyLen)
	if _, err := rand.Read(k); err != nil {
		return nil, fmt.Errorf("new process cursor signer: read random key: %w", err)
	}
	return NewSigner("process", map[string][]byte{"process": k})
}

// CurrentKeyID names the key new cursors are signed with, for logs and
// rotation checks.
func (s *Signer) CurrentKeyID() string { return s.current }

func checkKeyID(id string) error {
	if id == "" || len(id) > MaxKeyIDLen {
		return fmt.Errorf("key id %q is %d bytes: must be 1 to %d", id, len(id), MaxKeyIDLen)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
		if !ok {
			return fmt.Errorf("key id %q has byte %q at %d: only ASCII letters, digits, '.', '_' and '-' are allowed", id, c, i)
		}
	}
	return nil
}

// token is a decoded cursor; its fields map one to one onto the wire layout,
// so decode followed by encode reproduces the input exactly.
type token struct {
	version byte
	keyID   string
	digest  [digestLen]byte
	after   string
	tag     [tagLen]byte
}

// body is every byte the tag covers.
func (t *token) body() []byte {
	return t.appendBody(make([]byte, 0, 2+len(t.keyID)+digestLen+len(t.after)+tagLen))
}

// appendBody appends the bytes the tag covers to b.
func (t *token) appendBody(b []byte) []byte {
	b = append(b, t.version, byte(len(t.keyID)))
	b = append(b, t.keyID...)
	b = append(b, t.digest[:]...)
	b = append(b, t.after...)
	return b
}

func (t *token) encode() string {
	// A cursor's layout fits a stack buffer unless its sort key is long.
	var raw [256]byte
	b := t.appendBody(raw[:0])
	b = append(b, t.tag[:]...)
	var text [344]byte // base64 of 256 bytes
	out := text[:0]
	if n := encoding.EncodedLen(len(b)); n > len(text) {
		out = make([]byte, 0, n)
	}
	return string(encoding.AppendEncode(out, b))
}

// tagOf is computeTag of t's body under t's key id, with a keyed HMAC
// state from the pool and the body built in that state's own buffer: a body
// handed to the hash escapes, so one built per call would be allocated per
// call.
func (s *Signer) tagOf(t *token) [tagLen]byte {
	p := s.macs[t.keyID]
	if p == nil {
		return computeTag(s.keys[t.keyID], t.body())
	}
	m := s.pooled(p, t.keyID)
	m.body = t.appendBody(m.body[:0])
	out := m.tag(m.body)
	p.Put(m)
	return out
}

// pooled is a reset HMAC state under key id, from p or new.
func (s *Signer) pooled(p *sync.Pool, id string) *pooledMAC {
	if m, _ := p.Get().(*pooledMAC); m != nil {
		m.h.Reset()
		return m
	}
	return &pooledMAC{h: hmac.New(sha256.New, s.keys[id])}
}

// pooledMAC is a keyed HMAC state with room for a body and its sum, so that
// a tag costs no allocation once the pool holds one.
type pooledMAC struct {
	h    hash.Hash
	body []byte
	sum  [sha256.Size]byte
}

func (m *pooledMAC) tag(body []byte) [tagLen]byte {
	m.h.Write(macLabelBytes)
	m.h.Write(body)
	var out [tagLen]byte
	copy(out[:], m.h.Sum(m.sum[:0]))
	return out
}

// macLabelBytes is macLabel as the bytes every tag starts with.
var macLabelBytes = []byte(macLabel)

// computeTag is the cursor tag of body under key: HMAC-SHA-256 of the
// label and the body, cut to tagLen bytes.
func computeTag(key, body []byte) [tagLen]byte {
	return (&pooledMAC{h: hmac.New(sha256.New, key)}).tag(body)
}

// decodeToken parses the wire layout without checking the tag. Its errors say
// exactly what is wrong, for tests and server-side debugging; Verify replaces
// them with MsgInvalidCursor before anything reaches a client.
func decodeToken(s string) (token, error) {
	var t token
	if len(s) < encoding.EncodedLen(minRaw) || len(s) > encoding.EncodedLen(maxRaw) {
		return t, fmt.Errorf("cursor is %d characters: must be %d to %d", len(s), encoding.EncodedLen(minRaw), encoding.EncodedLen(maxRaw))
	}
	raw, err := encoding.DecodeString(s)
	if err != nil {
		return t, fmt.Errorf("cursor is not unpadded base64url: %w", err)
	}
	// The standard decoder skips CR and LF; insisting on the canonical form
	// keeps exactly one spelling per cursor.
	if encoding.EncodeToString(raw) != s {
		return t, errors.New("cursor is not in canonical base64url form")
	}
	if len(raw) < minRaw {
		return t, fmt.Errorf("cursor decodes to %d bytes: at least %d needed", len(raw), minRaw)
	}
	t.version = raw[0]
	if t.version != FormatVersion {
		return t, fmt.Errorf("cursor format version %d: only %d is known", t.version, FormatVersion)
	}
	k := int(raw[1])
	if k == 0 || k > MaxKeyIDLen {
		return t, fmt.Errorf("cursor key id length %d: must be 1 to %d", k, MaxKeyIDLen)
	}
	if len(raw) < 2+k+digestLen+tagLen {
		return t, fmt.Errorf("cursor decodes to %d bytes: too short for a %d-byte key id", len(raw), k)
	}
	t.keyID = string(raw[2 : 2+k])
	if err := checkKeyID(t.keyID); err != nil {
		return t, fmt.Errorf("cursor: %w", err)
	}
	rest := raw[2+k:]
	copy(t.digest[:], rest[:digestLen])
	rest = rest[digestLen:]
	after := rest[:len(rest)-tagLen]
	if len(after) > MaxSortKeyLen {
		return t, fmt.Errorf("cursor sort key is %d bytes: at most %d", len(after), MaxSortKeyLen)
	}
	t.after = string(after)
	copy(t.tag[:], rest[len(rest)-tagLen:])
	return t, nil
}

// Sign returns a cursor that resumes strictly after the sort key after, bound
// to the constraint digest, under the current key. It fails only when after
// is longer than MaxSortKeyLen, which is a store bug.
func (s *Signer) Sign(after string, digest [32]byte) (string, error) {
	if s == nil {
		return "", errors.New("sign cursor: signer is nil")
	}
	if len(after) > MaxSortKeyLen {
		return "", fmt.Errorf("sign cursor: sort key is %d bytes: at most %d fit in a cursor", len(after), MaxSortKeyLen)
	}
	t := token{version: FormatVersion, keyID: s.current, after: after}
	copy(t.digest[:], digest[:digestLen])
	t.tag = s.tagOf(&t)
	return t.encode(), nil
}

// Verify checks a cursor and returns the sort key to resume after. Any
// malformed, tampered, unknown-key or wrong-version cursor yields an
// *rpcerr.InvalidParams at CursorPointer with MsgInvalidCursor; an authentic
// cursor whose digest differs from digest yields MsgCursorMismatch.
func (s *Signer) Verify(cursor string, digest [32]byte) (string, error) {
	if s == nil {
		return "", errors.New("verify cursor: signer is nil")
	}
	t, err := decodeToken(cursor)
	if err != nil {
		return "", invalidCursor()
	}
	if _, ok := s.keys[t.keyID]; !ok {
		return "", invalidCursor()
	}
	want := s.tagOf(&t)
	if !hmac.Equal(want[:], t.tag[:]) {
		return "", invalidCursor()
	}
	if subtle.ConstantTimeCompare(t.digest[:], digest[:digestLen]) != 1 {
		return "", rpcerr.Invalid(CursorPointer, "cursor", MsgCursorMismatch)
	}
	return t.after, nil
}

func invalidCursor() *rpcerr.InvalidParams {
	return rpcerr.Invalid(CursorPointer, "cursor", MsgInvalidCursor)
}
