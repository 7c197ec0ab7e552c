package memory

import (
	"bufio"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/ucpgen/ucpgen/runtime/domain/hours"
	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
	"github.com/ucpgen/ucpgen/runtime/sources/internal/loadmem"
	"github.com/ucpgen/ucpgen/runtime/sources/spatial"
	"github.com/ucpgen/ucpgen/runtime/sources/textrank"
)

// A snapshot is a Source built from a dataset file, saved so that the next
// start on the same file by the same program opens it in a fraction of the
// time a build takes: no record is parsed, validated, tokenised or sorted
// again. It is bound to:
//
//   - the dataset file, by its dataset.Fingerprint (size and the CRC-32C of
//     every block), checked on every open, so a snapshot never serves other
//     contents than the ones it was built and validated from;
//   - the program that wrote it, by the size and CRC-32C of its executable,
//     since another build may validate, tokenise or index differently;
//   - the deployment that wrote it, by an HMAC-SHA-256 under the operator's
//     snapshot key (see ReadSnapshotKey), checked over the whole file before
//     a single field of it is decoded.
//
// Why a key rather than proving the decoded indexes right: a snapshot is
// trusted to hold what the build derived from the records (ids, the
// predicate views, postings, the spatial order, every cross-reference
// between them), and proving all of that again on open is a second build
// in all but name, and one that has to be kept exactly in step with every
// later change to the build. Anything less leaves a file whose checksum an
// attacker recomputed free to make the store serve what no build made. The
// MAC instead says "this deployment wrote these bytes", which, with the
// program and dataset bindings, means "these are the indexes a build of
// these contents made". The decoder still checks every bound and
// reference it reads, so a damaged or foreign file is refused with a
// reason rather than a panic, but it is not what keeps a forged one out.
//
// The key is the operator's own, from a file (never derived from the cursor
// keys, which are shared with every replica and rotate on their own
// schedule, and never a per-process key, under which no snapshot could be
// reopened). A snapshot under another key is refused with
// ErrSnapshotUnauthenticated, and the caller rebuilds; rotating the key
// therefore costs one build.
//
// Anything else (another format version, a damaged file) is refused too;
// the caller builds from the data instead and may write a new snapshot.
//
// Layout (integers are unsigned varints unless said otherwise):
//
//	magic     snapshotMagic
//	version   snapshotVersion
//	program   size, CRC-32C (4 bytes, little endian)
//	data      size, block, count, count CRC-32Cs (4 bytes each)
//	records   number of records in the dataset, private ones included
//	sections  schedules, entries, sets, item sets, areas, item codes,
//	          aliases, text index, spatial order; each is length, bytes
//	arena     length, bytes: every string above is (offset, length) in it
//	mac       HMAC-SHA-256 under the snapshot key of everything before it
//	          (the magic first, which keeps it apart from any other use of
//	          the key) (32 bytes)
//	checksum  CRC-32C of everything before it (4 bytes, little endian): a
//	          fast way to tell a damaged file from a foreign one
const (
	snapshotMagic   = "ucpgen storefinder snapshot\n"
	snapshotVersion = 2
	macLen          = sha256.Size
)

// ErrSnapshotStale is wrapped by OpenSnapshot's error when the snapshot is
// intact but was not made by this program from this dataset file (or in
// this format): it should be rebuilt, and nothing is wrong with it.
var ErrSnapshotStale = errors.New("snapshot is stale")

// ErrSnapshotUnauthenticated is wrapped by OpenSnapshot's error when the
// snapshot's MAC does not verify under the key given: it was written under
// another key, or altered since. Either way it is never decoded.
var ErrSnapshotUnauthenticated = errors.New("snapshot is not authenticated by the snapshot key")

