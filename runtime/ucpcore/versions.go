package ucpcore

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"
)

// SupportedVersion is one older UCP version a Business still serves beside
// the current one: the URI its leaf profile is published at and that
// profile, as rendered by the older generated package's BusinessProfile.
type SupportedVersion struct {
	Version string
	URI     string
	Profile []byte
}

// WithSupportedVersions returns the current Business profile with
// ucp.supported_versions listing each older version's leaf profile URI, so a
// Platform still on an older version finds the profile (and endpoints) to
// use. It refuses what UCP forbids: a version that is not a date, the
// current version or a repeat, a URI that is not absolute http(s), and a
// leaf whose ucp.version differs from its key or that lists
// supported_versions itself.
func WithSupportedVersions(current []byte, older []SupportedVersion) ([]byte, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(current, &doc); err != nil {
		return nil, fmt.Errorf("supported versions: current profile: %w", err)
	}
	var ucp map[string]json.RawMessage
	if err := json.Unmarshal(doc["ucp"], &ucp); err != nil || ucp == nil {
		return nil, errors.New("supported versions: current profile has no ucp object")
	}
	var version string
	if err := json.Unmarshal(ucp["version"], &version); err != nil {
		return nil, errors.New("supported versions: current profile has no ucp.version string")
	}
	if _, ok := ucp["supported_versions"]; ok {
		return nil, errors.New("supported versions: current profile already has ucp.supported_versions")
	}
	listed := make(map[string]string, len(older))
	for _, sv := range older {
		if err := checkSupported(sv, version, listed); err != nil {
			return nil, fmt.Errorf("supported versions: %s: %w", sv.Version, err)
		}
		listed[sv.Version] = sv.URI
	}
	raw, err := json.Marshal(listed)
	if err != nil {
		return nil, err
	}
	ucp["supported_versions"] = raw
	if doc["ucp"], err = json.Marshal(ucp); err != nil {
		return nil, err
	}
	return json.MarshalIndent(doc, "", "  ")
}

// checkSupported applies UCP's rules for one supported_versions entry.
func checkSupported(sv SupportedVersion, current string, listed map[string]string) error {
	if _, err := time.Parse(time.DateOnly, sv.Version); err != nil {
		return errors.New("a UCP version is a date YYYY-MM-DD")
	}
	if sv.Version == current {
		return errors.New("it is the current version, which /.well-known/ucp itself describes")
	}
	if _, dup := listed[sv.Version]; dup {
		return errors.New("listed twice")
	}
	u, err := url.Parse(sv.URI)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("URI %q is not an absolute http(s) URL", sv.URI)
	}
	var leaf struct {
		UCP *struct {
			Version   string          `json:"version"`
			Supported json.RawMessage `json:"supported_versions"`
		} `json:"ucp"`
	}
	if err := json.Unmarshal(sv.Profile, &leaf); err != nil || leaf.UCP == nil {
		return errors.New("its profile is not a JSON object with a ucp object")
	}
	if leaf.UCP.Version != sv.Version {
		return fmt.Errorf("its profile declares ucp.version %q", leaf.UCP.Version)
	}
	if leaf.UCP.Supported != nil {
		return errors.New("its profile lists supported_versions; a version's profile must be a leaf")
	}
	return nil
}
