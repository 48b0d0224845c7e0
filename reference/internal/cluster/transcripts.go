package cluster

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/codemodekit/kit/conformance/wire/protocol"
	codemode "github.com/codemodekit/kit/reference"
)

// TranscriptsStream is the stream of the session transcripts of a
// clustered gateway: one subject per session, so every replica reads the
// same records (SPEC.md Appendix G). Unlike suspended runs, transcripts
// are the state that survives a restart, so the stream is on disk.
const TranscriptsStream = "CODEMODE_TRANSCRIPTS"

const transcriptSubjects = "codemode.transcript."

// Transcripts is a codemode.TranscriptStore on a JetStream stream.
type Transcripts struct {
	js     jetstream.JetStream
	stream jetstream.Stream
}

var _ codemode.TranscriptStore = (*Transcripts)(nil)

// transcriptTimeout bounds one append or read.
const transcriptTimeout = 10 * time.Second

// OpenTranscripts binds to the transcript stream over nc, creating it
// when it is missing, held by streamReplicas servers (0 means 1).
func OpenTranscripts(ctx context.Context, nc *nats.Conn, streamReplicas int) (*Transcripts, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	err = ensureStream(ctx, js, jetstream.StreamConfig{
		Name: TranscriptsStream, Description: "code-mode session transcripts",
		Subjects: []string{transcriptSubjects + ">"}, Storage: jetstream.FileStorage,
		Replicas: max(streamReplicas, 1), MaxBytes: -1, MaxMsgs: -1, MaxConsumers: -1,
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: transcript stream: %w", err)
	}
	st, err := idempotent(ctx, func(ctx context.Context) (jetstream.Stream, error) { return js.Stream(ctx, TranscriptsStream) })
	if err != nil {
		return nil, err
	}
	return &Transcripts{js: js, stream: st}, nil
}

// subject is a session's subject, named by the hash of its key: any key
// is a valid subject token.
func (t *Transcripts) subject(sessionKey string) string {
	sum := sha256.Sum256([]byte(sessionKey))
	return transcriptSubjects + hex.EncodeToString(sum[:])
}

// maxChunk is the largest message a record is appended as: a larger one
// (a tool result of megabytes) goes as several, under NATS's default 1 MiB
// payload limit.
const maxChunk = 256 << 10

// Headers of a record appended in chunks: its id, and the chunk's place
// as "i/n".
const (
	headerRecord = "Codemode-Record"
	headerChunk  = "Codemode-Chunk"
)

// Append implements codemode.TranscriptStore. Like the file store, it
// keeps the record's JSON as written: no HTML escaping of its texts. A
// record larger than maxChunk is appended in chunks, which Records puts
// together again.
func (t *Transcripts) Append(sessionKey string, rec codemode.TranscriptRecord) error {
	b, err := protocol.Marshal(rec)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), transcriptTimeout)
	defer cancel()
	subj := t.subject(sessionKey)
	if len(b) <= maxChunk {
		_, err = retrying(ctx, func() (*jetstream.PubAck, error) { return t.js.Publish(ctx, subj, b) })
		return err
	}
	var id [12]byte
	_, _ = rand.Read(id[:])
	n := (len(b) + maxChunk - 1) / maxChunk
	for i := range n {
		m := nats.NewMsg(subj)
		m.Header.Set(headerRecord, hex.EncodeToString(id[:]))
		m.Header.Set(headerChunk, fmt.Sprintf("%d/%d", i+1, n))
		m.Data = b[i*maxChunk : min((i+1)*maxChunk, len(b))]
		if _, err := retrying(ctx, func() (*jetstream.PubAck, error) { return t.js.PublishMsg(ctx, m) }); err != nil {
			return err
		}
	}
	return nil
}

// chunked gathers the chunks of records appended in chunks.
type chunked struct {
	parts map[string][][]byte
}

// add takes one message; it returns a record's JSON once the message is
// whole or completes one.
func (c *chunked) add(h nats.Header, data []byte) ([]byte, error) {
	id := h.Get(headerRecord)
	if id == "" {
		return data, nil
	}
	var i, n int
	if _, err := fmt.Sscanf(h.Get(headerChunk), "%d/%d", &i, &n); err != nil || n < 1 || i < 1 || i > n || n > 1<<16 {
		return nil, fmt.Errorf("cluster: transcript chunk %q of record %s", h.Get(headerChunk), id)
	}
	if c.parts == nil {
		c.parts = map[string][][]byte{}
	}
	p := c.parts[id]
	if p == nil {
		p = make([][]byte, n)
		c.parts[id] = p
	}
	if len(p) != n {
		return nil, fmt.Errorf("cluster: transcript record %s has chunks of %d and %d", id, len(p), n)
	}
	p[i-1] = data
	for _, part := range p {
		if part == nil {
			return nil, nil
		}
	}
	delete(c.parts, id)
	return bytes.Join(p, nil), nil
}

// Records implements codemode.TranscriptStore: the session's records in
// the order they were appended, up to the latest one when the read began.
func (t *Transcripts) Records(sessionKey string) ([]codemode.TranscriptRecord, error) {
	ctx, cancel := context.WithTimeout(context.Background(), transcriptTimeout)
	defer cancel()
	// A read is sent again as a whole while no server answers a part of it.
	return retrying(ctx, func() ([]codemode.TranscriptRecord, error) { return t.records(ctx, sessionKey) })
}

func (t *Transcripts) records(ctx context.Context, sessionKey string) ([]codemode.TranscriptRecord, error) {
	subj := t.subject(sessionKey)
	last, err := t.stream.GetLastMsgForSubject(ctx, subj)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	cons, err := t.stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{FilterSubjects: []string{subj}})
	if err != nil {
		return nil, err
	}
	var out []codemode.TranscriptRecord
	var chunks chunked
	for {
		batch, err := cons.Fetch(256, jetstream.FetchMaxWait(transcriptTimeout))
		if err != nil {
			return nil, err
		}
		for m := range batch.Messages() {
			// A record appended in chunks takes the place of its last
			// one; one still being appended when the read began is left
			// out.
			whole, err := chunks.add(m.Headers(), m.Data())
			if err != nil {
				return nil, err
			}
			if whole != nil {
				var rec codemode.TranscriptRecord
				if err := json.Unmarshal(whole, &rec); err != nil {
					return nil, fmt.Errorf("cluster: transcript record: %w", err)
				}
				out = append(out, rec)
			}
			md, err := m.Metadata()
			if err != nil {
				return nil, err
			}
			if md.Sequence.Stream >= last.Sequence {
				return out, nil
			}
		}
		if err := batch.Error(); err != nil {
			return nil, err
		}
	}
}