// program identifies the running executable; a variable so tests can act
// as another build.
var program = sync.OnceValues(func() (programID, error) {
	exe, err := os.Executable()
	if err != nil {
		return programID{}, fmt.Errorf("find this program's executable: %w", err)
	}
	f, err := os.Open(exe)
	if err != nil {
		return programID{}, fmt.Errorf("read this program's executable: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return programID{}, fmt.Errorf("read this program's executable: %w", err)
	}
	fp, err := dataset.FingerprintOf(f, fi.Size(), max(1, fi.Size()))
	if err != nil {
		return programID{}, fmt.Errorf("read this program's executable %s: %w", exe, err)
	}
	var sum uint32
	if len(fp.Sums) > 0 {
		sum = fp.Sums[0]
	}
	return programID{size: uint64(fi.Size()), sum: sum}, nil
})

// programID is the size and CRC-32C of an executable.
type programID struct {
	size uint64
	sum  uint32
}

// WriteSnapshot saves s to path (replaced atomically: a reader sees the old
// file or the new one, never a part) for OpenSnapshot. Only a Source made
// by NewFile from a file whose Locations stayed in it can be saved.
//
// before is the dataset file's fingerprint taken before dataset.OpenFile
// parsed it: the file is fingerprinted again now, and a difference means
// it changed while it loaded, so no snapshot is written (the error wraps
// dataset.ErrChanged) rather than one that binds these indexes to other
// contents. key is the snapshot key (ReadSnapshotKey) that authenticates
// the file.
func (s *Source) WriteSnapshot(path string, before dataset.Fingerprint, key []byte) error {
	if err := checkKey(key); err != nil {
		return fmt.Errorf("snapshot %s: %w", path, err)
	}
	if s.file == nil || !s.file.InFile() {
		return fmt.Errorf("snapshot %s: the stores were not loaded from a dataset file that keeps their Locations (NewFile on a file of the fast path)", path)
	}
	if len(s.ents) >= loadGCThreshold {
		// The encoding garbage would otherwise let the heap grow to twice
		// the Source's size on top of it; the memory the build held is
		// enough for it.
		defer loadmem.LimitHeld()()
	}
	prog, err := program()
	if err != nil {
		return fmt.Errorf("snapshot %s: %w", path, err)
	}
	// The dataset is fingerprinted again while the snapshot is encoded,
	// and the snapshot is put in place only when nothing changed; the
	// header therefore binds the fingerprint taken before the load.
	type fingerprinted struct {
		fp  dataset.Fingerprint
		err error
	}
	again := make(chan fingerprinted, 1)
	go func() {
		fp, err := dataset.FileFingerprint(s.file.Path())
		again <- fingerprinted{fp, err}
	}()
	unchanged := func() error {
		got := <-again
		if got.err != nil {
			return fmt.Errorf("snapshot %s: fingerprint the dataset: %w", path, got.err)
		}
		if !got.fp.Equal(before) {
			return fmt.Errorf("snapshot %s: dataset %s: %w while it loaded; not saving its indexes", path, s.file.Path(), dataset.ErrChanged)
		}
		return nil
	}
	fp := before
	var head enc
	head.str(snapshotMagic)
	head.uv(snapshotVersion)
	head.uv(prog.size)
	head.u32(prog.sum)
	head.uv(uint64(fp.Size))
	head.uv(uint64(fp.Block))
	head.uv(uint64(len(fp.Sums)))
	for _, v := range fp.Sums {
		head.u32(v)
	}
	head.uv(uint64(s.records))

	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("snapshot %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing to remove
	// dataset.Checksum's CRC-32C, computed as the file streams out.
	sum := crc32.New(crc32.MakeTable(crc32.Castagnoli))
	mac := hmac.New(sha256.New, key)
	bw := bufio.NewWriterSize(tmp, 1<<20)
	put := func(b []byte) {
		sum.Write(b)
		mac.Write(b)
		bw.Write(b)
	}
	head.each(put)
	// Each section goes to the file as soon as it is encoded, so writing a
	// million stores holds one section at a time; the strings come last.
	w := newSnapshotWriter()
	// emit writes one section made of the bytes of parts, one after the
	// other, and releases them.
	emit := func(parts ...*enc) {
		n := 0
		for _, p := range parts {
			n += p.len()
		}
		put(binary.AppendUvarint(nil, uint64(n)))
		for _, p := range parts {
			p.each(put)
			p.release()
		}
	}
	if err := w.source(s, emit); err != nil {
		tmp.Close()
		return fmt.Errorf("snapshot %s: %w", path, err)
	}
	emit(&w.arena)
	// The MAC goes into the checksum; nothing goes into the MAC after it.
	tag := mac.Sum(nil)
	sum.Write(tag)
	bw.Write(tag)
	bw.Write(binary.LittleEndian.AppendUint32(nil, sum.Sum32()))
	if err := bw.Flush(); err != nil {
		tmp.Close()
		return fmt.Errorf("snapshot %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("snapshot %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("snapshot %s: %w", path, err)
	}
	if err := unchanged(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("snapshot %s: %w", path, err)
	}
	return nil
}

// OpenSnapshot opens the Source saved at snapPath, which must have been
// written by this program from the dataset file now at dataPath, under key;
// the file is read once to check that. The error wraps ErrSnapshotStale
// when the snapshot is intact but not for this program or these contents,
// ErrSnapshotUnauthenticated when its MAC does not verify under key, and
// fs.ErrNotExist when there is no snapshot; any other error names what is
// damaged. On success the Source serves exactly what NewFile on dataPath
// would, with opts.
func OpenSnapshot(snapPath, dataPath string, key []byte, opts Options) (*Source, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("snapshot %s: "+format, append([]any{snapPath}, args...)...)
	}
	if err := checkKey(key); err != nil {
		return nil, fail("%w", err)
	}
	b, err := os.ReadFile(snapPath)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	if len(b) < len(snapshotMagic) || string(b[:len(snapshotMagic)]) != snapshotMagic {
		return nil, fail("not a storefinder snapshot")
	}
	// The version is read before the file is authenticated only to refuse
	// another format with that reason; no other field is.
	if v, n := binary.Uvarint(b[len(snapshotMagic):]); n > 0 && v != snapshotVersion {
		return nil, fail("%w: format %d, this program reads format %d", ErrSnapshotStale, v, snapshotVersion)
	}
	if len(b) < len(snapshotMagic)+macLen+4 {
		return nil, fail("damaged (truncated to %d bytes)", len(b))
	}
	if dataset.Checksum(b[:len(b)-4]) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, fail("damaged (checksum mismatch)")
	}
	body, tag := b[:len(b)-4-macLen], b[len(b)-4-macLen:len(b)-4]
	mac := hmac.New(sha256.New, key)
	mac.Write(body)
	if !hmac.Equal(mac.Sum(nil), tag) {
		return nil, fail("%w: it was written under another key, or altered since", ErrSnapshotUnauthenticated)
	}
	d := &dec{b: body[len(snapshotMagic):], what: "layout"}
	if v := d.uv(); d.err == nil && v != snapshotVersion {
		return nil, fail("%w: format %d, this program reads format %d", ErrSnapshotStale, v, snapshotVersion)
	}
	got := programID{size: d.uv(), sum: d.u32()}
	prog, err := program()
	if err != nil {
		return nil, fail("%w", err)
	}
	if d.err == nil && got != prog {
		return nil, fail("%w: written by another build of this program", ErrSnapshotStale)
	}
	fp := dataset.Fingerprint{Size: int64(d.uv()), Block: int64(d.uv())}
	fp.Sums = make([]uint32, d.count(4))
	for i := range fp.Sums {
		fp.Sums[i] = d.u32()
	}
	records := int(d.uv())
	if d.err != nil {
		return nil, fail("%v", d.err)
	}
	// The dataset is checked while the snapshot decodes.
	type opened struct {
		df  *dataset.File
		err error
	}
	data := make(chan opened, 1)
	go func() {
		df, err := dataset.OpenKnown(dataPath, fp)
		data <- opened{df, err}
	}()
	s, err := decodeSource(d, fp.Size, opts)
	o := <-data
	switch {
	case err != nil:
		if o.df != nil {
			o.df.Close()
		}
		return nil, fail("%v", err)
	case errors.Is(o.err, dataset.ErrOtherContents):
		return nil, fail("%w: it was made from other contents of the dataset: %v", ErrSnapshotStale, o.err)
	case o.err != nil:
		return nil, fmt.Errorf("snapshot %s: %w", snapPath, o.err)
	}
	s.file = o.df
	s.records = records
	return s, nil
}

// snapshotWriter numbers the shared parts of a Source (schedules, string
// and item sets, service areas) as it writes them, so each is stored once.
type snapshotWriter struct {
	arena enc
	// spare holds the pieces of the sections already written, for the
	// next ones (see enc).
	spare      [][]byte
	sets       map[*string]uint64 // by the set's first element; 1-based
	setList    [][]string
	itemSets   map[*int32]uint64
	itemList   [][]int32
	areas      map[string]uint64 // by content
	key        []byte
	areaList   [][]byte
	schedIndex map[*hours.Compiled]uint64
}

func newSnapshotWriter() *snapshotWriter {
	w := &snapshotWriter{sets: map[*string]uint64{}, itemSets: map[*int32]uint64{},
		areas: map[string]uint64{}, schedIndex: map[*hours.Compiled]uint64{}}
	w.arena = w.enc()
	return w
}

// enc returns an empty section encoder whose pieces come from, and go
// back to, w's spare ones.
func (w *snapshotWriter) enc() enc { return enc{spare: &w.spare} }

// str appends a reference to v, stored in the arena.
func (w *snapshotWriter) str(e *enc, v string) {
	e.uv(uint64(w.arena.len()))
	e.uv(uint64(len(v)))
	w.arena.str(v)
}

func (w *snapshotWriter) strs(e *enc, list []string) {
	e.uv(uint64(len(list)))
	for _, v := range list {
		w.str(e, v)
	}
}

// number returns list's 1-based number in the table (0 for an empty
// list), numbering it when new. Lists are shared read-only slices, so one
// is known by its first element's address.
func number[T any](seen map[*T]uint64, table *[][]T, list []T) uint64 {
	if len(list) == 0 {
		return 0
	}
	if n, ok := seen[&list[0]]; ok {
		return n
	}
	*table = append(*table, list)
	n := uint64(len(*table))
	seen[&list[0]] = n
	return n
}

func (w *snapshotWriter) set(list []string) uint64 { return number(w.sets, &w.setList, list) }

func (w *snapshotWriter) itemSet(list []int32) uint64 { return number(w.itemSets, &w.itemList, list) }

// appendAreaKey appends a key for sa's contents: its lists length-prefixed
// and its radius's bits, so no two different areas share one.
func appendAreaKey(k []byte, sa *dataset.ServiceArea) []byte {
	for _, list := range [][]string{sa.Countries, sa.Regions, sa.PostalCodes} {
		k = binary.AppendUvarint(k, uint64(len(list)))
		k = appendListKey(k, list)
	}
	if sa.RadiusM != nil {
		k = binary.LittleEndian.AppendUint64(append(k, 1), math.Float64bits(*sa.RadiusM))
	}
	return k
}

// area numbers a service area by its contents (a Source opened from a
// snapshot holds equal areas the writer numbered apart as one, and so
// does the next snapshot).
func (w *snapshotWriter) area(sa *dataset.ServiceArea) uint64 {
	if sa == nil {
		return 0
	}
	w.key = appendAreaKey(w.key[:0], sa)
	if n, ok := w.areas[string(w.key)]; ok {
		return n
	}
	var e enc
	if len(sa.Countries) > 0 {
		w.setList = append(w.setList, sa.Countries)
		e.uv(uint64(len(w.setList)))
	} else {
		e.uv(0)
	}
	w.strs(&e, sa.Regions)
	w.strs(&e, sa.PostalCodes)
	if sa.RadiusM != nil {
		e.byte1(1)
		e.f64(*sa.RadiusM)
	} else {
		e.byte1(0)
	}
	w.areaList = append(w.areaList, e.flat())
	n := uint64(len(w.areaList))
	w.areas[string(w.key)] = n
	return n
}

// source encodes every section of s, handing each to emit (in one or more
// parts, to be written one after the other) in the order decodeSource
// reads them, as soon as it is encoded; emit may release the parts.
func (w *snapshotWriter) source(s *Source, emit func(...*enc)) error {
	// The text index's postings and names and the spatial order hold no
	// strings, so nothing they encode depends on the arena: they are
	// encoded on another core while the entries are.
	type stringless struct{ post, order enc }
	later := make(chan *stringless, 1)
	go func() {
		var t stringless
		f := s.text.Frozen()
		t.post.uv(uint64(len(f.Post)))
		t.post.uv(uint64(len(f.NameSeq)))
		for l := 0; l+1 < len(f.Off); l++ {
			list := f.Post[f.Off[l]:f.Off[l+1]]
			t.post.uv(uint64(len(list)))
			prev := int32(-1)
			for _, d := range list {
				t.post.uv(uint64(d - prev))
				prev = d
			}
		}
		for d := 0; d < f.Docs; d++ {
			seq := f.NameSeq[f.NameOff[d]:f.NameOff[d+1]]
			t.post.uv(uint64(len(seq)))
			for _, id := range seq {
				t.post.uv(uint64(id))
			}
		}
		ids := s.spatial.Order()
		t.order.uv(uint64(len(ids)))
		for _, id := range ids {
			t.order.uv(uint64(id))
		}
		later <- &t
	}()

	keys := make([]string, 0, len(s.schedules))
	for k := range s.schedules {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	sched := w.enc()
	sched.uv(uint64(len(keys)))
	for i, k := range keys {
		w.schedIndex[s.schedules[k]] = uint64(i + 1)
		w.str(&sched, k)
	}

	emit(&sched)
	ents := w.enc()
	ents.uv(uint64(len(s.ents)))
	for i := range s.ents {
		e := &s.ents[i]
		if e.raw != nil {
			return fmt.Errorf("location %q is held in memory, not in the dataset file", e.id)
		}
		w.str(&ents, e.id)
		ents.uv(uint64(e.span.Off))
		ents.uv(uint64(e.span.Len))
		ents.u32(e.span.Sum)
		if e.hasGeo {
			ents.byte1(1)
			ents.f64(e.geo.Lat)
			ents.f64(e.geo.Lon)
		} else {
			ents.byte1(0)
		}
		ents.uv(w.set(s.lists[e.amenities]))
		si, ok := w.schedIndex[s.compiled[e.compiled]]
		if !ok && e.compiled != 0 {
			return fmt.Errorf("location %q: its compiled schedule is not among the shared ones", e.id)
		}
		ents.uv(si)
		ents.uv(w.itemSet(s.itemsOf(e)))
		ents.uv(w.set(s.lists[e.countries]))
		ents.uv(w.area(s.areas[e.area]))
	}
	emit(&ents)
	// The shared tables are complete now; each section goes out as soon
	// as it is encoded, so the next one reuses its pieces.
	sets := w.enc()
	sets.uv(uint64(len(w.setList)))
	for _, l := range w.setList {
		w.strs(&sets, l)
	}
	emit(&sets)
	items := w.enc()
	items.uv(uint64(len(w.itemList)))
	for _, l := range w.itemList {
		items.uv(uint64(len(l)))
		for _, c := range l {
			items.uv(uint64(c))
		}
	}
	emit(&items)
	areas := w.enc()
	areas.uv(uint64(len(w.areaList)))
	for _, a := range w.areaList {
		areas.bytes(a)
	}
	emit(&areas)

	codes := make([]string, len(s.itemCode))
	for it, c := range s.itemCode {
		codes[c] = it
	}
	itemCodes := w.enc()
	w.strs(&itemCodes, codes)
	emit(&itemCodes)

	aliases := w.enc()
	aliases.uv(uint64(len(s.aliases)))
	for _, a := range s.aliases {
		w.str(&aliases, a.key)
		aliases.uv(uint64(a.doc))
	}
	emit(&aliases)

	text := w.enc()
	f := s.text.Frozen()
	text.uv(uint64(f.Docs))
	w.strs(&text, f.Vocab)
	t := <-later
	emit(&text, &t.post)
	emit(&t.order)
	return nil
}

// decodeSource reads the sections WriteSnapshot wrote, checking every
// reference and every order the request paths rely on.
func decodeSource(d *dec, dataSize int64, opts Options) (*Source, error) {
	secs := make([]*dec, 9)
	// In file order: entries come second because the shared tables after
	// them are complete only once every entry is written.
	names := []string{"schedules", "entries", "sets", "item sets", "service areas", "item codes", "aliases", "text index", "spatial order"}
	for i := range secs {
		secs[i] = d.section(names[i])
	}
	arena := d.uv()
	if d.err == nil && arena > uint64(len(d.b)) {
		d.fail("string arena: %d bytes, but only %d are left", arena, len(d.b))
	}
	if d.err == nil {
		d.arena = string(d.b[:arena])
		d.b = d.b[arena:]
	}
	d.done()
	if d.err != nil {
		return nil, d.err
	}
	for _, sec := range secs {
		sec.arena = d.arena
	}
	sched, ents, sets, items, areas, itemCodes, aliases, text, order := secs[0], secs[1], secs[2], secs[3], secs[4], secs[5], secs[6], secs[7], secs[8]

	// The text index is the largest section after the entries; it decodes
	// on another core meanwhile.
	type textResult struct {
		ix  *textrank.Index
		err error
	}
	textDone := make(chan textResult, 1)
	go func() {
		ix, err := decodeText(text)
		textDone <- textResult{ix, err}
	}()

	s := &Source{schedules: map[string]*hours.Compiled{}, itemCode: map[string]int32{}}
	compiled := []*hours.Compiled{nil}
	for range sched.count(2) {
		k := sched.str()
		if sched.err != nil {
			break
		}
		sc, err := parseScheduleKey(k)
		if err != nil {
			sched.fail("schedule %d: %v", len(compiled), err)
			break
		}
		c, err := sc.Compile()
		if err != nil {
			sched.fail("schedule %d: %v", len(compiled), err)
			break
		}
		s.schedules[k] = c
		compiled = append(compiled, c)
	}
	sched.done()

	setList := [][]string{nil}
	for range sets.count(1) {
		l := make([]string, sets.count(2))
		for i := range l {
			l[i] = sets.str()
		}
		setList = append(setList, l)
	}
	sets.done()

	s.itemSets = []int32{0}
	itemAt := []uint32{0} // by the set's number
	for range items.count(1) {
		n := items.count(1)
		at := len(s.itemSets)
		s.itemSets = append(s.itemSets, int32(n))
		for i := range n {
			c := int32(items.index(math.MaxInt32))
			if i > 0 && c <= s.itemSets[len(s.itemSets)-1] {
				items.fail("item set %d is not ascending", len(itemAt))
			}
			s.itemSets = append(s.itemSets, c)
		}
		if at > math.MaxUint32 {
			items.fail("item set %d lies beyond the item sets' 4 GiB", len(itemAt))
		}
		itemAt = append(itemAt, uint32(at))
	}
	items.done()

	areaList := []*dataset.ServiceArea{nil}
	for range areas.count(1) {
		sa := &dataset.ServiceArea{Countries: setList[areas.index(len(setList)-1)]}
		sa.Regions = areas.strs()
		sa.PostalCodes = areas.strs()
		switch areas.byte1() {
		case 0:
		case 1:
			r := areas.f64()
			sa.RadiusM = &r
		default:
			areas.fail("service area %d: bad radius flag", len(areaList))
		}
		areaList = append(areaList, sa)
	}
	areas.done()

	codes := itemCodes.strs()
	for i, it := range codes {
		if _, dup := s.itemCode[it]; dup {
			itemCodes.fail("item %q numbered twice", it)
		}
		s.itemCode[it] = int32(i)
	}
	itemCodes.done()
	for _, at := range itemAt[1:] {
		if l := itemSetAt(s.itemSets, at); len(l) > 0 && int(l[len(l)-1]) >= len(codes) {
			items.fail("item code %d of %d", l[len(l)-1], len(codes))
		}
	}

	for _, sec := range []*dec{sched, sets, items, areas, itemCodes} {
		if sec.err != nil {
			return nil, sec.err
		}
	}

	s.lists, s.compiled, s.areas = setList, compiled, areaList
	s.ents = make([]entry, ents.count(10))
	countrySets := make([]bool, len(setList))
	var points []spatial.Point
	for i := range s.ents {
		e := &s.ents[i]
		e.id = ents.str()
		e.span.Off = int64(ents.uv())
		e.span.Len = int32(ents.index(math.MaxInt32))
		e.span.Sum = ents.u32()
		if ents.err != nil {
			break
		}
		if e.span.Off < 0 || e.span.Len < 2 || e.span.Off > dataSize-int64(e.span.Len) {
			ents.fail("entry %d: location text at byte %d (%d bytes) is outside the %d-byte dataset", i, e.span.Off, e.span.Len, dataSize)
			break
		}
		if i > 0 && e.id <= s.ents[i-1].id {
			ents.fail("entry %d: id %q is not after %q", i, e.id, s.ents[i-1].id)
			break
		}
		switch ents.byte1() {
		case 0:
		case 1:
			e.hasGeo = true
			e.geo.Lat, e.geo.Lon = ents.f64(), ents.f64()
			s.geoDoc = append(s.geoDoc, int32(i))
			points = append(points, spatial.Point{Lat: e.geo.Lat, Lon: e.geo.Lon})
		default:
			ents.fail("entry %d: bad geo flag", i)
		}
		e.amenities = uint32(ents.index(len(setList) - 1))
		e.compiled = uint32(ents.index(len(compiled) - 1))
		e.items = itemAt[ents.index(len(itemAt)-1)]
		ci := ents.index(len(setList) - 1)
		e.countries = uint32(ci)
		countrySets[ci] = true
		e.area = uint32(ents.index(len(areaList) - 1))
	}
	ents.done()
	if ents.err != nil {
		return nil, ents.err
	}

	s.aliases = make([]alias, aliases.count(2))
	for i := range s.aliases {
		s.aliases[i] = alias{key: aliases.str(), doc: int32(aliases.index(len(s.ents) - 1))}
		if i > 0 && s.aliases[i].key < s.aliases[i-1].key {
			aliases.fail("alias %q is not after %q", s.aliases[i].key, s.aliases[i-1].key)
			break
		}
	}
	aliases.done()
	if aliases.err != nil {
		return nil, aliases.err
	}

	ids := make([]int32, order.count(1))
	for i := range ids {
		ids[i] = int32(order.index(math.MaxInt32))
	}
	order.done()
	if order.err != nil {
		return nil, order.err
	}
	ix, err := spatial.NewOrdered(points, ids)
	if err != nil {
		return nil, err
	}
	s.spatial = ix

	t := <-textDone
	if t.err != nil {
		return nil, t.err
	}
	if t.ix.Len() != len(s.ents) {
		return nil, fmt.Errorf("text index: %d documents for %d entries", t.ix.Len(), len(s.ents))
	}
	s.text = t.ix

	served := map[string]bool{}
	for i, used := range countrySets {
		if used {
			for _, c := range setList[i] {
				served[c] = true
			}
		}
	}
	s.setCapabilities(served, opts)
	return s, nil
}

// decodeText reads the text index section.
func decodeText(d *dec) (*textrank.Index, error) {
	var f textrank.Frozen
	f.Docs = d.index(math.MaxInt32)
	f.Vocab = d.strs()
	lists := textrank.FieldsPerToken * len(f.Vocab)
	f.Post = make([]int32, 0, d.count(1))
	f.NameSeq = make([]uint32, 0, d.count(1))
	if d.err == nil && lists > len(d.b) {
		d.fail("%d posting lists in %d bytes", lists, len(d.b))
	}
	if d.err != nil {
		return nil, d.err
	}
	f.Off = make([]uint32, 1, lists+1)
	for range lists {
		n := d.count(1)
		prev := int64(-1)
		for range n {
			prev += int64(d.uv())
			if prev > math.MaxInt32 {
				d.fail("document %d", prev)
				break
			}
			f.Post = append(f.Post, int32(prev))
		}
		if d.err != nil {
			return nil, d.err
		}
		f.Off = append(f.Off, uint32(len(f.Post)))
	}
	f.NameOff = make([]uint32, 1, f.Docs+1)
	for range f.Docs {
		n := d.count(1)
		for range n {
			f.NameSeq = append(f.NameSeq, uint32(d.index(math.MaxUint32)))
		}
		if d.err != nil {
			return nil, d.err
		}
		f.NameOff = append(f.NameOff, uint32(len(f.NameSeq)))
	}
	d.done()
	if d.err != nil {
		return nil, d.err
	}
	return textrank.FromFrozen(f)
}

// enc appends a snapshot's integers and bytes. A small enc grows as a
// slice does; past encPiece bytes it goes on in pieces of encPiece, kept
// in order, so a section of a hundred megabytes is allocated once instead
// of about twice over (the doubling copies), which for a million stores
// was most of what a snapshot's write spent, in the collector.
type enc struct {
	b    []byte   // the piece being appended to
	full [][]byte // the pieces before b, in order
	n    int      // bytes in full
	// spare, when set, holds released pieces to take before allocating.
	spare *[][]byte
}

// encPiece is the length of an enc's pieces once it has outgrown one.
const encPiece = 1 << 20

// room makes b able to take n (at most encPiece) more bytes without
// growing: no piece holds more than encPiece.
func (e *enc) room(n int) {
	if cap(e.b)-len(e.b) >= n {
		return
	}
	if len(e.b)+n <= encPiece {
		// Still the first piece: grow it as append would, up to encPiece.
		b := make([]byte, len(e.b), min(max(2*cap(e.b), len(e.b)+n, 64), encPiece))
		copy(b, e.b)
		e.b = b
		return
	}
	e.full = append(e.full, e.b)
	e.n += len(e.b)
	if sp := e.spare; sp != nil && len(*sp) > 0 {
		e.b = (*sp)[len(*sp)-1][:0]
		*sp = (*sp)[:len(*sp)-1]
		return
	}
	e.b = make([]byte, 0, encPiece)
}

// release empties e, handing its full-sized pieces to its spare ones.
func (e *enc) release() {
	if sp := e.spare; sp != nil {
		for _, p := range append(e.full, e.b) {
			if cap(p) == encPiece {
				*sp = append(*sp, p)
			}
		}
	}
	*e = enc{spare: e.spare}
}

func (e *enc) uv(v uint64) {
	e.room(binary.MaxVarintLen64)
	e.b = binary.AppendUvarint(e.b, v)
}

func (e *enc) u32(v uint32) {
	e.room(4)
	e.b = binary.LittleEndian.AppendUint32(e.b, v)
}

func (e *enc) f64(v float64) {
	e.room(8)
	e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v))
}

