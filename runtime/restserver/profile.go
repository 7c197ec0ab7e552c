package restserver

import (
	"encoding/json"
	"fmt"

	"github.com/ucpgen/ucpgen/runtime/mcpserver"
)

// AddProfileService adds the service entry s (the REST binding) to a
// rendered Business profile, beside the entries already listed under its
// name, and renders the profile again in the same layout.
func AddProfileService(profile []byte, s mcpserver.ProfileService) ([]byte, error) {
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
