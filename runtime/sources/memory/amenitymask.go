package memory

// A request's amenity filter is checked against every record of its pool.
// When the dataset names at most 64 distinct amenity keys, each record's
// keys are also held as bits of one dataset-wide numbering, and the check
// is one AND per record instead of a binary search per requested key.

// amenityMasks numbers the dataset's amenity keys and holds each public
// record's set of them by doc number.
type amenityMasks struct {
	bit   map[string]uint64
	masks []uint64
}

// amenityMasks is made on the first request that filters by amenity, or
// is nil when the dataset names more than 64 keys. Equal sets share their
// keys (see entry.amenities), so each distinct set is numbered once.
func (s *Source) amenityMasks() *amenityMasks {
	s.masksOnce.Do(func() {
		m := &amenityMasks{bit: map[string]uint64{}, masks: make([]uint64, len(s.ents))}
		// A set is known by where its keys lie: the same memory holds the
		// same keys.
		type set struct {
			first *string
			n     int
		}
		sets := map[set]uint64{}
		for d := range s.ents {
			keys := s.lists[s.ents[d].amenities]
			if len(keys) == 0 {
				continue
			}
			id := set{&keys[0], len(keys)}
			mask, seen := sets[id]
			if !seen {
				for _, k := range keys {
					b, ok := m.bit[k]
					if !ok {
						if len(m.bit) == 64 {
							return
						}
						b = 1 << len(m.bit)
						m.bit[k] = b
					}
					mask |= b
				}
				sets[id] = mask
			}
			m.masks[d] = mask
		}
		s.masks = m
	})
	return s.masks
}

// want is the mask of keys; ok is false when a key is not in the dataset,
// so that no record has them all.
func (m *amenityMasks) want(keys []string) (mask uint64, ok bool) {
	for _, k := range keys {
		b, found := m.bit[k]
		if !found {
			return 0, false
		}
		mask |= b
	}
	return mask, true
}