func (e *enc) byte1(v byte) {
	e.room(1)
	e.b = append(e.b, v)
}

// bytes appends p, filling the current piece before starting the next.
func (e *enc) bytes(p []byte) {
	for len(p) > 0 {
		if cap(e.b) == len(e.b) {
			e.room(min(len(p), encPiece))
		}
		k := copy(e.b[len(e.b):cap(e.b)], p)
		e.b, p = e.b[:len(e.b)+k], p[k:]
	}
}

// str appends the bytes of v.
func (e *enc) str(v string) {
	for len(v) > 0 {
		if cap(e.b) == len(e.b) {
			e.room(min(len(v), encPiece))
		}
		k := copy(e.b[len(e.b):cap(e.b)], v)
		e.b, v = e.b[:len(e.b)+k], v[k:]
	}
}

// flat returns the bytes appended in one slice: the only piece of a small
// enc, else a copy.
func (e *enc) flat() []byte {
	if len(e.full) == 0 {
		return e.b
	}
	out := make([]byte, 0, e.len())
	e.each(func(p []byte) { out = append(out, p...) })
	return out
}

// len is the number of bytes appended.
func (e *enc) len() int { return e.n + len(e.b) }

// each hands the bytes appended to fn, in order, a piece at a time.
func (e *enc) each(fn func([]byte)) {
	for _, p := range e.full {
		fn(p)
	}
	if len(e.b) > 0 {
		fn(e.b)
	}
}

