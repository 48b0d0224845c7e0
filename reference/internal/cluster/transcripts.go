package cluster

import (
	"context"
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
	st, err := js.Stream(ctx, TranscriptsStream)
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

// Append implements codemode.TranscriptStore. A record over the servers'
// max_payload is refused with the server's error. Like the file store, it
// keeps the record's JSON as written: no HTML escaping of its texts.
func (t *Transcripts) Append(sessionKey string, rec codemode.TranscriptRecord) error {
	b, err := protocol.Marshal(rec)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), transcriptTimeout)
	defer cancel()
	_, err = t.js.Publish(ctx, t.subject(sessionKey), b)
	return err
}

// Records implements codemode.TranscriptStore: the session's records in
// the order they were appended, up to the latest one when the read began.
func (t *Transcripts) Records(sessionKey string) ([]codemode.TranscriptRecord, error) {
	ctx, cancel := context.WithTimeout(context.Background(), transcriptTimeout)
	defer cancel()
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
	for {
		batch, err := cons.Fetch(256, jetstream.FetchMaxWait(transcriptTimeout))
		if err != nil {
			return nil, err
		}
		for m := range batch.Messages() {
			var rec codemode.TranscriptRecord
			if err := json.Unmarshal(m.Data(), &rec); err != nil {
				return nil, fmt.Errorf("cluster: transcript record: %w", err)
			}
			out = append(out, rec)
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
