package location

// The files next to this one are generated from the UCP 2026-08-25 schema
// set bundled in ../../schemas/2026-08-25 (the generator's default input).
// Regenerate after changing the generator or the schemas:
//
//go:generate go run github.com/ucpgen/ucpgen/cmd/ucpgen generate --out . --package location
