package schemacheck

import (
	"strings"
	"sync"
	"sync/atomic"
)

// Passed remembers texts of arrays whose items all passed their check, so
// that an array that repeats word for word (the same opening hours across
// a chain's stores, a million times in a large dataset) has its items
// checked once. A check depends only on the value, and equal texts are
// equal values, so skipping a text seen to pass changes no outcome. It
// holds about passedMax texts of at most passedLongest bytes, the first
// ones it is given, so its memory stays bounded whatever it is shown. The
// zero value is ready; it is safe for concurrent use.
type Passed struct {
	texts sync.Map // text -> struct{}
	n     atomic.Int32
}

// passedMax and passedLongest bound what a Passed holds: about 8 MiB.
const (
	passedMax     = 4096
	passedLongest = 2048
)

// Has reports whether text passed before.
func (p *Passed) Has(text string) bool {
	if len(text) > passedLongest {
		return false
	}
	_, ok := p.texts.Load(text)
	return ok
}

// Add remembers that text passed, while there is room.
func (p *Passed) Add(text string) {
	if len(text) > passedLongest || p.n.Load() >= passedMax {
		return
	}
	if _, seen := p.texts.LoadOrStore(strings.Clone(text), struct{}{}); !seen {
		p.n.Add(1)
	}
}
