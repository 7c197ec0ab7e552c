package memory

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/storegen"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
	"github.com/ucpgen/ucpgen/runtime/sources/textrank"
)

// BenchmarkTextPart is the text index's share of a load: the searchable
// text of 100,000 light stores (storegen's, as loadbench -shape light
// writes them) added to one textrank.Part, as one section of a file load
// does.
func BenchmarkTextPart(b *testing.B) {
	fields := lightTexts(b, 100_000)
	b.ResetTimer()
	for b.Loop() {
		p := textrank.NewPart()
		for _, f := range fields {
			p.Add(f)
		}
	}
}

// BenchmarkTextJoin is the text index's share of a load's tail: the
// searchable text of 200,000 light stores added to eight parts, as eight
// sections hold it, joined in id order.
func BenchmarkTextJoin(b *testing.B) {
	const parts = 8
	fields := lightTexts(b, 200_000)
	// Storegen's ids are random, so id order is a shuffle of file order.
	per := len(fields) / parts
	order := make([]int32, per*parts)
	for i, p := range rand.New(rand.NewPCG(1, 2)).Perm(len(order)) {
		order[i] = int32(p)
	}
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		ps := make([]*textrank.Part, parts)
		for k := range ps {
			ps[k] = textrank.NewPart()
			for _, f := range fields[k*per : (k+1)*per] {
				ps[k].Add(f)
			}
		}
		b.StartTimer()
		if _, err := textrank.Join(ps, order); err != nil {
			b.Fatal(err)
		}
	}
}

// lightTexts returns the searchable text of n light stores, as loadbench
// -shape light writes them.
func lightTexts(b *testing.B, n int) []textrank.Fields {
	b.Helper()
	var buf bytes.Buffer
	if err := storegen.GenerateShapeTo(&buf, storegen.DefaultSeed, n, storegen.Light); err != nil {
		b.Fatal(err)
	}
	recs, err := dataset.Parse(buf.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	fields := make([]textrank.Fields, 0, len(recs))
	for _, r := range recs {
		loc, err := location.DecodeLocation(r.Location)
		if err != nil {
			b.Fatal(err)
		}
		fields = append(fields, TextFields(loc))
	}
	return fields
}

// BenchmarkOpenFileLight is a whole file load in process: OpenFile over
// 20,000 light stores (parse, validation, indexes), the work of a start
// without the server around it, small enough to count instructions under
// callgrind.
func BenchmarkOpenFileLight(b *testing.B) { benchOpenFile(b, 20_000, storegen.Light) }

// BenchmarkOpenFileFull is BenchmarkOpenFileLight over 10,000 stores of
// the full shape (exception hours, amenities, items, service areas).
func BenchmarkOpenFileFull(b *testing.B) { benchOpenFile(b, 10_000, storegen.Full) }

// benchOpenFile times OpenFile over a generated file of n stores.
func benchOpenFile(b *testing.B, n int, shape storegen.Shape) {
	var buf bytes.Buffer
	if err := storegen.GenerateShapeTo(&buf, storegen.DefaultSeed, n, shape); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "stores.json")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		src, err := OpenFile(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		src.Close()
	}
}
