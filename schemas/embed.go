// Package schemas holds ucpgen's own copy of the UCP 2026-08-25 Location
// schema tree, embedded so that tools and services can read it without
// knowing where a checkout lives.
package schemas

import "embed"

// FS holds the OpenRPC service description under services/ and the JSON
// Schemas under schemas/, embedded so the generator's default input and the
// runtime's profile validation work from any binary without a checkout path.
//
// A schema's file path is its $id with the "https://ucp.dev/" prefix removed,
// so "https://ucp.dev/schemas/ucp.json" lives at "schemas/ucp.json".
//
//go:embed services schemas
var FS embed.FS

// OpenRPCPath is the location inside FS of the MCP OpenRPC document, named
// once here because it is the generator's default entry point into the tree.
const OpenRPCPath = "services/common/mcp.openrpc.json"
