package dataset

import (
	"fmt"
	"strconv"

	"github.com/ucpgen/ucpgen/generated/location"
)

// Store is one store held as Go values rather than read from a file: what a
// Business whose stores live in its own code or database hands to a source.
// Its members mean what Record's do.
type Store struct {
	// Location is the buyer-facing UCP Location; the sources validate it
	// with the generated decoder when they load it.
	Location location.Location
	// Aliases are secondary identifiers Lookup resolves to this store.
	Aliases []string
	// Items are the catalogue item ids the store can provide.
	Items []string
	// ServiceArea is what the store serves; nil means no target.
	ServiceArea *ServiceArea
	// Private keeps the store out of every answer.
	Private bool
}

// Records turns stores into the records both sources load, encoding each
// Location with the generated encoder; the first Location that cannot be
// encoded is a *FieldError naming its index.
func Records(stores []Store) ([]Record, error) {
	recs := make([]Record, len(stores))
	for i := range stores {
		s := &stores[i]
		raw, err := s.Location.AppendJSON(nil)
		if err != nil {
			return nil, &FieldError{Index: i, Pointer: "/" + strconv.Itoa(i) + "/location", Reason: fmt.Sprintf("cannot encode the Location: %v", err)}
		}
		recs[i] = Record{
			Location:    raw,
			ID:          s.Location.ID,
			Aliases:     s.Aliases,
			Items:       s.Items,
			ServiceArea: s.ServiceArea,
			Private:     s.Private,
		}
	}
	return recs, nil
}
