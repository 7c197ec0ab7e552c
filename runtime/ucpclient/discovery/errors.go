package discovery

import (
	"fmt"
	"strings"
)

// ProfileError is a Business profile that could not be fetched or used.
type ProfileError struct {
	URL string
	// Code is the UCP discovery code when the failure has one
	// (profile_unreachable, profile_malformed, invalid_profile_url).
	Code   string
	Reason string
	Err    error
}

func (e *ProfileError) Error() string {
	if e.Code != "" {
		return fmt.Sprintf("discovery: business profile %s: %s: %s", e.URL, e.Code, e.Reason)
	}
	return fmt.Sprintf("discovery: business profile %s: %s", e.URL, e.Reason)
}

func (e *ProfileError) Unwrap() error { return e.Err }

// VersionError is a Business that offers none of the versions the client
// speaks.
type VersionError struct {
	Business string
	Want     string
	// Offered are the current version and those of supported_versions.
	Offered []string
}

func (e *VersionError) Error() string {
	return fmt.Sprintf("discovery: %s offers UCP %s, not %s, the version this client speaks", e.Business, strings.Join(e.Offered, ", "), e.Want)
}

// TransportError is a Business profile without an endpoint of a transport
// the client may use.
type TransportError struct {
	Business, Service, Version string
	Want, Offered              []string
}

func (e *TransportError) Error() string {
	offered := "none"
	if len(e.Offered) > 0 {
		offered = strings.Join(e.Offered, ", ")
	}
	return fmt.Sprintf("discovery: %s serves %s %s over %s; this client uses %s", e.Business, e.Service, e.Version, offered, strings.Join(e.Want, " or "))
}
