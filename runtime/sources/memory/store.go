// Package memory is a ready-made, in-memory indexed location.Source: a
// Business hands it its stores (a dataset file, dataset records, or
// dataset.Store values from its own code) and serves them through the
// generated location.NewService, which runs the protocol (predicates,
// pagination, cursors, lookup bookkeeping, response shapes) on top of it.
//
// Stability: New, NewFile, OpenFile, FromStores, Options, Source and its
// methods, OpenSnapshot, WriteSnapshot, ReadSnapshotKey, the Err values and
// TextFields are the package's API and change only compatibly within a
// major version. The snapshot file format is not: a snapshot is bound to
// the executable that wrote it and is rebuilt after any upgrade.
//
// Its pushdown is what an in-memory Business can do cheaply: the spatial
// index narrows a distance relation to a superset (a small circle's records
// are listed, a large one's are tested one by one while walking in id
// order), the amenity filter is applied exactly, and candidates come in
// keyset order, by id (a page reads the records up to its last match, from
// a binary-searched start) or, for a free-text query, by textrank score then
// id: the inverted text index yields the records that score above zero,
// best first, and the rest of the pool follows with score 0 in id order, so
// ranking reorders but never admits or drops a record. A ranking is cached
// for the next batches and pages.
//
// Memory is what bounds the dataset size, so a record keeps only what the
// request paths read (id, geo, shared amenity keys and compiled schedule,
// items, service area) plus its Location as the dataset's JSON text, which
// is decoded with the generated decoder when a candidate is handed to the
// engine: a page costs a few dozen decodes, a million records cost no
// decoded Locations.
//
// Every record is validated at load with the generated Location decoder plus
// the schedule and IANA zone rules, so a server never starts on broken data.
// Private records (dark stores, hubs) are validated like the others but never
// enter any index, and contribute nothing to the capabilities, so no request
// path can return them or tell that they exist.
package memory

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	_ "time/tzdata" // Location timezones are IANA names evaluated on any host

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/domain/country"
	"github.com/ucpgen/ucpgen/runtime/domain/finder"
	"github.com/ucpgen/ucpgen/runtime/domain/geodesic"
	"github.com/ucpgen/ucpgen/runtime/domain/hours"
	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
	"github.com/ucpgen/ucpgen/runtime/jsonenc"
	"github.com/ucpgen/ucpgen/runtime/opt"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/runtime/schemacheck"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
	"github.com/ucpgen/ucpgen/runtime/sources/internal/loadmem"
	"github.com/ucpgen/ucpgen/runtime/sources/spatial"
	"github.com/ucpgen/ucpgen/runtime/sources/textrank"
)

// Options configures what the source advertises; the zero value caps
// nothing.
type Options struct {
	// MaxDistance caps distance.max in meters; a larger request is rejected,
	// never clamped (0: no cap).
	MaxDistance float64
}

// Source serves an immutable set of public records; it is safe for
// concurrent use.
//
// Public records live in one slice sorted by id, so a record's position (its
// doc number) is its place in the id keyset order, and every index below
// refers to records by doc number: a flat layout with no per-record maps or
// pointers for the garbage collector to walk. A record keeps its Location as
// the dataset's JSON text and decodes it only when the engine asks for it, a
// page or a batch at a time.
type Source struct {
	ents      []entry        // public records, sorted by id
	aliases   []alias        // sorted by key
	spatial   *spatial.Index // over the records with a geo, in doc order
	geoDoc    []int32        // spatial point id -> doc number
	text      *textrank.Index
	countries []string // alpha-2 codes public records serve, sorted
	caps      location.SourceCapabilities
	rankings  lru[string, *ranking]
	pools     lru[circle, []int32]
	// file holds the Locations of entries whose raw text is nil (NewFile).
	file *dataset.File
	// itemCode numbers the item ids of all records, so an entry keeps its
	// items as four bytes each.
	itemCode map[string]int32
	// itemSets holds the records' distinct item sets, each as its length
	// then its codes in order, after a 0 that no entry points at: one
	// array of numbers the collector never walks, where a set a store of
	// its own would be an object of its own, pointed at twice.
	itemSets []int32
	// lists, compiled and areas hold what many entries share (amenity key
	// sets and country lists, compiled schedules, service areas), by the
	// numbers the entries keep (0: none), so that an entry points at none
	// of them and the collector skips the entries' memory.
	lists    [][]string
	compiled []*hours.Compiled
	areas    []*dataset.ServiceArea
	// schedules maps each distinct schedule's key (appendScheduleKey) to
	// its compiled form, so a snapshot stores a few hundred schedules
	// rather than a million.
	schedules map[string]*hours.Compiled
	// records is the number of records loaded, private ones included.
	records int
	// kept holds, by doc number, what requests share for kept Locations:
	// predicate views, and encodings made the first time each Location is
	// served (see keptDocs).
	keptOnce sync.Once
	kept     []keptDoc
	// masks are the records' amenity keys as bits (see amenityMasks).
	masksOnce sync.Once
	masks     *amenityMasks
}

// keptDoc is what every request shares for one kept Location.
type keptDoc struct {
	view    predicate.Candidate
	encoded atomic.Pointer[jsonenc.Encoded]
}

// entry is one public record, as compact as the request paths allow.
type entry struct {
	raw       json.RawMessage    // the Location's JSON, validated at load (nil: in the file at span)
	span      dataset.Span       // where the Location's JSON is in Source.file
	loc       *location.Location // decoded, kept only for small datasets
	id        string
	geo       predicate.Geo
	hasGeo    bool
	amenities uint32 // sorted keys, in Source.lists
	compiled  uint32 // in Source.compiled
	items     uint32 // where its item set is in Source.itemSets (0: none)
	area      uint32 // in Source.areas
	countries uint32 // service-area countries, alpha-2, in Source.lists
}

