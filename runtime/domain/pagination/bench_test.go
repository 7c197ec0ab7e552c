package pagination

import (
	"crypto/hmac"
	"crypto/sha256"
	"testing"
)

// BenchmarkCursor measures signing and verifying a typical cursor against the
// named baseline "hmac-sha256": one bare HMAC-SHA256 over a body of the same
// size, the unavoidable cost of an authenticated cursor.
func BenchmarkCursor(b *testing.B) {
	s := mustSigner(b, "k1", map[string][]byte{"k1": testKey(1)})
	c := mustSign(b, s, "0000000042", digestA)
	body := make([]byte, 46)
	key := testKey(1)
	b.Run("baseline=hmac-sha256", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m := hmac.New(sha256.New, key)
			m.Write(body)
			m.Sum(nil)
		}
	})
	b.Run("sign", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.Sign("0000000042", digestA); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("verify", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.Verify(c, digestA); err != nil {
				b.Fatal(err)
			}
		}
	})
}
