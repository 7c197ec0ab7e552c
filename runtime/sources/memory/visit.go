package memory

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ucpgen/ucpgen/runtime/schemacheck"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
	"github.com/ucpgen/ucpgen/runtime/sources/internal/keyorder"
	"github.com/ucpgen/ucpgen/runtime/sources/internal/loadmem"
	"github.com/ucpgen/ucpgen/runtime/sources/internal/stringarena"
	"github.com/ucpgen/ucpgen/runtime/sources/spatial"
	"github.com/ucpgen/ucpgen/runtime/sources/textrank"
)

// FileVisitors returns the newVisitor for dataset.OpenFileWith that
// validates and indexes each record while the file is parsed, on the
// section's core, so NewFile over the File it returns need not read every
// Location again; call it once per file. The sections keep what NewFile
// needs of the records (dataset.RecordKeeper), so the File holds no
// Records, and NewFile builds one Source from it, once.
func FileVisitors() func() dataset.Visitor {
	fl := &fileLoad{ld: newLoader(), repeats: schemacheck.NewRepeats()}
	return func() dataset.Visitor {
		return &section{load: fl, memo: newMemo(fl.ld), failed: -1, text: textrank.NewPart()}
	}
}

// fileLoad is what the sections of one file share.
type fileLoad struct {
	ld *loader
	// kept counts the decoded Locations kept so far, so that no more than
	// keepDecodedUpTo are held while the file is parsed.
	kept atomic.Int64
	used sync.Once // a load is built into one Source only
	// repeats shares, between the Locations the sections parse, the trees
	// of the values they repeat word for word (opening hours, amenities).
	repeats *schemacheck.Repeats
}

// sectionBlock is how many entries a section holds per block, so a large
// section grows without copying.
const sectionBlock = 4096

// section is the dataset.Visitor of one section of the file: it validates
// its records in file order and keeps its public ones' entries, aliases
// and text index, numbered in the order it saw them. It keeps all NewFile
// needs of the records (a dataset.RecordKeeper), so the file's records
// are never copied into one slice.
type section struct {
	load    *fileLoad
	memo    *memo     // this section's front to load.ld
	n       int       // records seen
	public  int       // public records seen
	private []int32   // the numbers of its private records, ascending
	ents    [][]entry // public records' entries, in blocks
	aliases []alias   // public records' aliases, doc their place among them
	text    *textrank.Part
	// scratch holds the lists of the text being indexed.
	scratch textScratch
	// failed is the section number of the first invalid record (-1: none),
	// failedRec that record as parsed; the records after it are only
	// counted.
	failed    int
	failedRec dataset.Record
	dropped   bool // the kept Locations were dropped: too many records
	// read is the Location ReadLocation parsed last, until a visit of its
	// text takes it; recent holds the lengths of the last Locations it
	// read (nread in all), which bound the text it parses the next from.
	read   readLocation
	recent [recentLocations]int32
	nread  int
	readIn int // Locations decoded from the tree ReadLocation parsed
	// ids holds the ids ReadLocation copies out of the trees.
	ids stringarena.Arena
}

// readLocation is a Location parsed in place: its tree, held in doc, and
// where its text starts and how long it is.
type readLocation struct {
	doc   *schemacheck.Document
	v     *schemacheck.Value
	start *byte
	n     int
	// passing: the Location will not be kept decoded (its text was parsed
	// into a reused buffer), so it is decoded into the memo's own.
	passing bool
}

// ReadLocation parses a Location from a bound of boundSlack bytes more than
// the longest of the last recentLocations Locations (firstBound for a
// section's first), doubled while the Location runs past it. The parser
// copies what it is given, so the bound is the garbage a store leaves; on
// the storegen files this copies about 1.5 times the Locations' text and
// parses again for 0.3% (light) and 0.8% (full) of the stores, where a
// bound of 1.25 times the last length plus 64 bytes parsed again for 3%
// and 25%.
const (
	firstBound      = 2048
	boundSlack      = 256
	recentLocations = 8
)

// nextBound is the bound ReadLocation parses the next Location from.
func (s *section) nextBound() int {
	if s.nread == 0 {
		return firstBound
	}
	return int(slices.Max(s.recent[:min(s.nread, recentLocations)])) + boundSlack
}

// A section parses each Location where the scan finds it.
var _ dataset.LocationReader = (*section)(nil)

