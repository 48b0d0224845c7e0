package harness

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/codemodekit/kit/conformance/wire/protocol"
	codemode "github.com/codemodekit/kit/reference"
)

// fileTranscripts is a codemode.TranscriptStore that keeps each session's
// transcript as a JSONL file in a directory: the durable state of a served
// reference, which survives a restart of its process.
type fileTranscripts struct {
	mu  sync.Mutex
	dir string
}

// OpenFileTranscripts returns the JSONL transcript store in dir, creating
// dir if needed: one file per session, appended line by line.
func OpenFileTranscripts(dir string) (codemode.TranscriptStore, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("transcripts: %w", err)
	}
	return &fileTranscripts{dir: dir}, nil
}

// path names a session's file by the hash of its key, so any key is a
// valid file name.
func (f *fileTranscripts) path(sessionKey string) string {
	sum := sha256.Sum256([]byte(sessionKey))
	return filepath.Join(f.dir, hex.EncodeToString(sum[:])+".jsonl")
}

// Append implements codemode.TranscriptStore.
func (f *fileTranscripts) Append(sessionKey string, rec codemode.TranscriptRecord) error {
	line, err := protocol.Marshal(rec)
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	file, err := os.OpenFile(f.path(sessionKey), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = file.Write(append(line, '\n'))
	return errors.Join(err, file.Close())
}

// Records implements codemode.TranscriptStore.
func (f *fileTranscripts) Records(sessionKey string) ([]codemode.TranscriptRecord, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, err := os.ReadFile(f.path(sessionKey))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []codemode.TranscriptRecord
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, len(b)+1)
	for sc.Scan() {
		var rec codemode.TranscriptRecord
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, fmt.Errorf("transcript of %q: %w", sessionKey, err)
		}
		out = append(out, rec)
	}
	return out, sc.Err()
}
