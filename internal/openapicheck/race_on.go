//go:build race

package openapicheck

// Usable is false in a race-detector build: libopenapi v0.37.2's
// BuildV3Model appends to a slice its rolodex shares between goroutines,
// which the detector reports inside the library. A test checks exchanges
// only where Usable is true (the plain build).
const Usable = false
