// Package previous holds ucpgen's own copy of the UCP draft 2026-08-21
// Location schema set, the version before the bundled 2026-08-25 release,
// embedded so that a Business can generate and serve it beside the current
// one as UCP's supported_versions describes.
package previous

import "embed"

// FS holds the OpenRPC service description under services/ and the JSON
// Schemas under schemas/, laid out like the upstream draft's source tree so
// the generator reads it exactly as it reads the current set.
//
//go:embed services schemas
var FS embed.FS

// OpenRPCPath is the location inside FS of the MCP OpenRPC document, the
// generator's entry point into the tree.
const OpenRPCPath = "services/common/mcp.openrpc.json"

// Version is the UCP version this tree describes, also stated in the OpenRPC
// document's info.version; it names the version the older package answers at.
const Version = "2026-08-21"
