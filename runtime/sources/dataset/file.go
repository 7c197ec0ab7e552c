package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/ucpgen/ucpgen/runtime/sources/internal/loadmem"
)

// Span is where a record's Location text lies in the dataset file it was
// parsed from, with a checksum of that text, so a server can keep a million
// Locations in the file (the operating system's page cache, not its own
// heap) and read each one when it needs it.
type Span struct {
	// Off is the byte offset of the Location's first byte ('{').
	Off int64
	// Len is the length of the Location's JSON text in bytes.
	Len int32
	// Sum is the CRC-32C (Castagnoli) of that text, checked on every read
	// so a file changed under the server is an error, never another record.
	Sum uint32
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Checksum is the Span.Sum of a Location's text.
func Checksum(text []byte) uint32 { return crc32.Checksum(text, castagnoli) }

// File is a dataset parsed from a file that stays open: its records'
// Locations are left in the file (Location nil, Span set) and read back
// with ReadLocation. It is safe for concurrent use.
type File struct {
	// Records are the file's records in file order. When the file needed
	// the strict parser, their Locations are in memory and Span is zero.
	Records []Record
	path    string
	f       *os.File
	checked bool // OpenFile enforced the identifier rules on Records
	// visitors saw Records, one per section (OpenFileWith)
	visitors []Visitor
	n        int              // records parsed, kept when Visitors took them over
	order    *IdentifierOrder // the identifier check's sort, until taken
}

// ErrChanged is wrapped by ReadLocation's error when the file no longer
// holds the text it held when it was parsed.
var ErrChanged = errors.New("the dataset file changed after it was loaded")

// OpenFile parses a dataset file like ParseFile, with the same records and
// the same errors, but keeps only each Location's Span: the file stays open
// so that ReadLocation reads the text on demand. A file of parallelFrom
// bytes or more is cut into one section per core at guessed record
// boundaries (a '{' after a ',' and a line break, as one-record-per-line
// files have), each parsed by its own goroutine; a section that does not
// end exactly where the next begins (a guess inside a record) makes the
// whole file parse again in one section, so the result never depends on
// the guesses. A file the fast path declines is read whole and given to
// Parse, and its Locations stay in memory.
//
// The file must not be modified while the server runs: every read is
// checked against the text's checksum, and a mismatch is an ErrChanged
// error naming the record.
func OpenFile(path string) (*File, error) {
	return OpenFileWith(path, 0, nil)
}

// Visitor is shown the records of one section of a file OpenFileWith
// parses, so a caller that must read every Location (to validate or index
// it) does so while the text is in memory instead of reading the file
// again.
type Visitor interface {
	// Visit is called for each record of the section in file order, on
	// the section's goroutine, with its Span set and Location nil; loc is
	// the Location's text, valid only during the call. Records holds rec
	// as Visit leaves it, so a Visitor may drop what it has taken over.
	Visit(rec *Record, loc []byte)
}

// LocationParser is a Visitor that parses every Location it is shown as
// JSON at least as strictly as this package does (valid UTF-8, valid
// escapes and numbers, no member name twice), such as a decoder that
// validates each Location against its schema. Its sections' scan then
// only finds where each Location ends instead of checking it first, so
// the text is read once: about 6% of a light load's instructions.
type LocationParser interface {
	Visitor
	// VisitUnchecked is Visit for a Location the scan has not checked.
	// It reports false, having changed nothing, when it cannot take the
	// record (loc does not parse, or the record is otherwise refused); the
	// scan then checks loc as it would have and, when loc passes, shows
	// the record to Visit, so an error reads exactly as without the
	// shortcut.
	VisitUnchecked(rec *Record, loc []byte) bool
}

// LocationReader is a LocationParser that parses each Location where the
// scan finds it, so that the scan need not first find where the Location
// ends: the text is read once instead of twice (about an eighth of a light
// load's instructions).
type LocationReader interface {
	LocationParser
	// ReadLocation parses the Location at the start of b, which the rest
	// of the record and of the file may follow, and returns its length and
	// its id (a copy). It holds what it parsed for the VisitUnchecked of
	// b[:n] that follows, if any. It reports false when it cannot: b holds
	// no whole Location, the text is not JSON, or the id is not a plain
	// non-empty string; the scan then reads the Location as for any
	// LocationParser, so nothing it refuses reads differently.
	ReadLocation(b []byte) (n int, id string, ok bool)
}

// RecordKeeper is a Visitor that keeps what it needs of each record it is
// shown, so OpenFileWith need not copy a million records into one slice
// only for the caller to drop them: when every Visitor of a parse is one,
// the File has no Records (Len says how many the file held), and the
// identifier rules are still checked over all of them.
type RecordKeeper interface {
	Visitor
	// KeepsRecords reports whether the Visitor keeps what it needs.
	KeepsRecords() bool
}

// keepers reports whether every Visitor of vs keeps what it needs.
func keepers(vs []Visitor) bool {
	for _, v := range vs {
		if k, ok := v.(RecordKeeper); !ok || !k.KeepsRecords() {
			return false
		}
	}
	return len(vs) > 0
}

// OpenFileWith is OpenFile that shows each record to the Visitor of its
// section, made by newVisitor (nil: no visits), which is called one section
// at a time, before the sections are parsed; File.Visitors returns the ones whose sections make up Records. sections
// is how many sections to cut the file into whatever its size (0: one per
// core for a file of parallelFrom bytes or more, else one). Visitors of a
// parse that is thrown away (a wrong guess, or a file the fast path
// declines) are dropped, and no Visitor sees a strictly parsed file.
func OpenFileWith(path string, sections int, newVisitor func() Visitor) (*File, error) {
	f, size, err := openSized(path)
	if err != nil {
		return nil, err
	}
	if size >= largeFile {
		defer loadmem.Limit()()
	}
	parts := sections
	if parts <= 0 {
		parts = 1
		if size >= parallelFrom {
			parts = runtime.GOMAXPROCS(0) * sectionsPerCore
		}
	}
	parsed, err := visitSections(f, size, parts, newVisitor)
	recs, visitors, ok := parsed.recs, parsed.visitors, parsed.ok
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if !ok {
		f.Close()
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		recs, err := Parse(data)
		if err != nil {
			return nil, err
		}
		return &File{Records: recs, path: path, checked: true}, nil
	}
	if parsed.idErr != nil {
		f.Close()
		return nil, parsed.idErr
	}
	return &File{Records: recs, path: path, f: f, checked: true, visitors: visitors, n: parsed.n, order: parsed.order}, nil
}

// TakeIdentifierOrder returns the order in which the identifier rules'
// check sorted the records' ids and aliases, when OpenFileWith's Visitors
// kept the records and the file was large enough to be checked by a sort,
// and nil otherwise; the File lets go of it, so that a source building its
// own index from it does not hold it twice.
func (df *File) TakeIdentifierOrder() *IdentifierOrder {
	o := df.order
	df.order = nil
	return o
}

// Visitors returns the Visitors that saw Records, one per section in file
// order, or nil when none did.
func (df *File) Visitors() []Visitor { return df.visitors }

// Len is the number of records the file held when it was parsed, so a
// caller whose RecordKeepers took the records over (Records nil) can still
// number them.
func (df *File) Len() int {
	if df.Records != nil || df.visitors == nil {
		return len(df.Records)
	}
	return df.n
}

// parallelFrom is the smallest file cut into sections; a variable so tests
// can cut small files.
var parallelFrom int64 = 8 << 20

// sectionsPerCore is how many sections OpenFileWith cuts a large file into
// per core by default. The sections are parsed at most one per core at a
// time, in file order, so a core that finishes its section early takes the
// next one: with one section per core, a core slowed down (by the
// collector, or by another process) left the other idle for seconds at
// the end of a million-store load.
const sectionsPerCore = 4

// parseSections parses f in up to parts sections on as many goroutines
// (one when f is smaller than parallelFrom), falling back to one section
// when a guessed boundary was wrong; ok is false when the file needs the
// strict path.
func parseSections(f *os.File, size int64, parts int) ([]Record, bool, error) {
	if size < parallelFrom {
		parts = 1
	}
	parsed, err := visitSections(f, size, parts, nil)
	return parsed.recs, parsed.ok, err
}

// visitSections is parseSections into exactly parts sections (fewer when
// no boundary is found), parsed by at most GOMAXPROCS goroutines at a
// time, taking the sections in file order; it shows each record to its
// section's Visitor and returns the kept sections' Visitors (when
// newVisitor is not nil) in file order, with the identifier rules' error
// (checkIdentifiers), checked while the sections are put together.
func visitSections(f *os.File, size int64, parts int, newVisitor func() Visitor) (sectioned, error) {
	starts := []int64{0}
	if parts > 1 {
		starts = guessBoundaries(f, size, parts)
	}
	if len(starts) > 1 {
		results := make([][][]Record, len(starts)) // each section's blocks
		idResults := make([][][]identity, len(starts))
		visitors := make([]Visitor, len(starts))
		oks := make([]bool, len(starts))
		errs := make([]error, len(starts))
		secs := make([]section, len(starts))
		for k, base := range starts {
			sec := section{base: base, first: k == 0, last: k == len(starts)-1, spans: true}
			if !sec.last {
				sec.stop = starts[k+1]
			}
			sec.r = io.NewSectionReader(f, base, size-base)
			if newVisitor != nil {
				sec.visit = newVisitor()
				visitors[k] = sec.visit
			}
			secs[k] = sec
		}
		idsOnly := keepers(visitors)
		for k := range secs {
			secs[k].idsOnly = idsOnly
		}
		var next atomic.Int64 // the next section to parse
		var wg sync.WaitGroup
		for range min(len(secs), max(1, runtime.GOMAXPROCS(0))) {
			wg.Go(func() {
				var window []byte // one read buffer for this goroutine's sections
				for {
					k := int(next.Add(1) - 1)
					if k >= len(secs) {
						return
					}
					secs[k].window = &window
					results[k], idResults[k], oks[k], errs[k] = parseBlocks(secs[k])
				}
			})
		}
		wg.Wait()
		all := true
		var blocks [][]Record
		var ids [][]identity
		for k := range starts {
			if errs[k] != nil {
				return sectioned{}, errs[k]
			}
			all = all && oks[k]
			blocks = append(blocks, results[k]...)
			ids = append(ids, idResults[k]...)
		}
		if all && idsOnly {
			// Nothing to copy: the identifier rules get every core.
			return kept(visitors, ids), nil
		}
		if all {
			var idErr error
			checked := make(chan struct{})
			go func() {
				defer close(checked)
				idErr = checkSectionIdentifiers(blocks)
			}()
			recs := concatBlocks(blocks)
			<-checked
			if newVisitor == nil {
				visitors = nil
			}
			return sectioned{recs: recs, visitors: visitors, idErr: idErr, ok: true, n: len(recs)}, nil
		}
	}
	sec := section{r: io.NewSectionReader(f, 0, size), first: true, last: true, spans: true}
	var visitors []Visitor
	if newVisitor != nil {
		sec.visit = newVisitor()
		visitors = []Visitor{sec.visit}
	}
	if keepers(visitors) {
		sec.idsOnly = true
		_, ids, ok, err := parseBlocks(sec)
		if !ok || err != nil {
			return sectioned{ok: ok}, err
		}
		return kept(visitors, ids), nil
	}
	recs, ok, err := parsePart(sec)
	if !ok || err != nil {
		return sectioned{recs: recs, ok: ok}, err
	}
	return sectioned{recs: recs, visitors: visitors, idErr: checkIdentifiers(recs), ok: true, n: len(recs)}, nil
}

// kept is what visitSections parsed when its RecordKeepers took the
// records over: no Records, their number, and the identifier rules' error
// over the identities ids (or the order their sort found).
func kept(visitors []Visitor, ids [][]identity) sectioned {
	order, err := orderIdentifiers(ids)
	return sectioned{visitors: visitors, idErr: err, order: order, ok: true, n: countBlocks(ids)}
}

// countBlocks is the number of records in blocks.
func countBlocks[R any](blocks [][]R) int {
	n := 0
	for _, b := range blocks {
		n += len(b)
	}
	return n
}

// sectioned is what visitSections parsed: the records (nil when the
// Visitors kept them), their number, the Visitors that saw them, the
// identifier rules' error, and whether the fast path took the file (ok).
type sectioned struct {
	recs     []Record
	n        int
	visitors []Visitor
	idErr    error
	order    *IdentifierOrder // kept's sort, when it cleared the records
	ok       bool
}

// guessBoundaries returns the first section's start (0) and, for each
// further section, the offset of a '{' preceded by ',' and a line break
// after an even share of the file; it returns fewer when no such byte is
// found near a share's start.
func guessBoundaries(f *os.File, size int64, parts int) []int64 {
	starts := []int64{0}
	buf := make([]byte, 1<<20)
	for k := 1; k < parts; k++ {
		at := size * int64(k) / int64(parts)
		if at <= starts[len(starts)-1] {
			continue
		}
		n, err := f.ReadAt(buf, at)
		if err != nil && !errors.Is(err, io.EOF) {
			break
		}
		b := buf[:n]
		i := bytes.Index(b, []byte(",\n"))
		for i >= 0 {
			j := i + 2
			for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\r' || b[j] == '\n') {
				j++
			}
			if j < len(b) && b[j] == '{' {
				starts = append(starts, at+int64(j))
				break
			}
			next := bytes.Index(b[i+1:], []byte(",\n"))
			if next < 0 {
				i = -1
			} else {
				i += 1 + next
			}
		}
	}
	return starts
}