// alias maps a secondary identifier to its record.
type alias struct {
	key string
	doc int32
}

// candidate is record doc as the engine receives it, with its Location
// decoded from the dataset text and its predicate view written to pc; a
// kept Location comes with the view and encoding every request shares, and
// pc is left alone.
func (s *Source) candidate(doc int32, score float64, pc *predicate.Candidate) (location.Candidate, error) {
	e := &s.ents[doc]
	if e.loc != nil {
		k := &s.keptDocs()[doc]
		return location.Candidate{Location: e.loc, Score: score, Ref: e, Predicate: &k.view, Encoded: k.encoding(e.loc)}, nil
	}
	raw := e.raw
	if raw == nil {
		var err error
		if raw, err = s.file.ReadSpan(e.span, nil); err != nil {
			return location.Candidate{}, fmt.Errorf("location %q: %w", e.id, err)
		}
	}
	// Validated at load: decoded strictly, without the schema check again.
	loc := new(location.Location)
	if err := loc.UnmarshalJSON(raw); err != nil {
		return location.Candidate{}, fmt.Errorf("decode location %q: %w", e.id, err)
	}
	s.view(e, pc, loc)
	return location.Candidate{Location: loc, Score: score, Ref: e, Predicate: pc}, nil
}

// view writes e's predicate view of loc to pc. Value set here spares the
// engine a copy of the view to set it.
func (s *Source) view(e *entry, pc *predicate.Candidate, loc *location.Location) {
	*pc = predicate.Candidate{ID: e.id, Amenities: s.lists[e.amenities], Compiled: s.compiled[e.compiled], Value: loc}
	if e.hasGeo {
		pc.Geo = &e.geo
	}
}

// keptDocs is s.kept, made on the first request: the views of the kept
// Locations (at most keepDecodedUpTo), so requests allocate none for them.
func (s *Source) keptDocs() []keptDoc {
	s.keptOnce.Do(func() {
		s.kept = make([]keptDoc, len(s.ents))
		for i := range s.ents {
			if e := &s.ents[i]; e.loc != nil {
				s.view(e, &s.kept[i].view, e.loc)
			}
		}
	})
	return s.kept
}

// encoding is the encoding of kept Location loc, made on its first use and
// then shared by every response that holds it: a kept Location is one of
// at most keepDecodedUpTo, so the encodings stay as bounded as the
// Locations, and only the served ones cost memory. A Location that fails to
// encode has none, and the generated encoder reports its error.
func (k *keptDoc) encoding(loc *location.Location) *jsonenc.Encoded {
	if enc := k.encoded.Load(); enc != nil {
		return enc
	}
	b, err := loc.AppendJSON(nil)
	if err != nil {
		return nil
	}
	enc := jsonenc.NewEncoded(b)
	if !k.encoded.CompareAndSwap(nil, enc) {
		return k.encoded.Load()
	}
	return enc
}

// New validates every record and builds the indexes. An invalid record is a
// *dataset.FieldError naming its index and the JSON Pointer of the value;
// when several are invalid, the first in dataset order is reported.
//
// Each record is decoded once: public records in id order, so their doc
// numbers, the text index and the spatial index are built in the same pass.
// While it runs, New lowers the garbage collector's growth target (and
// restores it on return): the records usually share one large dataset
// buffer that stays live, and the default target would let the decoding
// garbage grow to the size of that buffer again.
func New(records []dataset.Record, opts Options) (*Source, error) {
	return build(records, nil, opts)
}

// NewFile is New over a dataset file opened with dataset.OpenFile: each
// Location is read from the file to be validated and indexed, and again
// (checked against its checksum) whenever it is a candidate, so the
// Locations' text never stays in memory. It takes over df.Records: they
// are nil on return, their contents kept in the Source's own layout. The Source uses df until the
// process ends; the file must not change meanwhile (a changed record is an
// error naming it, see dataset.ErrChanged).
//
// When df was opened with dataset.OpenFileWith and FileVisitors, its
// records were validated and tokenised while the file was parsed (df has
// no Records), and NewFile only puts them in id order and joins the
// indexes.
func NewFile(df *dataset.File, opts Options) (*Source, error) {
	secs, err := visited(df)
	if err != nil {
		return nil, err
	}
	if secs != nil {
		return buildVisited(df, secs, opts)
	}
	return build(df.Records, df, opts)
}

// text returns record i's Location text, from memory or from df.
func text(records []dataset.Record, df *dataset.File, i int, buf []byte) ([]byte, error) {
	if records[i].Location != nil || df == nil {
		return records[i].Location, nil
	}
	return df.ReadLocation(i, buf)
}

