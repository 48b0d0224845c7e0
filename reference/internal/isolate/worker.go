package isolate

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/codemodekit/kit/reference/internal/engine"
	"github.com/codemodekit/kit/reference/internal/prepare"
	"github.com/codemodekit/kit/reference/internal/sandbox"
)

// workerEnv marks a worker process: the host starts its own executable
// with only this variable in the environment, set to the protocol version,
// and the worker serves instead of running the program's main.
const workerEnv = "CODEMODEKIT_WORKER"

// Exit statuses of a worker.
const (
	exitOK       = 0
	exitProtocol = 3 // the host sent something the worker cannot read
)

func init() {
	if v := os.Getenv(workerEnv); v != "" {
		if v != strconv.Itoa(protocolVersion) {
			os.Exit(exitProtocol)
		}
		os.Exit(serve(os.Stdin, os.Stdout))
	}
}

// serve is a worker's main loop: init and hello, then one leg after the
// other, each a sequence of operations answered in order. It returns the
// process's exit status.
func serve(in io.Reader, out io.Writer) int {
	r := bufio.NewReaderSize(in, 64<<10)
	w := &frameWriter{w: bufio.NewWriterSize(out, 64<<10)}
	typ, b, err := readFrame(r, func(byte) int { return maxHostFrame })
	if err != nil || typ != msgInit {
		return exitProtocol
	}
	var m initMsg
	d := decoder{b: b}
	m.decode(&d)
	if d.done() != nil || m.Version != protocolVersion {
		return exitProtocol
	}
	hello := helloMsg{Version: protocolVersion}
	sb, err := sandbox.New(context.Background(), sandbox.Options{WasmPath: m.WasmPath, Digest: m.Digest,
		CacheDir: m.CacheDir, StrictPreemption: m.StrictPreemption, Base: m.Base})
	if err != nil {
		hello.Unavailable = err.Error()
		var ue *engine.UnavailableError
		if errors.As(err, &ue) {
			hello.Unavailable = ue.Reason
		}
	} else {
		digest := sb.Digest()
		hello.Digest = digest[:]
		if m.Base == nil {
			hello.Base = sb.Base()
		}
	}
	var e encoder
	hello.encode(&e)
	if w.write(msgHello, &e) != nil || sb == nil {
		return exitOK
	}
	// The engine is compiled and its cache written: from here on the
	// process needs no more files and no more address space than a guest's.
	restrict(m.AddressSpace)

	s := &server{sb: sb, w: w, catalogs: newCatalogCache()}
	ops := make(chan frame, 1)
	go func() {
		defer close(ops)
		for {
			typ, b, err := readFrame(r, func(byte) int { return maxHostFrame })
			if err != nil {
				return
			}
			if typ == msgAbort {
				// Read at once: the operation it stops is running.
				if l := s.leg.Load(); l != nil {
					l.Abort()
				}
				continue
			}
			ops <- frame{typ: typ, b: b}
		}
	}()
	for f := range ops {
		if f.typ == msgExit {
			return exitOK
		}
		if err := s.handle(f); err != nil {
			fmt.Fprintln(os.Stderr, "codemode worker:", err)
			return exitProtocol
		}
	}
	return exitOK
}

// frame is one frame read.
type frame struct {
	typ byte
	b   []byte
}

// frameWriter writes whole frames, one at a time.
type frameWriter struct {
	mu sync.Mutex
	w  *bufio.Writer
}

func (fw *frameWriter) write(typ byte, e *encoder) error {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	if err := writeFrame(fw.w, typ, e); err != nil {
		return err
	}
	return fw.w.Flush()
}

// server runs a worker's legs.
type server struct {
	sb       *sandbox.Sandbox
	w        *frameWriter
	catalogs *catalogCache
	leg      atomic.Pointer[sandbox.Leg]
}

// current returns the leg in progress, starting one if there is none.
func (s *server) current() *sandbox.Leg {
	if l := s.leg.Load(); l != nil {
		return l
	}
	l := s.sb.NewLeg(s)
	s.leg.Store(l)
	return l
}

// Request implements sandbox.Handler: the request goes to the host now,
// while the guest goes on.
func (s *server) Request(method, id string, args []byte) {
	var e encoder
	e.string(method)
	e.string(id)
	e.bytes(args)
	_ = s.w.write(msgRequest, &e)
}

// Note implements sandbox.Handler.
func (s *server) Note(kind, text string) {
	var e encoder
	e.string(kind)
	e.string(text)
	_ = s.w.write(msgNote, &e)
}

func (s *server) handle(f frame) error {
	d := decoder{b: f.b}
	var e encoder
	switch f.typ {
	case msgPrepare:
		var m prepareMsg
		m.decode(&d)
		if err := d.done(); err != nil {
			return err
		}
		pf, _ := s.current().Prepare(m.Code, prepare.Language(m.Language), zeroTime)
		var p preparedMsg
		if pf != nil {
			p = preparedMsg{Failed: true, Syntax: pf.Syntax, Message: pf.Message}
		}
		p.encode(&e)
		return s.w.write(msgPrepared, &e)
	case msgStart:
		var m startMsg
		m.decode(&d)
		if err := d.done(); err != nil {
			return err
		}
		had := s.catalogs.touch(m.CatalogKey, m.Catalog.JSON)
		if !m.HasJSON {
			if !had {
				return errors.New("start names a catalog the worker does not have")
			}
			m.Catalog.JSON = s.catalogs.json(m.CatalogKey)
		}
		m.Catalog.Key = m.CatalogKey
		encodeReport(&e, s.current().Start(m.Start))
		return s.w.write(msgReport, &e)
	case msgResume:
		req := decodeResume(&d)
		if err := d.done(); err != nil {
			return err
		}
		encodeReport(&e, s.current().Resume(req))
		return s.w.write(msgReport, &e)
	case msgStep:
		settle := decodeSettlements(&d)
		if err := d.done(); err != nil {
			return err
		}
		encodeReport(&e, s.current().Step(settle))
		return s.w.write(msgReport, &e)
	case msgSnapshot:
		stored, f := s.current().Snapshot()
		encodeFault(&e, f)
		encodeStored(&e, stored)
		return s.w.write(msgStored, &e)
	case msgClose:
		if l := s.leg.Swap(nil); l != nil {
			l.Close()
		}
		return nil
	}
	return fmt.Errorf("unknown frame type %d", f.typ)
}