// ReadLocation parses the Location at the start of b for the visit of its
// text that follows. It copies no more of b than nextBound, doubled while
// the Location runs past it, and holds the tree until that visit or the
// next call.
func (s *section) ReadLocation(b []byte) (int, string, bool) {
	s.dropRead()
	if len(b) == 0 || b[0] != '{' || s.failed >= 0 {
		return 0, "", false
	}
	doc := schemacheck.NewDocument()
	passing := s.load.kept.Load() >= int64(keepDecodedUpTo)
	if passing {
		// No Location read from here on is kept decoded (visit counts it
		// after this), and nothing else a visit keeps is a string of the
		// tree: the entry's id, lists and item codes are copies, the text
		// index copies its tokens, schedules keep no text. So the parse
		// reuses one buffer instead of leaving a copy of every Location
		// for the collector.
		doc.ReuseText()
	}
	for bound := s.nextBound(); ; bound *= 2 {
		v, n, err := doc.ParseFirstRepeating(b[:min(bound, len(b))], s.load.repeats)
		if err == nil {
			id, ok := plainID(v)
			if !ok {
				break
			}
			s.read = readLocation{doc: doc, v: v, start: &b[0], n: n, passing: passing}
			s.recent[s.nread%recentLocations] = int32(n)
			s.nread++
			return n, s.ids.String(id), true
		}
		if bound >= len(b) {
			break
		}
	}
	doc.Release()
	return 0, "", false
}

