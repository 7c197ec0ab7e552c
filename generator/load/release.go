package load

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// releasePattern is the shape of a UCP release label: a YYYY-MM-DD date.
var releasePattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// CheckRelease says why v is not a UCP release label (nil when it is one):
// a release is a real calendar date written YYYY-MM-DD. It is the one check
// of that format, for the flag, info.version and URL segments alike, so a
// label the loader accepts is one every emitter accepts too.
func CheckRelease(v string) error {
	if !releasePattern.MatchString(v) {
		return errors.New("it is not a date written YYYY-MM-DD")
	}
	y, _ := strconv.Atoi(v[0:4])
	m, _ := strconv.Atoi(v[5:7])
	d, _ := strconv.Atoi(v[8:10])
	if m < 1 || m > 12 {
		return fmt.Errorf("there is no month %s (months run 01 to 12)", v[5:7])
	}
	// Day 0 of the next month is the last day of this one.
	last := time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
	if d < 1 || d > last {
		return fmt.Errorf("%s has days 01 to %d, so there is no day %s", v[0:7], last, v[8:10])
	}
	return nil
}

// IsRelease reports whether v is a UCP release label (see CheckRelease), so
// that a pre-release word such as "draft" is never taken for one.
func IsRelease(v string) bool { return CheckRelease(v) == nil }

// FlagName is the command-line flag that states the release of a tree
// which does not state it itself; errors name it so the user knows the fix.
const FlagName = "--ucp-version"

// Release is the UCP version an input tree describes and where that was
// read, so generated headers can say why they carry the version they do.
type Release struct {
	// Version is the release label (YYYY-MM-DD), or a non-release
	// info.version of a document that is not a UCP binding, or empty.
	Version string
	// From says where Version was stated, e.g. "info.version of
	// services/common/mcp.openrpc.json" or "--ucp-version".
	From string
}

// Require returns an error naming --ucp-version unless r is a UCP release;
// emitters that write ProtocolVersion and published URLs call it.
func (r Release) Require(file string) error {
	if r.Version == "" {
		return fmt.Errorf("%s: the UCP version is unknown: the document has no info.version and no $id/$ref URL names a release; pass %s YYYY-MM-DD (UCP's source/ trees state no version)", file, FlagName)
	}
	if err := CheckRelease(r.Version); err != nil {
		return fmt.Errorf("%s: UCP version %q (%s) is not a UCP release (YYYY-MM-DD): %w; pass %s with the release the schemas describe", file, r.Version, r.From, err, FlagName)
	}
	return nil
}

// TreePath maps an absolute URL of UCP's published layout
// (https://ucp.dev/<version>/<path>) or of the source layout
// (https://ucp.dev/<path>) to the file of fsys it stands for, and returns
// the version segment it carried ("" for the source layout). ok is false
// when no file of the tree matches, so foreign URLs stay foreign. The
// OpenRPC and OpenAPI loaders share it, so both layouts resolve alike.
func TreePath(fsys fs.FS, raw string) (file, version string, ok bool) {
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Scheme == "file" {
		return "", "", false
	}
	p := strings.TrimPrefix(path.Clean("/"+u.Path), "/")
	if p == "" || p == "." {
		return "", "", false
	}
	if isFile(fsys, p) {
		return p, "", true
	}
	first, rest, found := strings.Cut(p, "/")
	if !found || isDir(fsys, first) || !isFile(fsys, rest) {
		return "", "", false
	}
	return rest, first, true
}

func isFile(fsys fs.FS, p string) bool {
	st, err := fs.Stat(fsys, p)
	return err == nil && !st.IsDir()
}

func isDir(fsys fs.FS, p string) bool {
	st, err := fs.Stat(fsys, p)
	return err == nil && st.IsDir()
}

// versionClaim is one place an input states its release.
type versionClaim struct {
	version string
	where   string
	// server marks a version read from a server URL rather than a $id or
	// $ref, so a conflict names the right kind of place.
	server bool
}

// source says where a claim was read, for Release.From and for errors.
func (c versionClaim) source() string {
	if c.server {
		return "the server URL at " + c.where
	}
	return "the $id/$ref URLs (e.g. " + c.where + ")"
}

// urlClaims collects the release named by $id, $ref and server URLs,
// keeping the first location of each version so a conflict can name both
// places.
type urlClaims struct {
	fsys  fs.FS
	seen  map[string]bool
	first []versionClaim
}

