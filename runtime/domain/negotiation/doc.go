// Package negotiation implements the Business side of UCP discovery and
// capability negotiation, so an MCP tool handler can turn the Platform profile
// URI from meta["ucp-agent"].profile into the protocol version and active
// capabilities it must echo in ucp, or into the -32001 discovery error it must
// return instead.
//
// The pieces, from the bottom up:
//
//   - Profile holds a Platform profile document ({ucp, keys?}). DecodeProfile
//     reads it; ProfileSchema (CompileProfileSchema, BundledProfileSchema)
//     checks it against one UCP version's platform profile schema, and
//     ParseProfile does both with the bundled schema.
//   - ProfileSource is the pluggable way to obtain a Profile; HTTPSource is the
//     production implementation: HTTPS only, SSRF-guarded, size- and
//     time-bounded, cached per HTTP caching rules and single-flighted.
//   - Intersect is the UCP capability intersection algorithm.
//   - Negotiator is what the MCP layer calls; ProfileNegotiator fetches and
//     intersects, Disabled skips discovery for trusted deployments and tests.
//
// Decisions where the UCP texts are silent or leave a choice, all documented
// on the identifiers they affect:
//
//   - Protocol version: a request may proceed only when the Platform's
//     ucp.version equals the Business's current version or one of the older
//     versions it configures (the UCP "supported_versions" rule); anything
//     else, older or newer, is version_unsupported. Capability negotiation then
//     uses the Business capabilities configured for that exact version, and
//     the Platform profile is checked against that version's schema
//     (Business.Schema). ProfileNegotiator.At fixes the version an endpoint
//     answers at, for a Business that serves each version at its own
//     endpoint.
//   - Multi-parent extensions: UCP keeps an extension when at least one of its
//     parents remains. Extensions are additionally required to be anchored in a
//     root capability, so an extension cycle with no root is pruned.
//   - The extends declaration that counts is the Business's own entry for the
//     selected version; the Platform's copy is not consulted.
//   - Caching: no cache headers means DefaultTTL (5 minutes); no-store is never
//     cached; no-cache and max-age=0 are stored but revalidated on every use.
//   - Redirects: followed up to MaxRedirects (default 3), every hop re-checked
//     for scheme, userinfo and address. UCP's overview asks verifiers not to
//     follow redirects at all; set MaxRedirects to a negative value for that.
package negotiation
