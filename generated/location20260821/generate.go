package location20260821

// The files next to this one are generated from the UCP draft 2026-08-21
// schema set in ../../schemas/2026-08-21, the version a Business serves beside
// the current one. Regenerate after changing the generator or the schemas:
//
//go:generate go run github.com/ucpgen/ucpgen/cmd/ucpgen generate --schemas ../../schemas/2026-08-21 --out . --package location20260821 --serve-from github.com/ucpgen/ucpgen/generated/location
