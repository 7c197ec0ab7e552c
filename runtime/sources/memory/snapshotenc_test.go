package memory

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"
)

// TestEncPieces: whatever is appended to an enc, in however many pieces
// it ends up, reads back as the bytes one growing slice would hold, and
// released pieces are reused without leaking old bytes into the new ones.
func TestEncPieces(t *testing.T) {
	type op struct {
		kind string // uv, u32, f64, byte, bytes, str
		n    uint64 // the integer, or the length of the bytes
	}
	big := func(n int) []byte { return bytes.Repeat([]byte("abcdefg"), n/7+1)[:n] }
	apply := func(e *enc, want *[]byte, o op) {
		switch o.kind {
		case "uv":
			e.uv(o.n)
			*want = binary.AppendUvarint(*want, o.n)
		case "u32":
			e.u32(uint32(o.n))
			*want = binary.LittleEndian.AppendUint32(*want, uint32(o.n))
		case "f64":
			e.f64(float64(o.n) / 3)
			*want = binary.LittleEndian.AppendUint64(*want, math.Float64bits(float64(o.n)/3))
		case "byte":
			e.byte1(byte(o.n))
			*want = append(*want, byte(o.n))
		case "bytes":
			e.bytes(big(int(o.n)))
			*want = append(*want, big(int(o.n))...)
		case "str":
			e.str(string(big(int(o.n))))
			*want = append(*want, big(int(o.n))...)
		}
	}
	repeat := func(n int, o op) []op {
		out := make([]op, n)
		for i := range out {
			out[i] = o
		}
		return out
	}
	tests := []struct {
		name   string
		ops    []op
		pieces int // at least this many pieces
	}{
		{"empty", nil, 0},
		{"small", []op{{"uv", 300}, {"u32", 7}, {"f64", 1}, {"byte", 9}, {"str", 5}, {"bytes", 3}}, 1},
		{"varints past a piece", repeat(encPiece/3+10, op{"uv", math.MaxUint64}), 3},
		{"fixed width past a piece", repeat(encPiece/8+3, op{"f64", 12345}), 2},
		{"one string larger than a piece", []op{{"byte", 1}, {"str", 3*encPiece + 17}, {"uv", 1 << 40}}, 4},
		{"bytes across the boundary", append(repeat(encPiece-3, op{"byte", 5}), op{"bytes", 10}, op{"u32", 1 << 31}), 2},
		{"string exactly to the boundary", []op{{"str", encPiece}, {"str", encPiece}, {"byte", 2}}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var spare [][]byte
			for round := range 3 { // the later rounds reuse the first one's pieces
				e := enc{spare: &spare}
				var want []byte
				for _, o := range tc.ops {
					apply(&e, &want, o)
				}
				var got []byte
				pieces := 0
				e.each(func(p []byte) {
					got = append(got, p...)
					pieces++
				})
				if !bytes.Equal(got, want) {
					t.Fatalf("round %d: %d bytes differ from the %d expected", round, len(got), len(want))
				}
				if e.len() != len(want) {
					t.Fatalf("round %d: len %d, want %d", round, e.len(), len(want))
				}
				if !bytes.Equal(e.flat(), want) {
					t.Fatalf("round %d: flat differs", round)
				}
				if pieces < tc.pieces {
					t.Fatalf("round %d: %d pieces, want at least %d", round, pieces, tc.pieces)
				}
				for k, p := range e.full {
					if cap(p) > encPiece || (k > 0 && cap(p) != encPiece) {
						t.Fatalf("round %d: piece %d of %d bytes (capacity %d)", round, k, len(p), cap(p))
					}
				}
				e.release()
				if e.len() != 0 || e.spare != &spare {
					t.Fatalf("round %d: release left %d bytes", round, e.len())
				}
			}
		})
	}
}
