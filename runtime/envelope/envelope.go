// Package envelope holds the ucp member every UCP response carries and the
// negotiated outcome that fills it, so the MCP glue can consume a negotiator
// without importing one (and without the JSON Schema engine a real
// negotiator uses to check Platform profiles).
package envelope

import (
	"context"
	"fmt"
	"maps"

	"github.com/ucpgen/ucpgen/runtime/jsonenc"
)

// Negotiator is what a tool handler asks before doing any work, so that the
// binding learns the version and capabilities to echo, or a -32001
// *rpcerr.Discovery error to return, without knowing how profiles are fetched.
type Negotiator interface {
	// Negotiate resolves profileURL (meta["ucp-agent"].profile) and reports
	// the outcome for a tool that implements toolCapability.
	Negotiate(ctx context.Context, profileURL, toolCapability string) (Outcome, error)
}

// Outcome is a successful discovery, kept as plain names and versions so
// every binding can render it without the negotiation machinery.
type Outcome struct {
	// Version is the protocol version the request is processed under,
	// echoed as ucp.version.
	Version string
	// Active maps every capability of the negotiated intersection to its
	// version.
	Active map[string]string
	// Capabilities maps the tool's capability and the active extensions that
	// reach it to their versions: what ucp.capabilities advertises.
	Capabilities map[string]string
	// ToolCapability is the capability the calling tool implements.
	ToolCapability string
	// Compatible is false when ToolCapability is not active; the tool must
	// then answer with the capabilities_incompatible business outcome.
	Compatible bool
}

// Fixed reports the same outcome for every request, so trusted deployments
// and tests can run without discovery. The outcomes share their maps, made
// once here: they are read-only, as every Outcome is.
func Fixed(version string, capabilities map[string]string) Negotiator {
	f := fixed{version: version, caps: maps.Clone(capabilities), own: make(map[string]map[string]string, len(capabilities))}
	for c, v := range f.caps {
		f.own[c] = map[string]string{c: v}
	}
	return f
}

type fixed struct {
	version string
	caps    map[string]string
	// own maps each capability to the Capabilities of its tools' outcome.
	own map[string]map[string]string
}

func (f fixed) Negotiate(_ context.Context, _ string, tool string) (Outcome, error) {
	out := Outcome{Version: f.version, Active: f.caps, ToolCapability: tool, Capabilities: f.own[tool]}
	if out.Capabilities != nil {
		out.Compatible = true
	} else {
		out.Capabilities = map[string]string{}
	}
	return out, nil
}

// VersionRef is one entry of a capability array in a response's ucp member,
// which carries only the version.
type VersionRef struct {
	Version string `json:"version"`
}

// UCP is the ucp member of a tool response, ready to marshal.
type UCP struct {
	Version      string                  `json:"version"`
	Status       string                  `json:"status,omitempty"`
	Capabilities map[string][]VersionRef `json:"capabilities"`
}

// Statuses are the ucp.status values the runtime writes and reads (absent
// status means "success"); the generator compares them with the schema's
// status enum, so a status added upstream is reported at generate time.
var Statuses = []string{"success", StatusError}

// MessageTypes are the message type values the runtime builds and the
// bindings route (an error message accompanies status "error"); the
// generator compares them with the schema's message variants.
var MessageTypes = []string{"error", "warning", "info"}

// StatusError is the ucp.status value of a response that reports a business
// outcome error such as capabilities_incompatible.
const StatusError = "error"

// CodeCapabilitiesIncompatible is the message code UCP defines for an empty or
// tool-less intersection.
const CodeCapabilitiesIncompatible = "capabilities_incompatible"

// UCP builds the response's ucp member: status "error" with no capabilities
// when the tool's capability was not negotiated, otherwise the version and the
// relevant capabilities (status omitted, which UCP reads as "success").
func (o Outcome) UCP() UCP {
	if !o.Compatible {
		return UCP{Version: o.Version, Status: StatusError, Capabilities: map[string][]VersionRef{}}
	}
	out := make(map[string][]VersionRef, len(o.Capabilities))
	for name, v := range o.Capabilities {
		out[name] = []VersionRef{{Version: v}}
	}
	return UCP{Version: o.Version, Capabilities: out}
}

// ErrorMessage holds the fields of a UCP error message (type "error"), so a
// binding can put it in messages[] without knowing the negotiation details.
type ErrorMessage struct {
	Type     string `json:"type"`
	Code     string `json:"code"`
	Content  string `json:"content"`
	Severity string `json:"severity"`
}

// IncompatibleMessage builds the capabilities_incompatible error message that
// accompanies ucp.status "error"; severity is unrecoverable because retrying
// cannot help until a profile changes.
func (o Outcome) IncompatibleMessage() ErrorMessage {
	content := "No compatible capabilities in the intersection."
	if o.ToolCapability != "" {
		content = fmt.Sprintf("Capability %s is not supported by both the platform and the business at a common version.", o.ToolCapability)
	}
	return ErrorMessage{Type: "error", Code: CodeCapabilitiesIncompatible, Content: content, Severity: "unrecoverable"}
}

// AppendUCP appends the JSON of o.UCP(), the bytes json.Marshal writes for
// it, without building the map or reflecting over it: every tool response
// carries this member.
func (o Outcome) AppendUCP(b []byte) []byte {
	b = append(b, `{"version":`...)
	b = jsonenc.AppendString(b, o.Version)
	if !o.Compatible {
		b = append(b, `,"status":`...)
		b = jsonenc.AppendString(b, StatusError)
		return append(b, `,"capabilities":{}}`...)
	}
	b = append(b, `,"capabilities":{`...)
	// json.Marshal writes map members in key order. An outcome names a
	// handful of capabilities: their names are sorted in a small buffer on
	// the stack, not collected through an iterator on the heap.
	for i, name := range jsonenc.SortedKeys(o.Capabilities, make([]string, 0, 8)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonenc.AppendString(b, name)
		b = append(b, `:[{"version":`...)
		b = jsonenc.AppendString(b, o.Capabilities[name])
		b = append(b, `}]`...)
	}
	return append(b, `}}`...)
}
