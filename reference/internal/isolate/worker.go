package isolate

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

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
		// Blocking reads of the host's frames: the kernel wakes this thread
		// itself when one arrives (pool.go, blockingPipe).
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
	go s.readAborts(os.NewFile(abortFD, "abort"))
	for {
		typ, b, err := readFrame(r, func(byte) int { return maxHostFrame })
		if err != nil || typ == msgExit {
			return exitOK
		}
		if err := s.handle(frame{typ: typ, b: b}); err != nil {
			fmt.Fprintln(os.Stderr, "codemode worker:", err)
			return exitProtocol
		}
	}
}

// abortFD is the descriptor of the abort pipe: the host writes the number
// of a leg to abort there, read at once while an operation runs (the
// operations' pipe is read only between them).
const abortFD = 3

// readAborts aborts the leg whose number the host writes to f; a number
// that is not the current leg's (one that ended meanwhile) is ignored.
func (s *server) readAborts(f *os.File) {
	if f == nil {
		return
	}
	var b [8]byte
	for {
		if _, err := io.ReadFull(f, b[:]); err != nil {
			return
		}
		if binary.LittleEndian.Uint64(b[:]) != s.legs.Load()+1 {
			continue
		}
		if l := s.leg.Load(); l != nil {
			l.Abort()
		}
	}
}

// frame is one frame read.
type frame struct {
	typ byte
	b   []byte
}

// requestDelay is how long a bridge request may wait in the worker's
// buffer for the answer it is usually followed by: a guest that awaits its
// request ends its step microseconds later, and the request and the report
// then wake the host once, not twice. A guest that computes on delays its
// request's dispatch by at most this much.
const requestDelay = 200 * time.Microsecond

// frameWriter writes whole frames, one at a time.
type frameWriter struct {
	mu      sync.Mutex
	w       *bufio.Writer
	timer   *time.Timer
	pending bool // frames wait in w for the timer or the next answer
}

// write writes a frame and sends it, with any that wait.
func (fw *frameWriter) write(typ byte, e *encoder) error {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	if err := writeFrame(fw.w, typ, e); err != nil {
		return err
	}
	if fw.pending {
		fw.pending = false
		fw.timer.Stop()
	}
	return fw.w.Flush()
}

// writeSoon writes a frame and sends it within requestDelay.
func (fw *frameWriter) writeSoon(typ byte, e *encoder) error {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	if err := writeFrame(fw.w, typ, e); err != nil {
		return err
	}
	if !fw.pending {
		fw.pending = true
		if fw.timer == nil {
			fw.timer = time.AfterFunc(requestDelay, fw.flushPending)
		} else {
			fw.timer.Reset(requestDelay)
		}
	}
	return nil
}

func (fw *frameWriter) flushPending() {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	if fw.pending {
		fw.pending = false
		_ = fw.w.Flush()
	}
}

// server runs a worker's legs.
type server struct {
	sb       *sandbox.Sandbox
	w        *frameWriter
	catalogs *catalogCache
	leg      atomic.Pointer[sandbox.Leg]
	legs     atomic.Uint64 // legs ended: the current leg is number legs+1
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
	_ = s.w.writeSoon(msgRequest, &e)
}

// Note implements sandbox.Handler.
func (s *server) Note(kind, text string) {
	var e encoder
	e.string(kind)
	e.string(text)
	_ = s.w.writeSoon(msgNote, &e)
}

// catalog fills in the JSON of a start's catalog, from the start or from
// the worker's cache.
func (s *server) catalog(m *startMsg) error {
	had := s.catalogs.touch(m.CatalogKey, m.Catalog.JSON)
	if !m.HasJSON {
		if !had {
			return errors.New("start names a catalog the worker does not have")
		}
		m.Catalog.JSON = s.catalogs.json(m.CatalogKey)
	}
	m.Catalog.Key = m.CatalogKey
	return nil
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
		if err := s.catalog(&m); err != nil {
			return err
		}
		encodeReport(&e, s.current().Start(m.Start))
		return s.w.write(msgReport, &e)
	case msgExec:
		var p prepareMsg
		var m startMsg
		p.decode(&d)
		m.decode(&d)
		if err := d.done(); err != nil {
			return err
		}
		if err := s.catalog(&m); err != nil {
			return err
		}
		pf, rep := s.current().Exec(p.Code, prepare.Language(p.Language), m.Start)
		var pm preparedMsg
		if pf != nil {
			pm = preparedMsg{Failed: true, Syntax: pf.Syntax, Message: pf.Message}
		}
		pm.encode(&e)
		if pf == nil {
			encodeReport(&e, rep)
		}
		return s.w.write(msgExecuted, &e)
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
		s.legs.Add(1)
		return nil
	}
	return fmt.Errorf("unknown frame type %d", f.typ)
}
