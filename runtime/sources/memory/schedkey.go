package memory

import (
	"encoding/binary"
	"errors"

	"github.com/ucpgen/ucpgen/runtime/domain/hours"
)

// appendScheduleKey appends sc in a byte form that is equal for equal
// schedules and different otherwise (every string is length-prefixed), so
// it both shares compiled schedules at load and stores them in a snapshot.
func appendScheduleKey(k []byte, sc hours.Schedule) []byte {
	str := func(v string) {
		k = binary.AppendUvarint(k, uint64(len(v)))
		k = append(k, v...)
	}
	str(sc.Timezone)
	k = append(k, boolByte(sc.HasHours), boolByte(sc.HasExceptions))
	k = binary.AppendUvarint(k, uint64(len(sc.Hours)))
	for _, h := range sc.Hours {
		str(h.Day)
		str(h.Opens)
		str(h.Closes)
	}
	k = binary.AppendUvarint(k, uint64(len(sc.Exceptions)))
	for _, x := range sc.Exceptions {
		str(x.ValidFrom)
		str(x.ValidThrough)
		for _, p := range []*string{x.Opens, x.Closes} {
			if p == nil {
				k = append(k, 0)
			} else {
				k = append(k, 1)
				str(*p)
			}
		}
	}
	return k
}

var errScheduleKey = errors.New("malformed schedule")

// parseScheduleKey is the inverse of appendScheduleKey; any byte string it
// did not make is an error.
func parseScheduleKey(k string) (hours.Schedule, error) {
	var sc hours.Schedule
	bad := false
	uv := func() uint64 {
		v, n := binary.Uvarint([]byte(k[:min(len(k), binary.MaxVarintLen64)]))
		if n <= 0 {
			bad = true
			return 0
		}
		k = k[n:]
		return v
	}
	str := func() string {
		n := uv()
		if bad || n > uint64(len(k)) {
			bad = true
			return ""
		}
		s := k[:n]
		k = k[n:]
		return s
	}
	flag := func() bool {
		if bad || len(k) == 0 || k[0] > 1 {
			bad = true
			return false
		}
		b := k[0] == 1
		k = k[1:]
		return b
	}
	sc.Timezone = str()
	sc.HasHours = flag()
	sc.HasExceptions = flag()
	// Each interval takes at least three bytes, each exception four.
	if n := uv(); !bad && n <= uint64(len(k))/3 {
		for range n {
			sc.Hours = append(sc.Hours, hours.Interval{Day: str(), Opens: str(), Closes: str()})
		}
	} else {
		bad = true
	}
	if n := uv(); !bad && n <= uint64(len(k))/4 {
		for range n {
			x := hours.Exception{ValidFrom: str(), ValidThrough: str()}
			if flag() {
				v := str()
				x.Opens = &v
			}
			if flag() {
				v := str()
				x.Closes = &v
			}
			sc.Exceptions = append(sc.Exceptions, x)
		}
	} else {
		bad = true
	}
	if bad || len(k) != 0 {
		return hours.Schedule{}, errScheduleKey
	}
	return sc, nil
}
