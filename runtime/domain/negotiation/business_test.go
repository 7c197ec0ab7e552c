package negotiation

import (
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/schemas"
)

// TestBusinessProfileSchemaHoldsBusinessRules checks Business profiles by
// the business_schema of each bundled tree: a well-formed profile passes,
// and each broken one is profile_malformed naming the business schema and
// the member at fault.
func TestBusinessProfileSchemaHoldsBusinessRules(t *testing.T) {
	const services = `"services": {"dev.ucp.common": [{"version": "%[1]s", "transport": "rest", "endpoint": "https://shop.example/ucp", "schema": "https://ucp.dev/%[1]s/services/common/rest.openapi.json"}]}`
	profile := func(version, extra string) string {
		return `{"ucp": {"version": "` + version + `", ` + strings.ReplaceAll(services, "%[1]s", version) + `, "capabilities": {}, "payment_handlers": {}` + extra + `}}`
	}
	for _, tree := range []struct {
		version string
		fs      func() (*ProfileSchema, error)
	}{
		{schemas.Version, func() (*ProfileSchema, error) { return CompileBusinessProfileSchema(schemas.FS) }},
		{schemas.PreviousVersion, func() (*ProfileSchema, error) { return CompileBusinessProfileSchema(schemas.Previous) }},
	} {
		s, err := tree.fs()
		if err != nil {
			t.Fatalf("compile business schema of %s: %v", tree.version, err)
		}
		if s.Version() != tree.version {
			t.Errorf("Version() = %q, want %q", s.Version(), tree.version)
		}
		for _, c := range []struct {
			name, doc, want string
		}{
			{"valid", profile(tree.version, ""), ""},
			{"valid with supported_versions", profile(tree.version, `, "supported_versions": {"2026-01-11": "https://shop.example/.well-known/ucp/2026-01-11"}`), ""},
			{"supported_versions key not a version", profile(tree.version, `, "supported_versions": {"draft": "https://shop.example/old"}`), `member name "draft"`},
			{"no payment_handlers", `{"ucp": {"version": "` + tree.version + `", ` + strings.ReplaceAll(services, "%[1]s", tree.version) + `}}`, "payment_handlers"},
			{"not an object", `[]`, "must be a JSON object"},
		} {
			t.Run(tree.version+"/"+c.name, func(t *testing.T) {
				err := s.Check([]byte(c.doc))
				if c.want == "" {
					if err != nil {
						t.Fatalf("Check: %v", err)
					}
					return
				}
				d, ok := rpcerr.AsDiscovery(err)
				if !ok || d.Code != rpcerr.ProfileMalformed {
					t.Fatalf("Check = %v, want profile_malformed", err)
				}
				if !strings.Contains(d.Content, "business profile") || !strings.Contains(d.Content, c.want) {
					t.Errorf("content %q does not name the business profile and %q", d.Content, c.want)
				}
			})
		}
	}
}