// note records the version raw names, if any; where is file#/pointer.
func (c *urlClaims) note(raw, where string) {
	_, v, ok := TreePath(c.fsys, raw)
	if !ok || v == "" {
		return
	}
	c.add(versionClaim{version: v, where: where})
}

// noteServer records the version a server URL names: a URL on ucp.dev
// whose first path segment has the YYYY-MM-DD shape (a segment of that
// shape that is no date is recorded too, so it is refused, not skipped).
// Server URLs name no file of the tree, so TreePath cannot place them.
func (c *urlClaims) noteServer(raw, where string) {
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || !strings.EqualFold(u.Hostname(), "ucp.dev") {
		return
	}
	first, _, _ := strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
	if releasePattern.MatchString(first) {
		c.add(versionClaim{version: first, where: where, server: true})
	}
}

func (c *urlClaims) add(v versionClaim) {
	if c.seen[v.version] {
		return
	}
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	c.seen[v.version] = true
	c.first = append(c.first, v)
}

// mark and reset let the loader drop what a document it then ignores
// (a REST binding it could not read) claimed.
func (c *urlClaims) mark() int { return len(c.first) }

func (c *urlClaims) reset(n int) {
	for _, v := range c.first[n:] {
		delete(c.seen, v.version)
	}
	c.first = c.first[:n]
}

// servers notes the versions named by a document's server URLs: each
// servers[i].url and the default and enum values of its variables.
func (c *urlClaims) servers(root *Node) {
	list := root.Get("servers")
	if list == nil || list.Kind != Array {
		return
	}
	for _, srv := range list.Items {
		if u := srv.Get("url"); u != nil && u.Kind == String {
			c.noteServer(u.Str, u.Loc.String())
		}
		vars := srv.Get("variables")
		if vars == nil || vars.Kind != Object {
			continue
		}
		for _, m := range vars.Members {
			if d := m.Value.Get("default"); d != nil && d.Kind == String {
				c.noteServer(d.Str, d.Loc.String())
			}
			if e := m.Value.Get("enum"); e != nil && e.Kind == Array {
				for _, it := range e.Items {
					if it.Kind == String {
						c.noteServer(it.Str, it.Loc.String())
					}
				}
			}
		}
	}
}

// infoVersion is the info.version claim of the document at file, nil when
// it states none; a non-string one is an error at its pointer.
func infoVersion(root *Node, file string) (*versionClaim, error) {
	v := root.Get("info").Get("version")
	if v == nil {
		return nil, nil
	}
	if v.Kind != String {
		return nil, keywordError(v.Loc, "info.version must be a string, got %s", v.Kind)
	}
	return &versionClaim{version: v.Str, where: "info.version of " + file}, nil
}

// decideRelease combines the flag, the documents' info.version members
// (the OpenRPC file's, then the REST binding's) and the URL versions into
// one Release. Each stated version must be the same release, and a flag or
// URL version must be a date; an info.version alone may be anything,
// because a document that is not a UCP binding may use its own versioning
// (the MCP emitter then refuses it through Require).
func decideRelease(flag string, infos, urls []versionClaim) (Release, error) {
	var claims []versionClaim
	if flag != "" {
		if err := CheckRelease(flag); err != nil {
			return Release{}, fmt.Errorf("%s %q is not a UCP release (YYYY-MM-DD): %w", FlagName, flag, err)
		}
		claims = append(claims, versionClaim{version: flag, where: FlagName})
	}
	claims = append(claims, infos...)
	for _, u := range urls {
		if err := CheckRelease(u.version); err != nil {
			return Release{}, fmt.Errorf("%s: URL names UCP version %q, which is not a UCP release (YYYY-MM-DD): %w", u.where, u.version, err)
		}
		claims = append(claims, versionClaim{version: u.version, where: u.source()})
	}
	if len(claims) == 0 {
		return Release{}, nil
	}
	r := Release{Version: claims[0].version, From: claims[0].where}
	for _, c := range claims[1:] {
		if c.version != r.Version {
			return Release{}, fmt.Errorf("the UCP version is stated twice, differently: %q by %s and %q by %s", r.Version, r.From, c.version, c.where)
		}
	}
	if len(claims) > 1 && claims[0].where == FlagName {
		r.From = FlagName + ", matching " + claims[1].where
	}
	return r, nil
}
