package fakemcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
)

// ServeStdio serves the server over newline-delimited JSON-RPC: it reads
// requests from in and writes responses to out, answering requests
// concurrently. It returns nil once in has ended and the requests read have
// been answered, when the server is closed, or after a [ReplyClose] (which
// also closes out when out is an io.Closer); it returns ctx's error when
// ctx ends. Requests still running when it returns are cancelled and waited
// for.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()

	w := &lineWriter{w: out}
	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go func() {
		br := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := br.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				select {
				case lines <- line:
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				readErr <- err
				return
			}
		}
	}()

	stop := make(chan struct{})
	var stopOnce sync.Once
	die := func() {
		stopOnce.Do(func() {
			w.shut()
			close(stop)
		})
	}
	closeOut := func() error {
		if c, ok := out.(io.Closer); ok {
			_ = c.Close()
		}
		return nil
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.closing:
			return nil
		case <-stop:
			return closeOut()
		case err := <-readErr:
			if !errors.Is(err, io.EOF) {
				return err
			}
			// Input ended: let the requests already read finish.
			drained := make(chan struct{})
			go func() {
				wg.Wait()
				close(drained)
			}()
			select {
			case <-drained:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			case <-s.closing:
				return nil
			case <-stop:
				return closeOut()
			}
		case line := <-lines:
			wg.Add(1)
			go func() {
				defer wg.Done()
				s.serveLine(ctx, line, w, die)
			}()
		}
	}
}

// ServeFile serves the definition file at path over stdio with a new host,
// as the fakemcp command does.
func ServeFile(ctx context.Context, path string, in io.Reader, out io.Writer) error {
	def, err := ReadDefinition(path)
	if err != nil {
		return err
	}
	s, err := New(def, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	return s.ServeStdio(ctx, in, out)
}

// serveLine answers one incoming line.
func (s *Server) serveLine(ctx context.Context, line []byte, w *lineWriter, die func()) {
	if m, rep := s.replyFor(ctx, line); rep != nil {
		switch rep.Kind {
		case ReplyResult:
			w.write(resultMessage(m.ID, rep.Result))
		case ReplyError:
			w.write(errorMessage(m.ID, *rep))
		case ReplyGarbage:
			w.write([]byte("this is not JSON-RPC"))
			w.write(resultMessage(m.ID, garbageResult))
		case ReplyClose:
			die()
		case ReplyHang:
			select {
			case <-ctx.Done():
			case <-s.closing:
			}
		}
		return
	}
	resp := s.mcp.HandleMessage(ctx, json.RawMessage(line))
	if resp == nil {
		return
	}
	b, err := json.Marshal(resp)
	if err != nil {
		return
	}
	w.write(b)
}

// A lineWriter writes whole lines, one at a time, until it is shut.
type lineWriter struct {
	mu     sync.Mutex
	w      io.Writer
	closed bool
}

func (l *lineWriter) write(b []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	line := make([]byte, 0, len(b)+1)
	line = append(append(line, b...), '\n')
	_, _ = l.w.Write(line)
}

func (l *lineWriter) shut() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
}
