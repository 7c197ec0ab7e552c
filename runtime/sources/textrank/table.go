package textrank

import "hash/maphash"

// table numbers short byte strings (tokens, field values) for a Part, in
// the order they are added, so that the Part keeps what goes with each in
// arrays of its own. A Go map of strings costs a Part, for each key it
// keeps, a string of its own and, for each lookup, a hop from the slot to
// that string; here the keys sit one after another in one array, and each
// slot holds its key's place and hash, so a lookup reads one slot and the
// key's bytes, and a new key allocates nothing but the array's growth.
// Places are 32-bit, as a Part's are: its keys are distinct words of one
// section of a file, far less than 4 GiB in any load that fits in memory.
type table struct {
	seed  maphash.Seed
	slots []tableSlot // a power of two, at most half full
	keys  []byte      // the keys, in the order they were added
	ends  []uint32    // key k is keys[ends[k-1]:ends[k]] (ends[-1] is 0)
}

// tableSlot is one place of the table's open addressing: key number key-1
// (0: empty), with the key's hash and place in keys beside it, so that most
// mismatches are seen without reading the key and a match reads it
// directly.
type tableSlot struct {
	hash   uint32
	key    uint32
	lo, hi uint32 // the key is keys[lo:hi]
}

// tableFirst is how many slots a table starts with.
const tableFirst = 1 << 10

func newTable() *table {
	return &table{seed: maphash.MakeSeed(), slots: make([]tableSlot, tableFirst)}
}

// len is the number of keys held.
func (t *table) len() int { return len(t.ends) }

// key returns key k's bytes, valid until the next add or reset.
func (t *table) key(k int) []byte {
	lo := uint32(0)
	if k > 0 {
		lo = t.ends[k-1]
	}
	return t.keys[lo:t.ends[k]]
}

// find returns key's number, or false. It does not keep key.
func (t *table) find(key string) (int, bool) {
	h := maphash.String(t.seed, key)
	tag := uint32(h >> 32)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s.key == 0 {
			return 0, false
		}
		if s.hash == tag && string(t.keys[s.lo:s.hi]) == key {
			return int(s.key - 1), true
		}
	}
}

// add keeps a copy of key, which find has just not found, and returns its
// number, len() before the call.
func (t *table) add(key string) int {
	if 2*(len(t.ends)+1) > len(t.slots) {
		t.grow()
	}
	t.keys = append(t.keys, key...)
	t.ends = append(t.ends, uint32(len(t.keys)))
	k := len(t.ends) - 1
	t.place(maphash.String(t.seed, key), k)
	return k
}

// place puts key number k, of hash h, in the first free slot from its
// home.
func (t *table) place(h uint64, k int) {
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for t.slots[i].key != 0 {
		i = (i + 1) & mask
	}
	lo := uint32(0)
	if k > 0 {
		lo = t.ends[k-1]
	}
	t.slots[i] = tableSlot{hash: uint32(h >> 32), key: uint32(k + 1), lo: lo, hi: t.ends[k]}
}

// grow doubles the slots and places every key again.
func (t *table) grow() {
	t.slots = make([]tableSlot, 2*len(t.slots))
	for k := range t.ends {
		t.place(maphash.Bytes(t.seed, t.key(k)), k)
	}
}

// reset forgets every key, keeping the arrays' room.
func (t *table) reset() {
	clear(t.slots)
	t.keys, t.ends = t.keys[:0], t.ends[:0]
}
