package mcpgogate

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// Default bounds of Handler and ServeStdio.
const (
	// DefaultMaxBodyBytes bounds one HTTP request body, and one stdio line.
	DefaultMaxBodyBytes = 4 << 20
	// DefaultMaxSessions bounds the live streamable HTTP sessions.
	DefaultMaxSessions = 10000
	// DefaultSessionIdleTTL ends a session idle for this long.
	DefaultSessionIdleTTL = 30 * time.Minute
)

// HTTPOptions configure Handler. Zero bounds are the defaults.
type HTTPOptions struct {
	// MaxBodyBytes bounds one request body: a longer one is refused before
	// mcp-go buffers it (a JSON-RPC parse error).
	MaxBodyBytes int64
	// MaxSessions bounds the live sessions: a new session past it ends the
	// one used least recently (its requests then get 404, and its client
	// initializes again).
	MaxSessions int
	// SessionIdleTTL ends a session idle for this long.
	SessionIdleTTL time.Duration
	// Streamable options are passed to server.NewStreamableHTTPServer
	// after the session bounds (the service's WithHTTPContextFunc, for
	// example). An option that replaces the session ID manager removes
	// the session bound.
	Streamable []server.StreamableHTTPOption
}

// Handler serves srv over mcp-go's streamable HTTP transport with its
// request bodies and sessions bounded. Wrap it in the authentication the
// CallerFunc relies on.
func Handler(srv *server.MCPServer, o *HTTPOptions) http.Handler {
	var opts HTTPOptions
	if o != nil {
		opts = *o
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	if opts.SessionIdleTTL <= 0 {
		opts.SessionIdleTTL = DefaultSessionIdleTTL
	}
	h := server.NewStreamableHTTPServer(srv, append([]server.StreamableHTTPOption{
		server.WithSessionIdManager(newSessions(opts.MaxSessions)),
		server.WithSessionIdleTTL(opts.SessionIdleTTL),
	}, opts.Streamable...)...)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, opts.MaxBodyBytes)
		}
		h.ServeHTTP(w, r)
	})
}

// ErrLineTooLong ends a stdio connection whose peer sent a line longer
// than its bound.
var ErrLineTooLong = errors.New("mcpgogate: a stdio message is longer than its bound")

// ServeStdio serves srv over mcp-go's stdio transport on in and out until
// ctx ends or in does, with each line (one JSON-RPC message) bounded by
// maxLine bytes (DefaultMaxBodyBytes when 0 or less): a longer line ends
// the connection with ErrLineTooLong. opts are mcp-go's (the service's
// WithStdioContextFunc, for example).
func ServeStdio(ctx context.Context, srv *server.MCPServer, in io.Reader, out io.Writer, maxLine int, opts ...server.StdioOption) error {
	if maxLine <= 0 {
		maxLine = DefaultMaxBodyBytes
	}
	s := server.NewStdioServer(srv)
	for _, o := range opts {
		o(s)
	}
	return s.Listen(ctx, &lineBound{r: in, max: maxLine}, out)
}

// lineBound passes its input through while no line exceeds max bytes.
type lineBound struct {
	r   io.Reader
	max int
	n   int // bytes of the current line so far
}

func (l *lineBound) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for _, b := range p[:n] {
		if b == '\n' {
			l.n = 0
			continue
		}
		if l.n++; l.n > l.max {
			return 0, ErrLineTooLong
		}
	}
	return n, err
}
