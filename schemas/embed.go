// Package schemas holds ucpgen's own copies of the UCP Location schema trees
// it bundles, one folder per version (2026-08-25/, the current release, and
// 2026-08-21/, the draft before it), embedded so that tools and services can
// read them without knowing where a checkout lives. Each folder is a complete
// tree that ucpgen generate --schemas accepts.
package schemas

import (
	"embed"
	"io/fs"
)

// Version is the UCP release of FS, the tree the generator reads by default.
const Version = "2026-08-25"

// PreviousVersion is the UCP version of Previous, the one a Business serves
// beside Version as UCP's supported_versions describes.
const PreviousVersion = "2026-08-21"

// OpenRPCPath is the location inside each tree of the MCP OpenRPC document,
// named once here because it is the generator's default entry point.
const OpenRPCPath = "services/common/mcp.openrpc.json"

//go:embed 2026-08-25/services 2026-08-25/schemas 2026-08-21/services 2026-08-21/schemas
var bundled embed.FS

// FS holds the Version tree: the OpenRPC service description and REST binding
// under services/ and the JSON Schemas under schemas/, so the generator's
// default input and the runtime's profile validation work from any binary.
//
// A schema's file path is its $id with the "https://ucp.dev/" prefix removed,
// so "https://ucp.dev/schemas/ucp.json" lives at "schemas/ucp.json".
var FS = tree(Version)

// Previous holds the PreviousVersion tree, laid out like the upstream draft's
// source tree so the generator reads it exactly as it reads FS.
var Previous = tree(PreviousVersion)

// tree is the bundled folder of one version; the folder names are fixed by
// the embed directive above, so a failure is a build mistake.
func tree(version string) fs.FS {
	sub, err := fs.Sub(bundled, version)
	if err != nil {
		panic("schemas: bundled tree " + version + ": " + err.Error())
	}
	return sub
}