// ReadLocation returns record i's Location text: the record's own when it
// is in memory, else read from the file into buf (grown as needed) and
// checked against its Span's checksum.
func (df *File) ReadLocation(i int, buf []byte) ([]byte, error) {
	if i < 0 || i >= len(df.Records) {
		return nil, fmt.Errorf("dataset %s: no record %d in memory (%d held); read a taken-over record's text with ReadSpan", df.path, i, len(df.Records))
	}
	r := &df.Records[i]
	if r.Location != nil || df.f == nil {
		return r.Location, nil
	}
	return df.ReadSpan(r.Span, buf)
}

// ReadSpan reads the text sp locates, as ReadLocation does; the error
// names the span's offset and says the file changed when the text's
// checksum is not the one parsed.
func (df *File) ReadSpan(sp Span, buf []byte) ([]byte, error) {
	if df.f == nil {
		return nil, fmt.Errorf("dataset %s: no file to read location text at byte %d from", df.path, sp.Off)
	}
	if cap(buf) < int(sp.Len) {
		buf = make([]byte, sp.Len)
	}
	buf = buf[:sp.Len]
	if _, err := df.f.ReadAt(buf, sp.Off); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("dataset %s: location text at byte %d: %w (the file is shorter)", df.path, sp.Off, ErrChanged)
		}
		return nil, fmt.Errorf("dataset %s: read location text at byte %d: %w", df.path, sp.Off, err)
	}
	if Checksum(buf) != sp.Sum {
		return nil, fmt.Errorf("dataset %s: location text at byte %d: %w (checksum mismatch); restart the server to load the new file", df.path, sp.Off, ErrChanged)
	}
	return buf, nil
}

// Checked reports whether the Records passed Parse's identifier rules (one
// namespace for ids and aliases), as they do when OpenFile made them, so a
// caller need not check them again.
func (df *File) Checked() bool { return df.checked }

// Path is the file's name as opened.
func (df *File) Path() string { return df.path }

// Close closes the file; ReadLocation fails afterwards for records whose
// Location is in the file.
func (df *File) Close() error {
	if df.f == nil {
		return nil
	}
	return df.f.Close()
}
