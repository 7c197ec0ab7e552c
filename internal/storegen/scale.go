package storegen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
)

// GenerateTo streams a dataset of exactly n stores to w, so benchmarks can
// measure the store finder at sizes far beyond the committed file without
// holding the whole file in memory. Each metro gets a share of n in
// proportion to its share of the default dataset (the same density model,
// scaled), and stores keep unique ids and aliases at any size. The output is
// a pure function of seed and n, in the committed file's format.
func GenerateTo(w io.Writer, seed uint64, n int) error {
	if n < 1 {
		return fmt.Errorf("store count %d: must be at least 1", n)
	}
	base := 0
	for i := range metros {
		base += metros[i].stores
	}
	g := &generator{
		rng:    rand.NewPCG(seed, seed^0x9e3779b97f4a7c15),
		ids:    map[string]bool{},
		names:  map[string]int{},
		legacy: map[string]int{},
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	var line bytes.Buffer
	enc := json.NewEncoder(&line)
	enc.SetEscapeHTML(false)
	bw.WriteString("[\n")
	written := 0
	for mi := range metros {
		m := &metros[mi]
		// The last metro takes the rounding remainder so the total is n.
		share := n * m.stores / base
		if mi == len(metros)-1 {
			share = n - written
		}
		total := 0
		for _, l := range m.localities {
			total += l.weight
		}
		for range share {
			w := g.intn(total)
			li := 0
			for w >= m.localities[li].weight {
				w -= m.localities[li].weight
				li++
			}
			rec := g.store(m, &m.localities[li])
			if err := checkSchedule(&rec.Location); err != nil {
				return fmt.Errorf("generated store %s: %w", rec.Location.ID, err)
			}
			if written > 0 {
				bw.WriteString(",\n")
			}
			line.Reset()
			if err := enc.Encode(&rec); err != nil {
				return fmt.Errorf("encode store %s: %w", rec.Location.ID, err)
			}
			bw.Write(bytes.TrimSuffix(line.Bytes(), []byte("\n")))
			written++
		}
	}
	bw.WriteString("\n]\n")
	return bw.Flush()
}
