package ucpcore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// TestCallSpansScannedMatchesCallSpans holds the walk for well-formed
// arguments to the checking one: for arguments that are valid JSON, good
// calls and every refusal the split and the profile make (a repeated or
// unknown member, a missing or repeated ucp-agent or profile, a profile
// that is not a string, arguments or meta that are not objects), both give
// the same body and the same error.
func TestCallSpansScannedMatchesCallSpans(t *testing.T) {
	ep := ucpcore.NewEndpoint(greetTool(), &ucpcore.Options{Version: "2026-08-25"})
	const meta = `{"ucp-agent":{"profile":"https://agent.example/profile.json"}}`
	for _, args := range []string{
		`{"meta":` + meta + `,"who":"world"}`,
		` {"who":"w\u00e9rld" , "meta":` + meta + `}`,
		`{"meta":` + meta + `,"who":7}`,
		`{"meta":` + meta + `,"who":"a","who":"b"}`,
		`{"meta":` + meta + `,"who":"a","extra":[1,{"x":"}"}]}`,
		`{"who":"a"}`,
		`{"meta":{},"who":"a"}`,
		`{"meta":{"ucp-agent":{}},"who":"a"}`,
		`{"meta":{"ucp-agent":{"profile":"https://a.example/p.json","profile":"https://b.example/p.json"}},"who":"a"}`,
		`{"meta":{"ucp-agent":{"profile":"https://a.example/p.json"},"ucp-agent":{"profile":"https://b.example/p.json"}},"who":"a"}`,
		`{"meta":{"ucp-agent":{"profile":42}},"who":"a"}`,
		`{"meta":{"ucp-agent":{"profile":"https:\/\/agent.example\/profile.json"}},"who":"a"}`,
		`{"meta":[],"who":"a"}`,
		`{"meta":{"ucp-agent":"x"},"who":"a"}`,
		`[]`,
		`"x"`,
		`{}`,
	} {
		t.Run(args, func(t *testing.T) {
			if !json.Valid([]byte(args)) {
				t.Fatalf("test arguments are not valid JSON")
			}
			want, _, wantErr := ep.CallSpans(context.Background(), json.RawMessage(args))
			got, _, gotErr := ep.CallSpansScanned(context.Background(), json.RawMessage(args))
			if !bytes.Equal(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Errorf("CallSpansScanned = %s, %v\nCallSpans        = %s, %v", got, gotErr, want, wantErr)
			}
		})
	}
}

// FuzzCallSpansScanned checks that well-formed arguments get the same
// answer from both walks, and that malformed ones never panic the scanned
// walk.
func FuzzCallSpansScanned(f *testing.F) {
	f.Add(`{"meta":{"ucp-agent":{"profile":"https://agent.example/p.json"}},"who":"world"}`)
	f.Add(`{"meta":{"ucp-agent":{"profile":"https://agent.example/p.json"}},"who":"a","who":"b"}`)
	f.Add(`{"meta":{"ucp-agent":{"profile":"x"}} "who":"a"}`)
	ep := ucpcore.NewEndpoint(greetTool(), &ucpcore.Options{Version: "2026-08-25"})
	f.Fuzz(func(t *testing.T, args string) {
		got, _, gotErr := ep.CallSpansScanned(context.Background(), json.RawMessage(args))
		if !json.Valid([]byte(args)) {
			return
		}
		want, _, wantErr := ep.CallSpans(context.Background(), json.RawMessage(args))
		if !bytes.Equal(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%s: CallSpansScanned = %s, %v; CallSpans = %s, %v", args, got, gotErr, want, wantErr)
		}
	})
}