func build(records []dataset.Record, df *dataset.File, opts Options) (*Source, error) {
	if len(records) >= loadGCThreshold {
		defer loadmem.Limit()()
	}
	ids := make([]string, len(records))
	var public []int32
	for i := range records {
		ids[i] = records[i].ID
		if ids[i] == "" {
			ids[i] = locationID(records[i].Location)
		}
		if !records[i].Private {
			public = append(public, int32(i))
		}
	}
	slices.SortStableFunc(public, func(a, b int32) int { return strings.Compare(ids[a], ids[b]) })
	s := &Source{ents: make([]entry, 0, len(public)), text: textrank.NewIndex(), file: df}
	ld := newLoader()
	// Records are decoded and tokenised in parallel, a chunk at a time, and
	// numbered and indexed in id order.
	type decoded struct {
		e     entry
		loc   *location.Location
		terms textrank.Terms
		err   error
	}
	// While one chunk is indexed, the next is decoded, so the in-order
	// step does not leave the other cores idle.
	workers := max(1, runtime.GOMAXPROCS(0))
	var chunks [2][]decoded
	for c := range chunks {
		chunks[c] = make([]decoded, min(len(public), loadChunk))
	}
	decodeFrom := func(lo int) <-chan struct{} {
		done := make(chan struct{})
		part := public[lo:min(lo+loadChunk, len(public))]
		chunk := chunks[lo/loadChunk%2]
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				m := newMemo(ld)
				var buf []byte
				for k := w; k < len(part); k += workers {
					i := int(part[k])
					d := &chunk[k]
					var raw []byte
					if raw, d.err = text(records, df, i, buf); d.err != nil {
						continue
					}
					if records[i].Location == nil {
						buf = raw
					}
					d.e, d.loc, d.err = m.decode(i, records[i], raw)
					if d.err == nil {
						d.terms = textrank.Analyze(TextFields(d.loc))
					}
				}
			}()
		}
		go func() { wg.Wait(); close(done) }()
		return done
	}
	var next <-chan struct{}
	if len(public) > 0 {
		next = decodeFrom(0)
	}
	for lo := 0; lo < len(public); lo += loadChunk {
		part := public[lo:min(lo+loadChunk, len(public))]
		chunk := chunks[lo/loadChunk%2]
		<-next
		if lo+loadChunk < len(public) {
			next = decodeFrom(lo + loadChunk)
		}
		for k, i := range part {
			d := &chunk[k]
			if d.err != nil {
				return nil, firstError(records, df, ld)
			}
			e := d.e
			doc := int32(len(s.ents))
			for _, a := range records[i].Aliases {
				s.aliases = append(s.aliases, alias{key: a, doc: doc})
			}
			s.text.AddTerms(d.terms)
			if len(public) <= keepDecodedUpTo {
				e.loc = d.loc
			}
			if df != nil {
				records[i].Items = nil // coded in the entry; NewFile owns the records
			}
			s.ents = append(s.ents, e)
			*d = decoded{}
		}
	}
	m := newMemo(ld)
	for i := range records {
		if records[i].Private { // validated, never indexed
			raw, err := text(records, df, i, nil)
			if err == nil {
				_, _, err = m.decode(i, records[i], raw)
			}
			if err != nil {
				return nil, firstError(records, df, ld)
			}
		}
	}
	if df == nil || !df.Checked() { // else dataset.OpenFile enforced the same rule
		if err := checkKeys(records, ids); err != nil {
			return nil, err
		}
	}
	ld.fill(s)
	s.records = len(records)
	if df != nil {
		df.Records = nil // the entries keep what requests need
	}
	slices.SortFunc(s.aliases, func(a, b alias) int { return strings.Compare(a.key, b.key) })
	s.text.Finish()
	served := map[string]bool{}
	if err := s.indexPlaces(served); err != nil {
		return nil, err
	}
	s.setCapabilities(served, opts)
	return s, nil
}

// setCapabilities records the countries public records serve and what the
// Source advertises.
func (s *Source) setCapabilities(served map[string]bool, opts Options) {
	for c := range served {
		s.countries = append(s.countries, c)
	}
	slices.Sort(s.countries)
	s.caps = location.SourceCapabilities{
		Serves:      []string{"point", "address"},
		Countries:   s.countries,
		MaxDistance: opts.MaxDistance,
		Ranking:     textrank.Name,
	}
}

// loadChunk is how many records are decoded in parallel between two
// in-order indexing steps; it bounds the decoded Locations alive at once.
const loadChunk = 4096

// keepDecodedUpTo is the largest number of public records whose decoded
// Locations are kept (a few KB each): below it, memory is no concern and a
// request saves decoding its candidates again.
var keepDecodedUpTo = 20_000

// A load of loadGCThreshold records or more runs under loadmem's soft
// memory limit (see New); below it nothing changes, since the whole load is
// small and tests build many sources concurrently.
const loadGCThreshold = 50_000

// firstError finds the error a reader going through the records in order
// meets first: a record's own problem, else an identifier an earlier record
// already used. It runs only when loading has already failed.
func firstError(records []dataset.Record, df *dataset.File, ld *loader) error {
	ids := make([]string, len(records))
	for i, r := range records {
		ids[i] = r.ID
		if ids[i] == "" {
			ids[i] = locationID(r.Location)
		}
	}
	m := newMemo(ld)
	for i := range records {
		raw, err := text(records, df, i, nil)
		if err == nil {
			_, _, err = m.decode(i, records[i], raw)
		}
		if err != nil {
			if kerr := checkKeys(records[:i], ids[:i]); kerr != nil {
				return kerr
			}
			return err
		}
	}
	return checkKeys(records, ids)
}

