package report

import (
	"crypto/sha256"
	"encoding/base64"
	"net"
	"net/http"
	"strings"
	"time"
)

// What the dashboard's pages may do, and who may ask for them.
//
// Content-Security-Policy: everything a page needs is inline, so nothing may be fetched
// from anywhere; the one inline style sheet and the one inline script run because their
// sha256 hashes are listed (no 'unsafe-inline': an injected <script> or style attribute
// does not run); forms only submit to the dashboard; no page may be framed.
//
// Host: the dashboard binds to loopback, but a web page elsewhere can point a name it
// controls at 127.0.0.1 (DNS rebinding) and read the dashboard as same-origin. A request
// is served only when its Host header names the listening port on localhost, 127.0.0.1,
// [::1] or the address bound (any IP literal when bound to all interfaces); a name
// anyone else controls gets 421 Misdirected Request.

// contentSecurityPolicy is the header of every dashboard page.
var contentSecurityPolicy = "default-src 'none'" +
	"; style-src " + cspHash(mustAsset("templates/style.css")) +
	"; script-src " + cspHash(mustAsset("templates/filter.js")) +
	"; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// cspHash is the CSP source allowing an inline element whose text is exactly s.
func cspHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// HandlerAt is Handler for a server listening on addr (host:port, as net.Listener.Addr
// gives it): requests whose Host header names another host get 421.
func (s *Server) HandlerAt(addr string) http.Handler {
	h := s.Handler()
	bound, port, err := net.SplitHostPort(addr)
	if err != nil {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "dashboard: bad listening address", http.StatusInternalServerError)
		})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostAllowed(r.Host, bound, port) {
			http.Error(w, "this dashboard only answers to localhost, 127.0.0.1 or [::1] on its own port", http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// hostAllowed reports whether a request's Host header names the listener at bound:port.
func hostAllowed(host, bound, port string) bool {
	h, p, err := net.SplitHostPort(host)
	if err != nil { // no port: only the scheme's default one
		h, p = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"), "80"
	}
	if p != port || h == "" {
		return false
	}
	if strings.EqualFold(h, "localhost") || strings.EqualFold(h, bound) {
		return true
	}
	ip := net.ParseIP(h)
	if ip == nil {
		return false // a name: only localhost
	}
	if ip.IsLoopback() {
		return true
	}
	b := net.ParseIP(bound)
	return b != nil && (b.Equal(ip) || b.IsUnspecified())
}

// The dashboard's HTTP timeouts. A request's headers must arrive within
// ServeHeaderTimeout and the whole request, body included, within ServeReadTimeout: a
// client sending a POST body a byte a minute (or never) no longer holds a connection and
// a handler open. Responses have no write timeout: a drill-down re-executes queries for
// up to --timeout.
const (
	ServeHeaderTimeout = 10 * time.Second
	ServeReadTimeout   = 30 * time.Second
	ServeIdleTimeout   = 2 * time.Minute
)

// HTTPServer is the dashboard's http.Server for h, with the timeouts above.
func HTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: ServeHeaderTimeout, ReadTimeout: ServeReadTimeout, IdleTimeout: ServeIdleTimeout}
}
