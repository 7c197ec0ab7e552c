package dataset

import (
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"
)

// Fingerprint identifies a dataset file's exact contents: its size and the
// CRC-32C of each block, so whatever was derived from the file (a store's
// snapshot) can be checked against it on every core at once.
type Fingerprint struct {
	// Size is the file's length in bytes.
	Size int64
	// Block is the length of every block but the last.
	Block int64
	// Sums holds the CRC-32C of each block, in file order.
	Sums []uint32
}

// fingerprintBlock is the block length of new fingerprints: large enough
// that the sums are a few hundred bytes for a gigabyte, small enough to
// split the work between cores.
const fingerprintBlock = 32 << 20

// Equal reports whether two fingerprints describe the same contents.
func (fp Fingerprint) Equal(o Fingerprint) bool {
	return fp.Size == o.Size && fp.Block == o.Block && slices.Equal(fp.Sums, o.Sums)
}

// FingerprintOf reads the whole of f (size bytes) and returns its
// fingerprint with the given block length.
func FingerprintOf(f io.ReaderAt, size, block int64) (Fingerprint, error) {
	if size < 0 || block <= 0 {
		return Fingerprint{}, fmt.Errorf("fingerprint: size %d, block %d", size, block)
	}
	fp := Fingerprint{Size: size, Block: block, Sums: make([]uint32, (size+block-1)/block)}
	errs := make([]error, len(fp.Sums))
	next := make(chan int, len(fp.Sums))
	for b := range fp.Sums {
		next <- b
	}
	close(next)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(1, len(fp.Sums))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 1<<20)
			for b := range next {
				lo := int64(b) * block
				hi := min(lo+block, size)
				var sum uint32
				for at := lo; at < hi; {
					n := int(min(int64(len(buf)), hi-at))
					if _, err := f.ReadAt(buf[:n], at); err != nil {
						if errors.Is(err, io.EOF) {
							err = fmt.Errorf("%w (the file is shorter than %d bytes)", ErrChanged, size)
						}
						errs[b] = err
						break
					}
					sum = crc32.Update(sum, castagnoli, buf[:n])
					at += int64(n)
				}
				fp.Sums[b] = sum
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return Fingerprint{}, err
	}
	return fp, nil
}

// FileFingerprint returns the fingerprint of the file at path.
func FileFingerprint(path string) (Fingerprint, error) {
	f, size, err := openSized(path)
	if err != nil {
		return Fingerprint{}, err
	}
	defer f.Close()
	fp, err := FingerprintOf(f, size, fingerprintBlock)
	if err != nil {
		return Fingerprint{}, fmt.Errorf("read %s: %w", path, err)
	}
	return fp, nil
}

// ErrOtherContents is wrapped by OpenKnown's error when the file is not the
// one the fingerprint was taken of.
var ErrOtherContents = errors.New("the file's contents differ from the fingerprint")

// OpenKnown opens a dataset file that was parsed before, whose fingerprint
// was taken then, without parsing it again: it reads the file once to check
// the fingerprint and returns a File with no Records whose ReadSpan reads
// the Locations of that earlier parse. The identifier rules are taken as
// checked, since they held for those contents.
func OpenKnown(path string, want Fingerprint) (*File, error) {
	f, size, err := openSized(path)
	if err != nil {
		return nil, err
	}
	if size != want.Size {
		f.Close()
		return nil, fmt.Errorf("dataset %s: %w (%d bytes, not %d)", path, ErrOtherContents, size, want.Size)
	}
	got, err := FingerprintOf(f, want.Size, want.Block)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if !got.Equal(want) {
		f.Close()
		return nil, fmt.Errorf("dataset %s: %w", path, ErrOtherContents)
	}
	return &File{path: path, f: f, checked: true}, nil
}

// InFile reports whether every record's Location is in the file (at its
// Span) rather than in memory, as after OpenFile's fast path.
func (df *File) InFile() bool { return df.f != nil }

// openSized opens path for reading and returns its size; the error of a
// file that opens but cannot be stat'ed names it.
func openSized(path string) (*os.File, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("read %s: %w", path, err)
	}
	return f, fi.Size(), nil
}
