package memory

import (
	"fmt"

	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
)

// OpenFile builds a Source over the dataset file at path with Locations left
// in the file (dataset.OpenFileWith and FileVisitors, then NewFile), the way
// to serve a large file in little memory: each Location is validated while
// the file is parsed, on every core. The file stays open until Close and
// must not change meanwhile.
func OpenFile(path string, opts Options) (*Source, error) {
	df, err := dataset.OpenFileWith(path, 0, FileVisitors())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	src, err := NewFile(df, opts)
	if err != nil {
		df.Close()
		return nil, fmt.Errorf("load %s: %w", path, err)
	}
	return src, nil
}

// FromStores builds a Source from a Business's own stores held as Go
// values; each is validated as a dataset record is, and an invalid one is a
// *dataset.FieldError naming its index.
func FromStores(stores []dataset.Store, opts Options) (*Source, error) {
	recs, err := dataset.Records(stores)
	if err != nil {
		return nil, err
	}
	return New(recs, opts)
}

// Close releases the dataset file a Source built by OpenFile, NewFile or
// OpenSnapshot reads its Locations from; a Source held fully in memory has
// nothing to release. After Close, a call that needs to read a Location
// from the file fails.
func (s *Source) Close() error {
	if s.file == nil {
		return nil
	}
	if err := s.file.Close(); err != nil {
		return fmt.Errorf("close %s: %w", s.file.Path(), err)
	}
	return nil
}
