package ucpcore

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// AddProfileService adds the service entry s (another transport, such as
// the REST binding) to a rendered Business profile, beside the entries
// already listed under its name, and renders the profile again in the same
// layout.
func AddProfileService(profile []byte, s ProfileService) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(profile, &doc); err != nil {
		return nil, fmt.Errorf("add %s service: profile: %w", s.Transport, err)
	}
	ucp, ok := doc["ucp"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("add %s service: the profile has no ucp object", s.Transport)
	}
	services, _ := ucp["services"].(map[string]any)
	if services == nil {
		services = map[string]any{}
		ucp["services"] = services
	}
	e := map[string]string{"version": s.Version, "transport": s.Transport, "endpoint": s.Endpoint}
	if s.Spec != "" {
		e["spec"] = s.Spec
	}
	if s.Schema != "" {
		e["schema"] = s.Schema
	}
	list, _ := services[s.Name].([]any)
	services[s.Name] = append(list, e)
	return json.MarshalIndent(doc, "", "  ")
}

// ProfileHandler serves a rendered Business profile document (at
// /.well-known/ucp), with the caching UCP allows, for GET and HEAD.
func ProfileHandler(profile []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			// A JSON body, in the shape of the REST binding's refusals, so a
			// Platform's one error reader handles every answer of the Business.
			body, _ := json.Marshal(map[string]string{
				"code":    "method_not_allowed",
				"content": "the profile is read with GET or HEAD; no other method is allowed",
			})
			w.Header().Set("Allow", "GET, HEAD")
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("X-Content-Type-Options", "nosniff")
			w.WriteHeader(http.StatusMethodNotAllowed)
			w.Write(body)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "public, max-age=300")
		w.Write(profile)
	})
}

// ProfileService is one service entry a Business advertises: a transport
// and the endpoint it is served at.
type ProfileService struct {
	Name      string // e.g. dev.ucp.common
	Version   string
	Spec      string
	Schema    string
	Transport string
	Endpoint  string
}

// ProfileCapability is one advertised capability.
type ProfileCapability struct {
	Name    string
	Version string
	Spec    string
	Schema  string
}

// BusinessProfile renders the /.well-known/ucp document for the given
// services and capabilities; payment_handlers is present and empty, as the
// Location capability needs none.
func BusinessProfile(version string, services []ProfileService, caps []ProfileCapability) ([]byte, error) {
	type entry map[string]string
	svc := map[string][]entry{}
	for _, s := range services {
		e := entry{"version": s.Version, "transport": s.Transport, "endpoint": s.Endpoint}
		if s.Spec != "" {
			e["spec"] = s.Spec
		}
		if s.Schema != "" {
			e["schema"] = s.Schema
		}
		svc[s.Name] = append(svc[s.Name], e)
	}
	cp := map[string][]entry{}
	for _, c := range caps {
		e := entry{"version": c.Version, "schema": c.Schema}
		if c.Spec != "" {
			e["spec"] = c.Spec
		}
		cp[c.Name] = append(cp[c.Name], e)
	}
	return json.MarshalIndent(map[string]any{"ucp": map[string]any{
		"version":          version,
		"services":         svc,
		"capabilities":     cp,
		"payment_handlers": map[string]any{},
	}}, "", "  ")
}
