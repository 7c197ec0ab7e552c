package ir

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/ucpgen/ucpgen/generator/load"
)

// PublishedURL is where the release publishes a file of the input tree:
// its $id with the release version as the first path segment
// (https://ucp.dev/schemas/x.json becomes https://ucp.dev/<version>/schemas/x.json).
// A $id that already names a release must name this model's. A file without
// a $id is placed beside the $id-bearing files of the tree.
func (m *Model) PublishedURL(file string) (string, error) {
	if err := (load.Release{Version: m.Version, From: m.Spec.Release.From}).Require(m.Spec.File); err != nil {
		return "", fmt.Errorf("published URLs are unknown: %w", err)
	}
	base := m.Spec.Set.Base(file)
	if strings.HasPrefix(base, "file:") {
		root, err := m.treeRoot()
		if err != nil {
			return "", fmt.Errorf("%s: %w", file, err)
		}
		base = root + file
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("%s: base URI %q: %w", file, base, err)
	}
	segs := strings.SplitN(strings.TrimPrefix(u.Path, "/"), "/", 2)
	if load.IsRelease(segs[0]) {
		if segs[0] != m.Version {
			return "", fmt.Errorf("%s: $id names release %s but info.version is %s", file, segs[0], m.Version)
		}
		return u.String(), nil
	}
	u.Path = "/" + m.Version + u.Path
	return u.String(), nil
}

// SpecURL is the ucp.dev page that specifies capability (for
// dev.ucp.common.location.search, /<version>/specification/common/location/search),
// or for an empty name the protocol overview a service entry cites: UCP's
// binding pages write profile entries with that template. A capability
// outside the dev.ucp namespace has no page there, so its SpecURL is empty.
func (m *Model) SpecURL(capability string) (string, error) {
	if err := (load.Release{Version: m.Version, From: m.Spec.Release.From}).Require(m.Spec.File); err != nil {
		return "", fmt.Errorf("specification URLs are unknown: %w", err)
	}
	page := "overview"
	if capability != "" {
		rest, ok := strings.CutPrefix(capability, "dev.ucp.")
		if !ok || rest == "" {
			return "", nil
		}
		page = strings.ReplaceAll(rest, ".", "/")
	}
	return "https://ucp.dev/" + m.Version + "/specification/" + page, nil
}

// treeRoot is the URI the input tree's root stands for, taken from the
// first loaded file whose $id ends in its own path inside the tree.
func (m *Model) treeRoot() (string, error) {
	for _, f := range m.Spec.Set.Files() {
		b := m.Spec.Set.Base(f)
		if !strings.HasPrefix(b, "file:") && strings.HasSuffix(b, "/"+f) {
			root := strings.TrimSuffix(b, f)
			u, err := url.Parse(root)
			if err != nil {
				return "", err
			}
			// A root that already carries the release loses it here;
			// PublishedURL puts the model's version back.
			segs := strings.SplitN(strings.TrimPrefix(u.Path, "/"), "/", 2)
			if load.IsRelease(segs[0]) {
				u.Path = "/" + strings.TrimPrefix(strings.TrimPrefix(u.Path, "/"+segs[0]), "/")
			}
			return u.String(), nil
		}
	}
	return "", fmt.Errorf("no file of the tree has a $id matching its path, so its published root is unknown")
}