// checkKeys enforces one namespace for ids and aliases of all records, as
// dataset.Parse does for files (records may also be built in code). Like a
// reader going through the records in order (each id, then its aliases), it
// reports the first identifier that was already used, and by which record.
func checkKeys(records []dataset.Record, ids []string) error {
	// A key is (record << 32 | member), member 0 the id and j+1 alias j;
	// the numbers sort in reading order.
	keys := make([]uint64, 0, len(records)*2)
	for i, r := range records {
		keys = append(keys, uint64(i)<<32)
		for j := range r.Aliases {
			keys = append(keys, uint64(i)<<32|uint64(j+1))
		}
	}
	name := func(k uint64) string {
		rec, mem := int(k>>32), int(k&0xffffffff)
		if mem == 0 {
			return ids[rec]
		}
		return records[rec].Aliases[mem-1]
	}
	slices.SortFunc(keys, func(a, b uint64) int {
		if c := strings.Compare(name(a), name(b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	bad, first := -1, -1
	for i := 0; i < len(keys); {
		j := i + 1 // keys[i:j] are equal names, in reading order
		for j < len(keys) && name(keys[j]) == name(keys[i]) {
			j++
		}
		if j-i > 1 && (bad < 0 || keys[i+1] < keys[bad]) {
			bad, first = i+1, i
		}
		i = j
	}
	if bad < 0 {
		return nil
	}
	ptr := "/location/id"
	if m := int(keys[bad] & 0xffffffff); m > 0 {
		ptr = "/aliases/" + strconv.Itoa(m-1)
	}
	return fieldErr(int(keys[bad]>>32), ptr, "identifier %q is already used by record %d", name(keys[bad]), int(keys[first]>>32))
}

// locationID reads the id of a Location that decode has already accepted.
func locationID(raw json.RawMessage) string {
	var l struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(raw, &l)
	return l.ID
}

func fieldErr(i int, rel, format string, args ...any) *dataset.FieldError {
	return &dataset.FieldError{Index: i, Pointer: "/" + strconv.Itoa(i) + rel, Reason: fmt.Sprintf(format, args...)}
}

// loader shares what many records have in common (compiled schedules,
// amenity key sets, country lists, item sets), so a million stores keep a
// few hundred distinct schedules rather than a million copies. Decoding
// goes through a memo per goroutine, which takes the loader's lock only
// for what it has not seen.
type loader struct {
	mu sync.Mutex // guards all below but schedules, which lock per shard
	// schedules are spread over shards with locks of their own: a large
	// dataset holds tens of thousands of distinct schedules (53,845 in a
	// million light stores), more than a memo keeps, and one lock for all
	// of them still kept a core waiting.
	schedules [scheduleShards]scheduleShard
	schedSeed maphash.Seed
	// compiled, lists and areas are Source's tables in the making; strs
	// finds a list in them by a key of its contents.
	compiled []*hours.Compiled
	lists    [][]string
	strs     map[string]uint32
	areas    []*dataset.ServiceArea
	itemCode map[string]int32
	// itemSets is Source.itemSets in the making; itemAt finds a set in it
	// by the hash of its codes' bytes, so equal sets share without a key
	// per set (most full-shape stores hold sets of their own). Of two sets
	// whose hashes collide, the later is simply not shared.
	itemSets []int32
	itemAt   map[uint64]uint32
	itemSeed maphash.Seed
}

func newLoader() *loader {
	ld := &loader{schedSeed: maphash.MakeSeed(), compiled: []*hours.Compiled{nil},
		lists: [][]string{nil}, strs: map[string]uint32{}, areas: []*dataset.ServiceArea{nil},
		itemCode: map[string]int32{}, itemSets: []int32{0}, itemAt: map[uint64]uint32{}, itemSeed: maphash.MakeSeed()}
	for k := range ld.schedules {
		ld.schedules[k].m = map[string]uint32{}
	}
	return ld
}

// scheduleShards is how many locks the compiled schedules are spread over.
const scheduleShards = 16

// scheduleShard is one lock's share of the compiled schedules, padded to
// a cache line of its own so that two cores taking two locks do not
// contend for one line.
type scheduleShard struct {
	mu sync.Mutex
	m  map[string]uint32 // number in loader.compiled
	_  [48]byte
}

// fill hands s the tables the loader built, which its entries number
// into, and the compiled schedules by key.
func (ld *loader) fill(s *Source) {
	s.itemCode, s.itemSets = ld.itemCode, ld.itemSets
	s.lists, s.compiled, s.areas = ld.lists, ld.compiled, ld.areas
	s.schedules = ld.compiledSchedules()
}

// compiledSchedules returns every compiled schedule by its key, for the
// Source (a snapshot writes them once each).
func (ld *loader) compiledSchedules() map[string]*hours.Compiled {
	n := 0
	for k := range ld.schedules {
		n += len(ld.schedules[k].m)
	}
	all := make(map[string]*hours.Compiled, n)
	for k := range ld.schedules {
		for key, c := range ld.schedules[k].m {
			all[key] = ld.compiled[c]
		}
	}
	return all
}

// itemCodeOf numbers an item id in first-seen order.
func (ld *loader) itemCodeOf(it string) int32 {
	ld.mu.Lock()
	defer ld.mu.Unlock()
	c, ok := ld.itemCode[it]
	if !ok {
		c = int32(len(ld.itemCode))
		ld.itemCode[strings.Clone(it)] = c
	}
	return c
}

// itemSet returns where the sorted codes are in ld.itemSets, shared with
// an equal set seen before; h is the hash of the codes' bytes.
func (ld *loader) itemSet(codes []int32, h uint64) uint32 {
	ld.mu.Lock()
	defer ld.mu.Unlock()
	at, ok := ld.itemAt[h]
	if ok && slices.Equal(itemSetAt(ld.itemSets, at), codes) {
		return at
	}
	at = uint32(len(ld.itemSets))
	ld.itemSets = append(ld.itemSets, int32(len(codes)))
	ld.itemSets = append(ld.itemSets, codes...)
	if !ok {
		ld.itemAt[h] = at
	}
	return at
}

// shared returns the number in ld.lists of a read-only slice equal to
// list, shared with every equal list seen before; key is appendListKey's
// for list.
func (ld *loader) shared(key []byte, list []string) uint32 {
	ld.mu.Lock()
	defer ld.mu.Unlock()
	if got, ok := ld.strs[string(key)]; ok {
		return got
	}
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = strings.Clone(v)
	}
	n := uint32(len(ld.lists))
	ld.lists = append(ld.lists, out)
	ld.strs[string(key)] = n
	return n
}

// area numbers a service area in ld.areas.
func (ld *loader) area(sa *dataset.ServiceArea) uint32 {
	ld.mu.Lock()
	defer ld.mu.Unlock()
	n := uint32(len(ld.areas))
	ld.areas = append(ld.areas, sa)
	return n
}

// compile returns the number in ld.compiled of the compiled schedule,
// shared between equal schedules; key is appendScheduleKey's for sc.
func (ld *loader) compile(key []byte, sc hours.Schedule) (uint32, error) {
	sh := &ld.schedules[maphash.Bytes(ld.schedSeed, key)%scheduleShards]
	sh.mu.Lock()
	n, ok := sh.m[string(key)]
	sh.mu.Unlock()
	if ok {
		return n, nil
	}
	// Compiled outside the lock (it loads a zone); of two goroutines that
	// compile one schedule, the first to store it is the one shared.
	c, err := sc.Compile()
	if err != nil {
		return 0, err
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if first, ok := sh.m[string(key)]; ok {
		return first, nil
	}
	ld.mu.Lock()
	n = uint32(len(ld.compiled))
	ld.compiled = append(ld.compiled, c)
	ld.mu.Unlock()
	sh.m[string(key)] = n
	return n, nil
}

// appendListKey appends a key for list: length-prefixed, so no two lists
// share one.
func appendListKey(k []byte, list []string) []byte {
	for _, v := range list {
		k = binary.AppendUvarint(k, uint64(len(v)))
		k = append(k, v...)
	}
	return k
}

// memo is one goroutine's front to a loader: the schedules, lists and
// item sets it has already shared, found without the loader's lock (on
// two cores, goroutines waiting for it left a core idle for a sixth of a
// million-store load). A memo holds up to memoSize of each, the first it
// meets; a record past that goes to the loader.
type memo struct {
	ld        *loader
	schedules map[string]uint32
	strs      map[string]uint32
	areas     map[*dataset.ServiceArea]uint32
	itemCode  map[string]int32
	codes     []int32
	key       []byte
	// byTrees holds compiled schedules by their lists' shared trees.
	byTrees map[treeKey]uint32
	// recent holds the item ids coded last, by address (itemCodeOf).
	recent [recentItems]recentItem
	// view is the predicate view of the record being decoded, its lists
	// reused from record to record.
	view predicate.Candidate
	// passing is the Location of a record decoded only to be read (a load
	// too large to keep its Locations decoded), its lists and amenities
	// refilled from record to record.
	passing location.Location
}

// recentItems is how many item ids a memo codes by address: more than the
// catalogue of a large retailer's usual store.
const recentItems = 4096

// memoSize bounds each of a memo's maps: records share few schedules and
// lists, which a memo then holds all of, while item sets are often a
// store's own, which a memo must not copy for every store.
const memoSize = 4096

func newMemo(ld *loader) *memo {
	return &memo{ld: ld, schedules: map[string]uint32{}, strs: map[string]uint32{}, byTrees: map[treeKey]uint32{},
		areas: map[*dataset.ServiceArea]uint32{}, itemCode: map[string]int32{}}
}

// remember puts v in m under key unless m is full.
func remember[V any](m map[string]V, key []byte, v V) {
	if len(m) < memoSize {
		m[string(key)] = v
	}
}

// compile is loader.compile, memoized.
func (m *memo) compile(sc hours.Schedule) (uint32, error) {
	m.key = appendScheduleKey(m.key[:0], sc)
	if c, ok := m.schedules[string(m.key)]; ok {
		return c, nil
	}
	c, err := m.ld.compile(m.key, sc)
	if err == nil {
		remember(m.schedules, m.key, c)
	}
	return c, err
}

// compileShared is compile for the schedule sc of the Location parsed,
// memoized by the numbers of its hours' and exception hours' shared trees
// (schemacheck.Repeats) and its time zone when the parse shared both lists
// (or the Location lacks them): the same numbers are the same lists, so a
// repeated schedule is found without building its key of some 300 bytes.
func (m *memo) compileShared(parsed *schemacheck.Value, sc hours.Schedule) (uint32, error) {
	k, ok := scheduleTrees(parsed)
	if !ok {
		return m.compile(sc)
	}
	if c, ok := m.byTrees[k]; ok {
		return c, nil
	}
	c, err := m.compile(sc)
	if err == nil && len(m.byTrees) < memoSize {
		k.zone = strings.Clone(k.zone) // the parse's text is reused
		m.byTrees[k] = c
	}
	return c, err
}

// treeKey names a schedule by the shared trees of its lists (0: absent)
// and its time zone (an absent one reads as "", as in the Schedule).
type treeKey struct {
	hours, exceptions uint32
	zone              string
}

// scheduleTrees returns the treeKey of the Location parsed, and false when
// it has none: not parsed, a list present but not shared, or a time zone
// that is not a string.
func scheduleTrees(parsed *schemacheck.Value) (treeKey, bool) {
	var k treeKey
	if parsed == nil || parsed.Kind != schemacheck.Object {
		return k, false
	}
	for i := range parsed.Members {
		v := &parsed.Members[i].Value
		switch parsed.Members[i].Name {
		case "hours":
			if k.hours = v.Shared(); k.hours == 0 {
				return k, false
			}
		case "exception_hours":
			if k.exceptions = v.Shared(); k.exceptions == 0 {
				return k, false
			}
		case "timezone":
			if v.Kind != schemacheck.String {
				return k, false
			}
			k.zone = v.Str
		}
	}
	return k, true
}

// shared is loader.shared, memoized; 0 (nil) for an empty list.
func (m *memo) shared(list []string) uint32 {
	if len(list) == 0 {
		return 0
	}
	return byList(m, m.strs, list, func(key []byte) uint32 { return m.ld.shared(key, list) })
}

// area is loader.area, memoized by the area's address; 0 for none. The
// dataset's parser already shares equal areas within a section, so equal
// areas are one object there and numbered once, with no key of their
// contents to build and look up for every record. Unlike the memo's other
// maps this one is not bounded: it holds no more than the parser's map of
// the same areas.
func (m *memo) area(sa *dataset.ServiceArea) uint32 {
	if sa == nil {
		return 0
	}
	if n, ok := m.areas[sa]; ok {
		return n
	}
	n := m.ld.area(sa)
	m.areas[sa] = n
	return n
}

// itemSet codes a record's item ids as a sorted set and returns where it
// is in the loader's item sets (0 for none). The codes of items the memo
// has met are its own to read; only the set's placing takes the loader's
// lock, briefly.
func (m *memo) itemSet(list []string) uint32 {
	if len(list) == 0 {
		return 0
	}
	m.codes = m.codes[:0]
	for _, it := range list {
		m.codes = append(m.codes, m.itemCodeOf(it))
	}
	slices.Sort(m.codes)
	m.key = m.key[:0]
	for _, c := range m.codes {
		m.key = binary.LittleEndian.AppendUint32(m.key, uint32(c))
	}
	return m.ld.itemSet(m.codes, maphash.Bytes(m.ld.itemSeed, m.key))
}

// itemCodeOf is the item code of it. The dataset's scan interns item ids
// (equal ids are one string), so a slot of m.recent, picked by the
// string's address, usually holds it already: found by comparing two
// addresses, not by hashing the id. The slot keeps its string, so the
// address is never another string's while the slot holds it.
func (m *memo) itemCodeOf(it string) int32 {
	slot := &m.recent[(uintptr(unsafe.Pointer(unsafe.StringData(it)))>>4)%uintptr(len(m.recent))]
	if unsafe.StringData(slot.id) == unsafe.StringData(it) && len(slot.id) == len(it) && it != "" {
		return slot.code
	}
	c, ok := m.itemCode[it]
	if !ok {
		c = m.ld.itemCodeOf(it)
		if len(m.itemCode) < memoSize {
			m.itemCode[strings.Clone(it)] = c
		}
	}
	*slot = recentItem{id: it, code: c}
	return c
}

// recentItem is an item id and its code, as memo.recent holds them.
type recentItem struct {
	id   string
	code int32
}

// byList returns what cache holds for list, else what share returns for
// list's key, remembered.
func byList[V any](m *memo, cache map[string]V, list []string, share func(key []byte) V) V {
	m.key = appendListKey(m.key[:0], list)
	if got, ok := cache[string(m.key)]; ok {
		return got
	}
	got := share(m.key)
	remember(cache, m.key, got)
	return got
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// decode validates one record with the generated Location decoder (schema
// validation included) plus the rules the schema cannot state, and keeps
// what the request paths need. A record of a dataset file that breaks a
// rule is reported with the byte offset of its Location in the file.
func (m *memo) decode(i int, rec dataset.Record, raw []byte) (entry, *location.Location, error) {
	e, loc, err := m.decodeRecord(i, rec, raw, nil, false)
	var fe *dataset.FieldError
	if err != nil && rec.Span.Len > 0 && errors.As(err, &fe) && fe.Offset == 0 {
		fe.Offset = rec.Span.Off
	}
	return e, loc, err
}

// decodeRecord is decode before the offset is set; parsed, when not nil,
// is raw parsed already, and passing decodes it into m.passing (returned
// as the Location) for a caller that drops it before the next record.
func (m *memo) decodeRecord(i int, rec dataset.Record, raw []byte, parsed *schemacheck.Value, passing bool) (entry, *location.Location, error) {
	var loc *location.Location
	var err error
	switch {
	case parsed != nil && passing:
		loc, err = &m.passing, location.DecodeLocationValueInto(parsed, &m.passing)
	case parsed != nil:
		loc, err = location.DecodeLocationValue(parsed)
	default:
		loc, err = location.DecodeLocation(raw)
	}
	if err != nil {
		if ip, ok := rpcerr.AsInvalidParams(err); ok && len(ip.Violations) > 0 {
			first := ip.Violations[0]
			return entry{}, nil, fieldErr(i, "/location"+first.Pointer, "not a valid UCP Location: %s", first.Message)
		}
		return entry{}, nil, fieldErr(i, "/location", "not a valid UCP Location: %v", err)
	}
	if loc.ID == "" {
		return entry{}, nil, fieldErr(i, "/location/id", "must not be empty")
	}
	if rec.ID != "" && rec.ID != loc.ID {
		return entry{}, nil, fieldErr(i, "/location/id", "record id %q differs from the Location id %q", rec.ID, loc.ID)
	}
	if loc.Name == "" {
		return entry{}, nil, fieldErr(i, "/location/name", "must not be empty")
	}
	e := entry{raw: rec.Location, span: rec.Span, id: rec.ID, items: m.itemSet(rec.Items)}
	if e.id == "" {
		e.id = strings.Clone(loc.ID)
	}
	pc := &m.view
	loc.PredicateCandidateInto(pc)
	if e.compiled, err = m.compileShared(parsed, pc.Schedule); err != nil {
		return entry{}, nil, fieldErr(i, "/location"+hours.Pointer(err), "unusable schedule: %v", err)
	}
	if pc.Geo != nil {
		e.geo, e.hasGeo = *pc.Geo, true
	}
	e.amenities = m.shared(pc.Amenities)
	if sa := rec.ServiceArea; sa != nil {
		if r := sa.RadiusM; r != nil {
			if math.IsNaN(*r) || math.IsInf(*r, 0) || *r < 0 {
				return entry{}, nil, fieldErr(i, "/service_area/radius_m", "must be a finite number of meters >= 0, got %v", *r)
			}
			if !e.hasGeo {
				return entry{}, nil, fieldErr(i, "/service_area/radius_m", "needs the Location's geo to measure from")
			}
		}
		var codes []string
		for j, c := range sa.Countries {
			code, ok := country.Normalize(c)
			if !ok {
				return entry{}, nil, fieldErr(i, "/service_area/countries/"+strconv.Itoa(j), "%q is not an ISO 3166-1 country", c)
			}
			codes = append(codes, code)
		}
		e.countries = m.shared(codes)
		e.area = m.area(sa)
	}
	return e, loc, nil
}

// TextFields is the searchable text of a Location for ranking, exported so
// a benchmark baseline ranks with exactly the store's text.
func TextFields(l *location.Location) textrank.Fields {
	var f textrank.Fields
	f.Name = l.Name
	if a, ok := l.Address.Get(); ok {
		lines := [...]opt.Value[string]{a.StreetAddress, a.AddressLocality, a.AddressRegion, a.PostalCode, a.AddressCountry}
		f.Address = make([]string, 0, len(lines))
		for _, v := range lines {
			if v.Set {
				f.Address = append(f.Address, v.V)
			}
		}
	}
	if am, ok := l.Amenities.Get(); ok {
		keys := make([]string, 0, len(am))
		for k := range am {
			keys = append(keys, string(k))
		}
		slices.Sort(keys)
		for _, k := range keys {
			f.Amenities = append(f.Amenities, am[location.AmenityType(k)].Description)
		}
	}
	return f
}

// textScratch holds the lists of the Fields it makes, so a load that
// indexes a million Locations one after the other allocates them once.
type textScratch struct {
	address, amenities, keys []string
}

// fields returns TextFields(l) (the same text, though an empty list may be
// nil), its lists t's own until the next call: textrank.Part.Add keeps
// none of them.
func (t *textScratch) fields(l *location.Location) textrank.Fields {
	f := textrank.Fields{Name: l.Name}
	if a, ok := l.Address.Get(); ok {
		lines := [...]opt.Value[string]{a.StreetAddress, a.AddressLocality, a.AddressRegion, a.PostalCode, a.AddressCountry}
		t.address = t.address[:0]
		for _, v := range lines {
			if v.Set {
				t.address = append(t.address, v.V)
			}
		}
		f.Address = t.address
	}
	if am, ok := l.Amenities.Get(); ok {
		t.keys = t.keys[:0]
		for k := range am {
			t.keys = append(t.keys, string(k))
		}
		slices.Sort(t.keys)
		t.amenities = t.amenities[:0]
		for _, k := range t.keys {
			t.amenities = append(t.amenities, am[location.AmenityType(k)].Description)
		}
		f.Amenities = t.amenities
	}
	return f
}

// Capabilities reports point and address targets and the countries public
// records serve; private records never widen it.
func (s *Source) Capabilities() location.SourceCapabilities { return s.caps }

// Candidates returns the next batch in keyset order. Under id order it walks
// the pool (every public record, or the distance circle's superset) from a
// binary-searched start; under relevance order it serves the cached ranking
// of the text index's hits, followed by the rest of the pool in id order.
// The amenity filter is applied exactly; the engine re-checks everything.
func (s *Source) Candidates(ctx context.Context, h location.Hints) ([]location.Candidate, error) {
	if h.Limit <= 0 {
		return nil, nil
	}
	p, err := s.pool(h.Distance, h.Query.Filters.Amenities)
	if err != nil {
		return nil, err
	}
	var docs []int32
	var scores []float64
	if h.Order == finder.ByRelevance {
		r := s.ranking(h.Text, h.Distance, p)
		docs, scores = r.after(s, p, h.After, h.Limit)
	} else {
		from := int32(0)
		if h.After != nil {
			from = s.docAfter(h.After.ID)
		}
		docs = p.collect(s, from, h.Limit, nil)
	}
	out := make([]location.Candidate, len(docs))
	// The views of Locations decoded for this batch, in one allocation made
	// at the first of them; kept Locations come with theirs.
	var views []predicate.Candidate
	for i, d := range docs {
		var sc float64
		if scores != nil {
			sc = scores[i]
		}
		if views == nil && s.ents[d].loc == nil {
			views = make([]predicate.Candidate, len(docs))
		}
		var pc *predicate.Candidate
		if views != nil {
			pc = &views[i]
		}
		if out[i], err = s.candidate(d, sc, pc); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// docAfter is the first doc number whose id sorts after id.
func (s *Source) docAfter(id string) int32 {
	i, found := slices.BinarySearchFunc(s.ents, id, func(e entry, id string) int { return strings.Compare(e.id, id) })
	if found {
		i++
	}
	return int32(i)
}

// pool is the set of records a search can match before the engine's exact
// checks: inside the distance region (when there is one) and holding every
// requested amenity key.
type pool struct {
	region    *spatial.Region
	docs      []int32 // the region's records in doc order, when small enough to list
	amenities []string
	// masks and want, when masks is not nil, test amenities by bits:
	// none is true when a requested key is in no record.
	masks *amenityMasks
	want  uint64
	none  bool
}

// circle keys the pools cache: a distance constraint's center and radius
// as given, compared as numbers (no formatting on the search path).
type circle struct{ lat, lon, max float64 }

// hasAmenities reports whether doc holds every requested amenity key.
func (p *pool) hasAmenities(s *Source, doc int32) bool {
	if p.masks != nil {
		return !p.none && p.masks.masks[doc]&p.want == p.want
	}
	return hasAll(s.lists[s.ents[doc].amenities], p.amenities)
}

// listBelow is the share of all records under which a region's records are
// listed (and sorted) rather than tested one by one in id order: walking a
// region holding 1/16 of the records costs about 16 tests per candidate.
const listBelow = 16

func (s *Source) pool(d *predicate.Distance, amenities []string) (*pool, error) {
	p := &pool{amenities: amenities}
	if len(amenities) > 0 {
		if m := s.amenityMasks(); m != nil {
			var ok bool
			p.masks = m
			p.want, ok = m.want(amenities)
			p.none = !ok
		}
	}
	if d == nil {
		return p, nil
	}
	reg, err := s.spatial.Region(spatial.Point{Lat: d.Center.Lat, Lon: d.Center.Lon}, d.Max)
	if err != nil {
		return nil, fmt.Errorf("spatial candidates: %w", err)
	}
	p.region = &reg
	if s.spatial.Count(reg)*listBelow < len(s.ents) {
		p.docs = s.pools.get(circle{d.Center.Lat, d.Center.Lon, d.Max}, func() []int32 {
			ids := s.spatial.Within(reg)
			docs := make([]int32, len(ids))
			for i, id := range ids { // ascending point ids are doc order
				docs[i] = s.geoDoc[id]
			}
			return docs
		})
	}
	return p, nil
}

// has reports whether doc is in the pool.
func (p *pool) has(s *Source, doc int32) bool {
	e := &s.ents[doc]
	if p.region != nil {
		if !e.hasGeo {
			return false
		}
		if p.docs != nil {
			if _, ok := slices.BinarySearch(p.docs, doc); !ok {
				return false
			}
		} else if !p.region.Covers(spatial.Point{Lat: e.geo.Lat, Lon: e.geo.Lon}) {
			return false
		}
	}
	return p.hasAmenities(s, doc)
}

// collect returns up to limit pool records from doc number from on, in doc
// order, leaving out those skip reports.
func (p *pool) collect(s *Source, from int32, limit int, skip func(int32) bool) []int32 {
	if p.docs != nil {
		i, _ := slices.BinarySearch(p.docs, from)
		// Room for the most that can be kept, at once: appends that grow
		// from nothing cost more than the search they serve.
		out := make([]int32, 0, min(limit, len(p.docs)-i))
		for _, d := range p.docs[i:] {
			if len(out) == limit {
				break
			}
			if (skip == nil || !skip(d)) && p.hasAmenities(s, d) {
				out = append(out, d)
			}
		}
		return out
	}
	out := make([]int32, 0, max(0, min(limit, len(s.ents)-int(from))))
	for d := from; int(d) < len(s.ents) && len(out) < limit; d++ {
		if (skip == nil || !skip(d)) && p.has(s, d) {
			out = append(out, d)
		}
	}
	return out
}

// hasAll reports whether every key is in sorted (the record's sorted
// amenity keys).
func hasAll(sorted, keys []string) bool {
	for _, k := range keys {
		if _, ok := slices.BinarySearch(sorted, k); !ok {
			return false
		}
	}
	return true
}

// Resolve maps ids and aliases of public records to their Locations.
func (s *Source) Resolve(_ context.Context, keys []string) (map[string][]location.Candidate, error) {
	out := make(map[string][]location.Candidate, len(keys))
	for _, k := range keys {
		doc := int32(-1)
		if i, ok := slices.BinarySearchFunc(s.ents, k, func(e entry, k string) int { return strings.Compare(e.id, k) }); ok {
			doc = int32(i)
		} else if i, ok := slices.BinarySearchFunc(s.aliases, k, func(a alias, k string) int { return strings.Compare(a.key, k) }); ok {
			doc = s.aliases[i].doc
		}
		if doc < 0 {
			continue
		}
		c, err := s.candidate(doc, 0, new(predicate.Candidate))
		if err != nil {
			return nil, err
		}
		out[k] = []location.Candidate{c}
	}
	return out, nil
}

// Serves implements the dataset's rules: a point is served within the
// record's radius_m by geodesic distance; an address is served when every
// non-empty member is in the corresponding service_area list (countries as
// alpha-2, regions case-insensitively, postal codes exactly).
func (s *Source) Serves(_ context.Context, t location.ServesTarget, cands []location.Candidate) ([]bool, error) {
	out := make([]bool, len(cands))
	for i, c := range cands {
		e, ok := c.Ref.(*entry)
		if !ok {
			return nil, fmt.Errorf("serves: candidate %q is not a store entry", c.Location.ID)
		}
		sa := s.areas[e.area]
		if sa == nil {
			continue
		}
		switch t.Key {
		case "point":
			out[i] = sa.RadiusM != nil && e.hasGeo && t.Point != nil && geodesic.Within(e.geo, *t.Point, *sa.RadiusM)
		case "address":
			a := t.Address
			out[i] = a != nil &&
				inList(s.lists[e.countries], a.Country, func(x, y string) bool { return x == y }) &&
				inList(sa.Regions, a.Region, strings.EqualFold) &&
				inList(sa.PostalCodes, a.PostalCode, func(x, y string) bool { return x == y })
		default:
			return nil, fmt.Errorf("%w: serves target %q", predicate.ErrUnevaluable, t.Key)
		}
	}
	return out, nil
}

// inList is true for an empty (absent) want, else when list holds it.
func inList(list []string, want string, eq func(string, string) bool) bool {
	if want == "" {
		return true
	}
	return slices.ContainsFunc(list, func(x string) bool { return eq(x, want) })
}

// itemsOf returns e's item codes, sorted.
func (s *Source) itemsOf(e *entry) []int32 { return itemSetAt(s.itemSets, e.items) }

// itemSetAt returns the set at off in sets, laid out as Source.itemSets.
func itemSetAt(sets []int32, off uint32) []int32 {
	if off == 0 {
		return nil
	}
	n := uint32(sets[off])
	return sets[off+1 : off+1+n]
}

// Items is true where every requested item is in the record's items.
func (s *Source) Items(_ context.Context, items []string, cands []location.Candidate) ([]bool, error) {
	out := make([]bool, len(cands))
	for i, c := range cands {
		e, ok := c.Ref.(*entry)
		if !ok {
			return nil, fmt.Errorf("items: candidate %q is not a store entry", c.Location.ID)
		}
		out[i] = true
		for _, it := range items {
			code, known := s.itemCode[it]
			if _, ok := slices.BinarySearch(s.itemsOf(e), code); !known || !ok {
				out[i] = false
				break
			}
		}
	}
	return out, nil
}
