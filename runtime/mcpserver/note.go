package mcpserver

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// CallNote is what the HTTP endpoint learned about one request (its method,
// JSON-RPC id, tool and caller, as the endpoint itself decoded them), for
// an access log or metrics that wrap the endpoint and must describe the
// call that ran rather than parse the body a second time. Hooks may add
// fields (say, coarse coordinates) with Set. It is safe for concurrent use.
type CallNote struct {
	mu     sync.Mutex
	method string
	tool   string
	id     jsonrpc.ID
	caller string
	fields []any
	// noFields: the wrapper reads no fields, so Set keeps none.
	noFields bool
}

type noteKey struct{}

// WithCallNote returns ctx carrying a fresh note, which Handler (and the
// core, through ucpcore.WithObserver) fills in for the request served with
// that context, and the note.
func WithCallNote(ctx context.Context) (context.Context, *CallNote) {
	return WithCallNoteFor(ctx, true)
}

// WithCallNoteFor is WithCallNote for a wrapper that says whether it reads
// the fields hooks Set (an access log does, metrics alone do not), so that
// hooks can skip building fields no one reads (WantsFields).
func WithCallNoteFor(ctx context.Context, fields bool) (context.Context, *CallNote) {
	n := &CallNote{noFields: !fields}
	return ucpcore.WithObserver(context.WithValue(ctx, noteKey{}, n), n), n
}

// WantsFields reports whether what Set adds will be read; a nil note wants
// none.
func (n *CallNote) WantsFields() bool { return n != nil && !n.noFields }

// NoteOf returns the note ctx carries, or nil; tool handlers get the note of
// the HTTP request that carried their call on both the direct and SDK paths.
func NoteOf(ctx context.Context) *CallNote {
	n, _ := ctx.Value(noteKey{}).(*CallNote)
	return n
}

func (n *CallNote) request(method string, id jsonrpc.ID) {
	if n == nil {
		return
	}
	n.mu.Lock()
	n.method, n.id = method, id
	n.mu.Unlock()
}

// ObserveCall records the tool and caller of a tools/call; it makes a note
// a ucpcore.Observer, which the core tells as it charges the call.
func (n *CallNote) ObserveCall(tool, caller string) {
	if n == nil {
		return
	}
	n.mu.Lock()
	n.tool, n.caller = tool, caller
	n.mu.Unlock()
}

// Set adds key/value pairs (slog style) to the note; a note whose wrapper
// reads no fields keeps none.
func (n *CallNote) Set(args ...any) {
	if n == nil || n.noFields {
		return
	}
	n.mu.Lock()
	n.fields = append(n.fields, args...)
	n.mu.Unlock()
}

// Read returns what the note holds: the JSON-RPC method and id (a zero id
// when the request had none or was refused before it was read), the tool
// and caller of a tools/call, and the fields hooks Set.
func (n *CallNote) Read() (method string, id jsonrpc.ID, tool, caller string, fields []any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.method, n.id, n.tool, n.caller, append([]any(nil), n.fields...)
}
