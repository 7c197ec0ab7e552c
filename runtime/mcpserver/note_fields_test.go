package mcpserver

import (
	"context"
	"testing"
)

// TestCallNoteFields: a note for a wrapper that reads fields keeps what
// hooks Set and says it wants them; one for a wrapper that does not keeps
// nothing and says so, so hooks can skip building them; a nil note wants
// none and ignores Set.
func TestCallNoteFields(t *testing.T) {
	for _, tc := range []struct {
		name   string
		fields bool
		want   int
	}{
		{"read", true, 2},
		{"not read", false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, n := WithCallNoteFor(context.Background(), tc.fields)
			if NoteOf(ctx) != n {
				t.Fatal("NoteOf does not return the note")
			}
			if n.WantsFields() != tc.fields {
				t.Errorf("WantsFields = %v, want %v", n.WantsFields(), tc.fields)
			}
			n.Set("near", "40.71,-74.00")
			if _, _, _, _, got := n.Read(); len(got) != tc.want {
				t.Errorf("fields = %v, want %d values", got, tc.want)
			}
		})
	}
	if _, n := WithCallNote(context.Background()); !n.WantsFields() {
		t.Error("WithCallNote's note does not want fields")
	}
	var none *CallNote
	none.Set("k", "v")
	if none.WantsFields() {
		t.Error("a nil note wants fields")
	}
}
