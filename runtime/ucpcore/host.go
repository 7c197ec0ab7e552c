package ucpcore

import "net"

// RemoteHost is the IP of an http.Request's RemoteAddr without its port,
// the caller a call is charged to when it names no agent profile, so that
// one client's connections share one bucket on every transport (and in
// any access log that names the caller the same way).
func RemoteHost(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil {
		return host
	}
	return addr
}