// plainID is the Location's id as the scan reads it: a member "id" whose
// value is a non-empty string written without escapes.
func plainID(v *schemacheck.Value) (string, bool) {
	id := v.Get("id")
	if v.Kind != schemacheck.Object || id == nil {
		return "", false
	}
	return id.Str, id.Kind == schemacheck.String && id.Str != "" && !strings.Contains(id.Raw, `\`)
}

// takeRead returns the held tree if it is loc's, for one use.
func (s *section) takeRead(loc []byte) *readLocation {
	if s.read.doc == nil || len(loc) != s.read.n || len(loc) == 0 || &loc[0] != s.read.start {
		return nil
	}
	r := s.read
	s.read = readLocation{}
	return &r
}

// dropRead releases a held tree no visit took.
func (s *section) dropRead() {
	if s.read.doc != nil {
		s.read.doc.Release()
		s.read = readLocation{}
	}
}

// KeepsRecords tells dataset.OpenFileWith that the section keeps all that
// NewFile needs of its records.
func (s *section) KeepsRecords() bool { return true }

// Visit validates one record and, when it is public, keeps its entry and
// indexes its text.
func (s *section) Visit(rec *dataset.Record, loc []byte) { s.visit(rec, loc, false) }

// A section decodes every Location with the validating decoder, so the
// dataset's scan need not check the text first.
var _ dataset.LocationParser = (*section)(nil)

// VisitUnchecked is Visit for a Location the scan only delimited: the
// decoder parses it as strictly as the scan checks (DecodeLocation reads
// it with schemacheck), and a record it refuses is left to the scan to
// check and then to Visit, which records the failure as before.
func (s *section) VisitUnchecked(rec *dataset.Record, loc []byte) bool {
	return s.visit(rec, loc, true)
}

// visit is Visit; unchecked makes a refused record report false and
// leave the section as it was.
func (s *section) visit(rec *dataset.Record, loc []byte, unchecked bool) bool {
	i := s.n
	if s.failed >= 0 {
		// Only counted; unchecked, the scan must still check the Location,
		// since a later record's syntax error is the file's error.
		if unchecked {
			return false
		}
		s.n++
		return true
	}
	var parsed *schemacheck.Value
	passing := false
	if r := s.takeRead(loc); r != nil {
		defer r.doc.Release()
		parsed, passing = r.v, r.passing
		s.readIn++
	}
	e, decoded, err := s.memo.decodeRecord(i, *rec, loc, parsed, passing)
	if err != nil {
		if unchecked {
			return false
		}
		s.n++
		s.failed, s.failedRec = i, *rec
		return true
	}
	s.n++
	rec.Items = nil // coded in the entry; the load owns the records
	if rec.Private {
		s.private = append(s.private, int32(i))
		return true
	}
	s.text.Add(s.scratch.fields(decoded))
	if s.load.kept.Add(1) <= int64(keepDecodedUpTo) {
		e.loc = decoded
	} else if !s.dropped {
		s.dropLocations()
	}
	for _, a := range rec.Aliases {
		s.aliases = append(s.aliases, alias{key: a, doc: int32(s.public)})
	}
	s.public++
	if len(s.ents) == 0 || len(s.ents[len(s.ents)-1]) == sectionBlock {
		s.ents = append(s.ents, make([]entry, 0, sectionBlock))
	}
	last := &s.ents[len(s.ents)-1]
	*last = append(*last, e)
	return true
}

// dropLocations forgets the decoded Locations kept so far, once the file
// holds more public records than keepDecodedUpTo.
func (s *section) dropLocations() {
	for _, b := range s.ents {
		for k := range b {
			b[k].loc = nil
		}
	}
	s.dropped = true
}

// errNotVisited is the error of NewFile over a File whose FileVisitors
// did not see its present Records (they were changed, or already built):
// their Items are gone, so reading the Locations again would lose them.
var errNotVisited = errors.New("the dataset's records are not the ones its FileVisitors saw, or were built before")

// visited returns df's sections when FileVisitors made them (nil when
// not: NewFile then reads the Locations from the file), or errNotVisited
// when they cannot be built: not all of one load, not all the records, or
// built before.
func visited(df *dataset.File) ([]*section, error) {
	vs := df.Visitors()
	secs := make([]*section, 0, len(vs))
	n := 0
	for _, v := range vs {
		if s, ok := v.(*section); ok {
			secs = append(secs, s)
			n += s.n
		}
	}
	if len(secs) == 0 {
		return nil, nil
	}
	for _, s := range secs {
		if s.load != secs[0].load {
			return nil, errNotVisited
		}
	}
	first := false
	secs[0].load.used.Do(func() { first = true })
	if len(secs) != len(vs) || n != df.Len() || !first {
		return nil, errNotVisited
	}
	return secs, nil
}

// buildVisited is build over sections that have validated and indexed the
// records of df while dataset.OpenFileWith parsed it: the public records
// are put in id order, and the sections' text indexes joined in it.
func buildVisited(df *dataset.File, secs []*section, opts Options) (*Source, error) {
	records := df.Len()
	if records >= loadGCThreshold {
		defer loadmem.Limit()()
	}
	if err := firstVisitError(df, secs); err != nil {
		return nil, err
	}
	ld := secs[0].load.ld
	// The identifier rules' check sorted the ids and aliases already when
	// the file was large; otherwise they are sorted here.
	order, aliases, shared := sharedOrder(df.TakeIdentifierOrder(), secs)
	if !shared {
		var ids []string
		ids, aliases = gather(secs)
		// Independent steps run side by side: the id order with the
		// aliases' order, then the text index with the entries' move to
		// doc order.
		together(func() { order = idOrder(ids) }, func() { aliases = byKey(aliases) })
		for k := range aliases {
			aliases[k].doc = order[aliases[k].doc]
		}
	}
	texts := make([]*textrank.Part, len(secs))
	for k, sec := range secs {
		texts[k] = sec.text
		sec.text = nil
	}
	s := &Source{aliases: aliases, file: df, records: records}
	ld.fill(s)
	var textErr, spatialErr error
	served := map[string]bool{}
	together(func() { s.text, textErr = textrank.Join(texts, order) }, func() {
		s.ents = place(secs, order)
		spatialErr = s.indexPlaces(served)
	})
	if textErr != nil {
		return nil, fmt.Errorf("text index: %w", textErr)
	}
	if spatialErr != nil {
		return nil, spatialErr
	}
	s.setCapabilities(served, opts)
	// The File keeps its Visitors, and the Source its File: what only the
	// load needed (the memos and the loader's maps, keyed by the schedules'
	// and lists' text, and the private records' numbers) is let go here
	// rather than held while serving.
	for _, sec := range secs {
		sec.memo, sec.private = nil, nil
	}
	secs[0].load.ld = nil
	return s, nil
}

// indexPlaces builds the spatial index over the entries with a geo, in doc
// order, and notes the countries they serve.
func (s *Source) indexPlaces(served map[string]bool) error {
	var points []spatial.Point
	for doc := range s.ents {
		e := &s.ents[doc]
		for _, c := range s.lists[e.countries] {
			served[c] = true
		}
		if e.hasGeo {
			s.geoDoc = append(s.geoDoc, int32(doc))
			points = append(points, spatial.Point{Lat: e.geo.Lat, Lon: e.geo.Lon})
		}
	}
	ix, err := spatial.New(points)
	if err != nil {
		return fmt.Errorf("spatial index: %w", err)
	}
	s.spatial = ix
	return nil
}

// together runs fns on goroutines of their own and waits for them all.
func together(fns ...func()) {
	var wg sync.WaitGroup
	for _, f := range fns {
		wg.Go(f)
	}
	wg.Wait()
}

// byKey returns the public records' aliases, in file order, sorted by key.
func byKey(all []alias) []alias {
	out := make([]alias, len(all))
	for k, at := range keyorder.Of(len(all), func(i int) string { return all[i].key }) {
		out[k] = all[at]
	}
	return out
}

// firstVisitError returns the error of the first invalid record in file
// order, decoded again from the file to be reported exactly as build
// reports it.
func firstVisitError(df *dataset.File, secs []*section) error {
	base := 0
	for _, sec := range secs {
		if sec.failed >= 0 {
			i, rec := base+sec.failed, sec.failedRec
			raw := []byte(rec.Location)
			if raw == nil {
				var err error
				if raw, err = df.ReadSpan(rec.Span, nil); err != nil {
					return err
				}
			}
			if _, _, err := newMemo(sec.load.ld).decode(i, rec, raw); err != nil {
				return err
			}
			return fmt.Errorf("dataset record %d: invalid while loading, valid when read again", i)
		}
		base += sec.n
	}
	return nil
}

// gather returns the ids of the sections' public entries in file order,
// one section after the other, and their aliases in the same order, each
// with its entry's place.
func gather(secs []*section) ([]string, []alias) {
	n, na := 0, 0
	for _, sec := range secs {
		n += sec.public
		na += len(sec.aliases)
	}
	ids := make([]string, 0, n)
	aliases := make([]alias, 0, na)
	for _, sec := range secs {
		base := int32(len(ids))
		for _, b := range sec.ents {
			for k := range b {
				ids = append(ids, b[k].id)
			}
		}
		for _, a := range sec.aliases {
			aliases = append(aliases, alias{key: a.key, doc: base + a.doc})
		}
		sec.aliases = nil
	}
	return ids, aliases
}

// sharedOrder returns what idOrder and byKey would of the sections' public
// records (each entry's doc number, and the aliases sorted by key with
// their docs) from the order the dataset's identifier check sorted every
// record's ids and aliases in (the private records' left out), and false
// when there is none or it does not describe the sections' records.
func sharedOrder(o *dataset.IdentifierOrder, secs []*section) ([]int32, []alias, bool) {
	if o == nil || !useSharedOrder {
		return nil, nil, false
	}
	records, public, na := 0, 0, 0
	for _, sec := range secs {
		records += sec.n
		public += sec.public
		na += len(sec.aliases)
	}
	if len(o.ByID) != records || len(o.ByAlias) != len(o.Aliases) || len(o.Owner) != len(o.Aliases) {
		return nil, nil, false
	}
	// pub is each record's place among the public ones, -1 when private.
	pub := make([]int32, 0, records)
	p := int32(0)
	for _, sec := range secs {
		priv := sec.private
		for i := range sec.n {
			if len(priv) > 0 && int(priv[0]) == i {
				pub, priv = append(pub, -1), priv[1:]
				continue
			}
			pub = append(pub, p)
			p++
		}
	}
	if int(p) != public {
		return nil, nil, false
	}
	order := make([]int32, public)
	rank := int32(0)
	for _, r := range o.ByID {
		if q := pub[r]; q >= 0 {
			order[q] = rank
			rank++
		}
	}
	aliases := make([]alias, 0, na)
	for _, a := range o.ByAlias {
		if r := o.Owner[a]; r >= 0 && int(r) < records && pub[r] >= 0 {
			aliases = append(aliases, alias{key: o.Aliases[a], doc: order[pub[r]]})
		}
	}
	if len(aliases) != na {
		return nil, nil, false
	}
	for _, sec := range secs {
		sec.aliases = nil
	}
	return order, aliases, true
}

// useSharedOrder lets a test build the same Source with and without the
// dataset's order.
var useSharedOrder = true

// idOrder returns each entry's doc number, its place in id order (the
// identifier rules make ids distinct), given the entries' ids.
func idOrder(ids []string) []int32 {
	byID := keyorder.Of(len(ids), func(i int) string { return ids[i] })
	order := make([]int32, len(ids))
	for doc, p := range byID {
		order[p] = int32(doc)
	}
	return order
}

// place moves the sections' public entries, in file order, to their
// places in doc order (entry k to order[k]) in one slice, releasing each
// block once it is moved; the decoded Locations are dropped from a load
// with more than keepDecodedUpTo of them.
func place(secs []*section, order []int32) []entry {
	ents := make([]entry, len(order))
	keep := len(order) <= keepDecodedUpTo
	i := 0
	for _, sec := range secs {
		for k, b := range sec.ents {
			for _, e := range b {
				if !keep {
					e.loc = nil
				}
				ents[order[i]] = e
				i++
			}
			sec.ents[k] = nil
		}
		sec.ents = nil
	}
	return ents
}
