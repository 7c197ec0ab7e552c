package dataset

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/ucpgen/ucpgen/runtime/sources/internal/loadmem"
)

// ParseFile reads and parses a dataset file like Parse, without holding the
// whole file: it reads it in blocks, and copies each Location's text into
// shared blocks of its own, so the memory it keeps is what the records need
// (the Locations, about four fifths of a generated file) rather than the file
// plus the records. A file the fast path declines is read whole and given to
// Parse, so errors are exactly Parse's.
func ParseFile(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.Size() >= largeFile {
		// The records grow the live heap steadily; a soft limit while they
		// do keeps garbage from reaching their size again.
		defer loadmem.Limit()()
	}
	recs, ok, err := parseStream(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if !ok {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return Parse(data)
	}
	if err := checkIdentifiers(recs); err != nil {
		return nil, err
	}
	return recs, nil
}

// A file of largeFile bytes or more is parsed under loadmem's soft memory
// limit.
const largeFile = 64 << 20

// Block sizes; variables so tests can make every boundary occur.
var (
	streamBlock = 16 << 20 // bytes read at a time
	arenaBlock  = 16 << 20 // bytes of Location text per shared block
	recsBlock   = 1 << 16  // records per block before the final copy
)

// firstBlock is the size of a section's first block of records.
const firstBlock = 1 << 10

// stream is a window on a reader: b[i:] is unread, more may follow.
type stream struct {
	r   io.Reader
	b   []byte
	i   int
	off int64 // file offset of b[0]
	eof bool
	// sc is the scanner scan hands its function: one the stream holds,
	// as a scanner made for each call would escape (the function is a
	// value) and cost an allocation a record.
	sc scanner
}

// fill keeps the unread bytes and reads more; false when nothing more can
// be read.
func (st *stream) fill() (bool, error) {
	if st.eof {
		return false, nil
	}
	st.off += int64(st.i)
	n := copy(st.b[:cap(st.b)], st.b[st.i:])
	if n == cap(st.b) { // one element fills the window: widen it
		nb := make([]byte, n, 2*cap(st.b))
		copy(nb, st.b[:n])
		st.b = nb
	}
	st.b, st.i = st.b[:n], 0
	m, err := io.ReadFull(st.r, st.b[n:cap(st.b)])
	st.b = st.b[:n+m]
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		st.eof = true
		err = nil
	}
	return m > 0, err
}

// scan runs f on a scanner over the unread bytes, refilling and retrying
// until f succeeds or the input ends; the bytes f consumed are then read.
func (st *stream) scan(f func(s *scanner) bool) (bool, error) {
	for {
		s := &st.sc
		*s = scanner{b: st.b, i: st.i}
		if f(s) && (s.i < len(s.b) || st.eof) {
			st.i = s.i
			return true, nil
		}
		more, err := st.fill()
		if err != nil || !more {
			return false, err
		}
	}
}

// next skips whitespace, reading more as needed, and returns the next byte
// without consuming it (0 at the end of the input).
func (st *stream) next() (byte, error) {
	ok, err := st.scan(func(s *scanner) bool { return s.peek() != 0 })
	if err != nil || !ok {
		return 0, err
	}
	return st.b[st.i], nil
}

// parseStream is parseFast over a reader; ok is false when the input needs
// the strict path.
func parseStream(r io.Reader) (recs []Record, ok bool, err error) {
	return parsePart(section{r: r, first: true, last: true})
}

// section is the part of a dataset file one goroutine parses: from base
// (the array's '[' when first, else a record's '{') up to stop, the offset
// of the next section's first record (or the end of the array when last).
type section struct {
	r           io.Reader
	base, stop  int64
	first, last bool
	// spans keeps each Location as its place in the file (Record.Span)
	// instead of copying its text.
	spans bool
	// visit, when not nil, is shown each record (spans only).
	visit Visitor
	// idsOnly keeps only each record's identity once visit has seen it:
	// the Visitors keep the rest (RecordKeeper).
	idsOnly bool
	// window, when not nil, is a read buffer the goroutine parsing the
	// section reuses from section to section: nothing parsed keeps a slice
	// of it (a Visitor's loc is valid only during its call).
	window *[]byte
}

// windowSlack is what a window holds beyond its section, so the section's
// end and the byte after it are read without a second fill.
const windowSlack = 4 << 10

// newWindow is sec's read buffer: its reused window when that is large
// enough, else a new one of streamBlock bytes, or of the section's length
// when that is shorter (a small file's sections would each have zeroed
// 16 MB).
func (sec section) newWindow() []byte {
	n := streamBlock
	if sec.stop > sec.base {
		n = int(min(int64(n), sec.stop-sec.base+windowSlack))
	} else if r, ok := sec.r.(interface{ Size() int64 }); ok && r.Size() >= 0 {
		n = int(min(int64(n), r.Size()+windowSlack)) // the last section: the rest of the file
	}
	if sec.window != nil && cap(*sec.window) >= n {
		return (*sec.window)[:0]
	}
	return make([]byte, 0, n)
}

// parsePart is parseStream over one section; ok is false when the section
// needs the strict path, or when it does not end exactly at stop (the
// guessed boundary was not a record's start).
func parsePart(sec section) (recs []Record, ok bool, err error) {
	blocks, _, ok, err := parseBlocks(sec)
	if !ok || err != nil {
		return nil, ok, err
	}
	return concatBlocks(blocks), true, nil
}

