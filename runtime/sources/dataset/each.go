package dataset

import (
	"errors"
	"io"
)

// ErrNotStreamable reports a file whose array structure Each does not read
// (not an array, invalid JSON, data after the array): the exact error, if
// there is one, is Parse's, so a caller falls back to ParseFile for it.
var ErrNotStreamable = errors.New("dataset: not a plain JSON array of records")

// Each reads a dataset file from r and hands each record to fn as soon as
// it is parsed, keeping none of them, so a loader that writes the records
// elsewhere (PostgreSQL) holds one block of the file at a time whatever the
// file's size. rec, its Location included, is only valid during the call:
// fn copies what it keeps. Each checks what one record can show (members,
// types, distinct aliases within the record) and leaves the rules across
// records (unique ids and aliases) to the caller; a record that breaks one
// is a *FieldError as Parse reports it, and fn's error stops Each and is
// returned as is.
func Each(r io.Reader, fn func(i int, rec Record) error) error {
	st := &stream{r: r, b: make([]byte, 0, streamBlock)}
	newInterner := func() *interner {
		return &interner{strs: map[string]string{}, areas: map[string]*ServiceArea{}}
	}
	in := newInterner()
	if b, err := st.next(); err != nil {
		return err
	} else if b != '[' {
		return ErrNotStreamable
	}
	st.i++
	b, err := st.next()
	if err != nil {
		return err
	}
	done := b == ']'
	if done {
		st.i++
	}
	for i := 0; !done; i++ {
		if i%recsBlock == 0 && i > 0 {
			// Shared strings are worth keeping within a block; across the
			// whole file the interner would grow with it.
			in = newInterner()
		}
		var elem []byte
		var rec Record
		fast := false
		ok, err := st.scan(func(s *scanner) bool {
			start := s.peekPos()
			if _, ok := s.value(1); !ok {
				return false // invalid, or not all read yet
			}
			elem = s.b[start:s.i]
			rec = Record{}
			fast = fastRecord(&scanner{b: elem}, in, &rec)
			return true
		})
		if err != nil {
			return err
		}
		if !ok {
			return ErrNotStreamable
		}
		if !fast {
			// Escapes, nulls, unknown members: the strict decoder names the
			// exact problem, or decodes what the fast path declined.
			rec = Record{}
			if err := decodeRecord(i, elem, &rec); err != nil {
				return err
			}
		}
		if err := fn(i, rec); err != nil {
			return err
		}
		b, err := st.next()
		if err != nil {
			return err
		}
		if b != ',' && b != ']' {
			return ErrNotStreamable
		}
		st.i++
		done = b == ']'
	}
	for {
		s := &scanner{b: st.b, i: st.i}
		if s.ws(); s.i != len(s.b) {
			return ErrNotStreamable
		}
		st.i = s.i
		more, err := st.fill()
		if err != nil {
			return err
		}
		if !more {
			return nil
		}
	}
}

// CheckIdentifiers reports the first id or alias that two records share,
// or an alias equal to its own record's id, exactly as Parse does, for
// callers that gathered the records' identifiers themselves.
func CheckIdentifiers(recs []Record) error {
	return checkIdentifiers(recs)
}
