package driver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/codemodekit/kit/conformance"
	"github.com/codemodekit/kit/conformance/wire/protocol"
)

// suiteInfo is what hello tells the implementation about the suite.
var suiteInfo = protocol.Info{Name: "codemodekit-conformance", Version: protocol.Version}

// A Driver runs an implementation as a separate process that speaks the
// driver protocol (SPEC.md Appendix D) on its stdin and stdout: one process
// per scenario, started
// by the target's Start and ended by its Close.
type Driver struct {
	argv []string
	opts options

	once  sync.Once
	hello *protocol.HelloResult
	err   error
}

type options struct {
	env              []string
	dir              string
	stderrLimit      int
	handshakeTimeout time.Duration
	callTimeout      time.Duration
	closeTimeout     time.Duration
	exitGrace        time.Duration
	fixtures         func() MCPFixtures
}

// An Option configures a Driver.
type Option func(*options)

// WithEnv adds environment variables ("NAME=value") to every process,
// after the suite's own environment and before the scenario's.
func WithEnv(env ...string) Option {
	return func(o *options) { o.env = append(o.env, env...) }
}

// WithDir sets the working directory of every process (default: the
// suite's).
func WithDir(dir string) Option { return func(o *options) { o.dir = dir } }

// WithStderrLimit bounds how much of the end of the implementation's
// stderr is kept and attached to failures (default 16 KiB).
func WithStderrLimit(n int) Option { return func(o *options) { o.stderrLimit = n } }

// WithHandshakeTimeout bounds the first process's hello, which may
// include building the implementation (default 2 minutes).
func WithHandshakeTimeout(d time.Duration) Option {
	return func(o *options) { o.handshakeTimeout = d }
}

// WithCallTimeout bounds requests the suite makes without a context of
// its own: log (default 30 s).
func WithCallTimeout(d time.Duration) Option { return func(o *options) { o.callTimeout = d } }

// WithCloseTimeout bounds the close request (default 10 s) and then the
// wait for the process to exit before it is killed (default 5 s).
func WithCloseTimeout(closeTimeout, exitGrace time.Duration) Option {
	return func(o *options) { o.closeTimeout, o.exitGrace = closeTimeout, exitGrace }
}

// An MCPFixtures resolves the real MCP server fixtures (fixtures/mcp) of
// one target.
type MCPFixtures interface {
	// Config returns the mcp.servers entry that reaches the fixture; an
	// error wrapping conformance.ErrNotApplicable reports that it is not
	// installed.
	Config(fixture string) (map[string]any, error)
	// Cleanup releases what Config made (scratch directories).
	Cleanup()
}

// WithMCPFixtures makes the suite configure the real MCP servers of a
// setup itself, as it does for the fake ones: every target gets its own
// resolver from newFixtures, and calls its Cleanup when it closes.
// Without it, fixtures are left to the implementation (StartParams
// mcpFixtures).
func WithMCPFixtures(newFixtures func() MCPFixtures) Option {
	return func(o *options) { o.fixtures = newFixtures }
}

// New returns a driver for the implementation started by argv (argv[0]
// is looked up in PATH).
func New(argv []string, opts ...Option) *Driver {
	d := &Driver{argv: slices.Clone(argv), opts: options{stderrLimit: 16 << 10, handshakeTimeout: 2 * time.Minute,
		callTimeout: 30 * time.Second, closeTimeout: 10 * time.Second, exitGrace: 5 * time.Second}}
	for _, o := range opts {
		o(&d.opts)
	}
	return d
}

// Hello returns what the implementation declares in the handshake. The
// first call starts a process for the handshake alone and closes it;
// later calls return the same answer.
func (d *Driver) Hello(ctx context.Context) (*protocol.HelloResult, error) {
	d.once.Do(func() {
		ctx, cancel := context.WithTimeout(ctx, d.opts.handshakeTimeout)
		defer cancel()
		d.hello, d.err = d.probe(ctx)
	})
	return d.hello, d.err
}

func (d *Driver) probe(ctx context.Context) (*protocol.HelloResult, error) {
	p, err := spawn(d.argv, d.environ(nil), d.opts.dir, d.opts.stderrLimit, func(*proc) protocol.Handler { return refuseAll })
	if err != nil {
		return nil, &Error{Code: FailureSpawn, Err: fmt.Errorf("%q: %w", d.argv, err)}
	}
	hr, err := d.handshake(ctx, p, nil)
	if serr := p.stop(d.opts.closeTimeout, d.opts.exitGrace); err == nil && serr != nil {
		err = p.failure(FailureExited, serr)
	}
	return hr, err
}

// handshake sends hello and checks the answer against want (nil for the
// first process).
func (d *Driver) handshake(ctx context.Context, p *proc, want *protocol.HelloResult) (*protocol.HelloResult, error) {
	var hr protocol.HelloResult
	if err := callProc(ctx, p, protocol.MethodHello, protocol.HelloParams{ProtocolVersion: protocol.Version, Suite: suiteInfo}, &hr); err != nil {
		var e *Error
		if errors.As(err, &e) && e.Code != FailureRemote {
			return nil, err
		}
		return nil, p.failure(FailureHandshake, err)
	}
	switch {
	case hr.ProtocolVersion != protocol.Version:
		return nil, p.failure(FailureHandshake, fmt.Errorf("protocol version %q, want %q", hr.ProtocolVersion, protocol.Version))
	case hr.Implementation.Name == "":
		return nil, p.failure(FailureHandshake, errors.New("hello result names no implementation"))
	case want != nil && hr.Capabilities != want.Capabilities:
		return nil, p.failure(FailureHandshake, fmt.Errorf("capabilities %+v differ from the first process's %+v", hr.Capabilities, want.Capabilities))
	}
	return &hr, nil
}

// environ is the environment of a process: the suite's, the driver's,
// then the scenario's.
func (d *Driver) environ(scenario map[string]string) []string {
	env := append(os.Environ(), d.opts.env...)
	keys := make([]string, 0, len(scenario))
	for k := range scenario {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		env = append(env, k+"="+scenario[k])
	}
	return env
}

// MakeTarget returns a fresh target (a conformance.MakeTarget). Its
// optional capabilities are those the implementation declares in hello.
func (d *Driver) MakeTarget() (conformance.Target, error) {
	hr, err := d.Hello(context.Background())
	if err != nil {
		return nil, err
	}
	t := &target{d: d, caps: hr.Capabilities, hello: hr}
	switch c := hr.Capabilities; {
	case c.Log && c.RegistrationErrors:
		return &struct {
			*target
			logReader
			registrationReporter
		}{t, logReader{t}, registrationReporter{t}}, nil
	case c.Log:
		return &struct {
			*target
			logReader
		}{t, logReader{t}}, nil
	case c.RegistrationErrors:
		return &struct {
			*target
			registrationReporter
		}{t, registrationReporter{t}}, nil
	default:
		return t, nil
	}
}