// concatBlocks returns the records of blocks one after the other.
func concatBlocks(blocks [][]Record) []Record {
	n := 0
	for _, b := range blocks {
		n += len(b)
	}
	recs := make([]Record, 0, n)
	for _, b := range blocks {
		recs = append(recs, b...)
	}
	return recs
}

// parseBlocks is parsePart leaving the records in the blocks they were
// parsed into, in order, so the records of many sections are copied into
// one slice once; with sec.idsOnly, it keeps their identities instead.
func parseBlocks(sec section) (blocks [][]Record, ids [][]identity, ok bool, err error) {
	st := &stream{r: sec.r, b: sec.newWindow(), off: sec.base}
	if sec.window != nil {
		defer func() { *sec.window = st.b[:0] }()
	}
	in := &interner{strs: map[string]string{}, areas: map[string]*ServiceArea{}}
	var arena []byte
	keep := func(loc []byte) []byte {
		if len(arena)+len(loc) > cap(arena) {
			arena = make([]byte, 0, max(arenaBlock, len(loc)))
		}
		n := len(arena)
		arena = append(arena, loc...)
		return arena[n:len(arena):len(arena)]
	}
	parser, _ := sec.visit.(LocationParser)
	var reader LocationReader
	if sec.spans {
		reader, _ = sec.visit.(LocationReader)
	}
	empty := false
	if sec.first {
		if b, err := st.next(); b != '[' || err != nil {
			return nil, nil, false, err
		}
		st.i++
		b, err := st.next()
		if err != nil {
			return nil, nil, false, err
		}
		empty = b == ']'
		if empty {
			st.i++
		}
	}
	for !empty {
		var rec Record
		declined := false
		ok, err := st.scan(func(s *scanner) bool {
			start := s.peekPos()
			// One pass when the record is plain and complete; only when
			// it is not does value tell a record cut off by the window
			// (read more, try again) from one the fast path declines.
			rec = Record{}
			r := &scanner{b: s.b, i: start, delimit: parser != nil && sec.spans, reader: reader}
			if fastRecord(r, in, &rec) {
				s.i = r.i
				return true
			}
			if _, ok := s.value(1); !ok {
				return false // invalid, or not all read yet
			}
			declined = true
			return true
		})
		if err != nil || !ok || declined {
			return nil, nil, false, err
		}
		if sec.spans {
			loc := rec.Location
			rec.Span = Span{Off: st.off + int64(in.loc), Len: int32(len(loc)), Sum: Checksum(loc)}
			rec.Location = nil
			if sec.visit != nil && (parser == nil || !parser.VisitUnchecked(&rec, loc)) {
				// A Location the parser refused is checked now, as the
				// scan would have: one it declines sends the section to
				// the strict path.
				if parser != nil && !checkedLocation(loc, in) {
					return nil, nil, false, nil
				}
				sec.visit.Visit(&rec, loc)
			}
		} else {
			rec.Location = keep(rec.Location)
		}
		if sec.idsOnly {
			ids = appendBlocked(ids, identity{id: rec.ID, aliases: rec.Aliases})
		} else {
			blocks = appendBlocked(blocks, rec)
		}
		b, err := st.next()
		if err != nil || b != ',' && b != ']' {
			return nil, nil, false, err
		}
		st.i++
		if b == ']' {
			if !sec.last {
				return nil, nil, false, nil
			}
			break
		}
		if !sec.last {
			if _, err := st.next(); err != nil {
				return nil, nil, false, err
			}
			if at := st.off + int64(st.i); at >= sec.stop {
				if at != sec.stop {
					return nil, nil, false, nil
				}
				break
			}
		}
	}
	// Only whitespace may follow the array.
	for sec.last {
		s := &scanner{b: st.b, i: st.i}
		if s.ws(); s.i != len(s.b) {
			return nil, nil, false, nil
		}
		st.i = s.i
		more, err := st.fill()
		if err != nil {
			return nil, nil, false, err
		}
		if !more {
			break
		}
	}
	return blocks, ids, true, nil
}

// appendBlocked appends v to the last of blocks, starting a new block
// when it is full, so a section grows without copying: the first block
// holds firstBlock values and each next one twice the last, up to
// recsBlock, so a small section does not reserve recsBlock.
func appendBlocked[T any](blocks [][]T, v T) [][]T {
	if len(blocks) == 0 {
		blocks = append(blocks, make([]T, 0, min(firstBlock, recsBlock)))
	} else if last := blocks[len(blocks)-1]; len(last) == cap(last) {
		blocks = append(blocks, make([]T, 0, min(2*cap(last), recsBlock)))
	}
	last := &blocks[len(blocks)-1]
	*last = append(*last, v)
	return blocks
}

// peekPos is the position of the next non-space byte.
func (s *scanner) peekPos() int {
	s.ws()
	return s.i
}

// checkedLocation reports whether the scan, checking values, accepts loc
// as a whole Location: what it skipped for a LocationParser.
func checkedLocation(loc []byte, in *interner) bool {
	s := &scanner{b: loc}
	var rec Record
	at := in.loc
	ok := fastLocation(s, in, &rec) && s.i == len(loc)
	in.loc = at
	return ok
}