// dec reads what enc wrote; its first error sticks, and every later read
// returns a zero value, so a decoder checks once per section.
type dec struct {
	b     []byte
	arena string
	what  string
	err   error
}

func (d *dec) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%s: %s", d.what, fmt.Sprintf(format, args...))
	}
}

func (d *dec) uv() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("truncated number")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) u32() uint32 {
	if d.err != nil {
		return 0
	}
	if len(d.b) < 4 {
		d.fail("truncated")
		return 0
	}
	v := binary.LittleEndian.Uint32(d.b)
	d.b = d.b[4:]
	return v
}

func (d *dec) f64() float64 {
	if d.err != nil {
		return 0
	}
	if len(d.b) < 8 {
		d.fail("truncated")
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}

func (d *dec) byte1() byte {
	if d.err != nil {
		return 0
	}
	if len(d.b) == 0 {
		d.fail("truncated")
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

// count reads a number of elements that take at least per bytes each, so a
// damaged count can never make a decoder allocate more than the file holds.
func (d *dec) count(per int) int {
	v := d.uv()
	if d.err == nil && v > uint64(len(d.b)/per) {
		d.fail("count %d exceeds what the remaining %d bytes can hold", v, len(d.b))
		return 0
	}
	return int(v)
}

// index reads a number in [0, n].
func (d *dec) index(n int) int {
	v := d.uv()
	if d.err == nil && v > uint64(n) {
		d.fail("reference %d out of range [0, %d]", v, n)
		return 0
	}
	return int(v)
}

func (d *dec) str() string {
	off, n := d.uv(), d.uv()
	if d.err == nil && (off > uint64(len(d.arena)) || n > uint64(len(d.arena))-off) {
		d.fail("string at %d (%d bytes) outside the %d-byte arena", off, n, len(d.arena))
	}
	if d.err != nil {
		return ""
	}
	return d.arena[off : off+n]
}

func (d *dec) strs() []string {
	n := d.count(2)
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

// section splits off the next length-prefixed section.
func (d *dec) section(name string) *dec {
	v := d.uv()
	if d.err == nil && v > uint64(len(d.b)) {
		d.fail("section %s: %d bytes, but only %d are left", name, v, len(d.b))
	}
	n := 0
	if d.err == nil {
		n = int(v)
	}
	sub := &dec{b: d.b[:n], arena: d.arena, what: name}
	if d.err != nil {
		sub.err = d.err
	}
	d.b = d.b[n:]
	return sub
}

// done fails when bytes are left over.
func (d *dec) done() {
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d bytes left over", len(d.b))
	}
}

// Records is the number of records the Source was loaded from, private ones
// included.
func (s *Source) Records() int { return s.records }
