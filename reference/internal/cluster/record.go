package cluster

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"time"
)

// Scope is who a suspended run belongs to (SPEC.md CM-8.3).
type Scope struct {
	AgentRunID string `json:"agentRunId"`
	SessionID  string `json:"sessionId"`
	SessionKey string `json:"sessionKey"`
	AgentID    string `json:"agentId"`
}

// A Record is the shared state of one suspended run.
type Record struct {
	ID    string `json:"id"`
	Scope Scope  `json:"scope"`
	// Slot is the slot key of the cluster-wide cap the run holds.
	Slot int `json:"slot"`
	// Expires is when the run expires unless a later suspension moves it.
	Expires time.Time `json:"expires"`
	// Holder is the replica whose process runs the run's host work.
	Holder string `json:"holder"`
	// Resumer is the replica resuming the run, "" when none is; its claim
	// lapses at ResumeUntil, so a replica that died mid-resume does not
	// hold the run for ever.
	Resumer     string    `json:"resumer,omitempty"`
	ResumeUntil time.Time `json:"resumeUntil,omitzero"`
	// Generation counts the run's suspensions (the seal covers it).
	Generation uint64 `json:"generation"`
	// Parts are the run's state, by name, as the cell encodes it.
	Parts map[string]Part `json:"parts,omitempty"`

	revision uint64 // the key's revision this record was read at
}

// Revision is the store revision the record was read or written at.
func (r *Record) Revision() uint64 { return r.revision }

// claimable reports whether a wait of scope sc may claim the run at now:
// none of Claim's refusals applies.
func (r *Record) claimable(now time.Time, sc Scope) bool {
	return now.Before(r.Expires) && r.Scope == sc && !r.resuming(now)
}

// resuming reports whether a live claim holds the run at now.
func (r *Record) resuming(now time.Time) bool {
	return r.Resumer != "" && now.Before(r.ResumeUntil)
}

// A Part is one piece of a run's state: small ones inline in the record,
// larger ones under a key of their own in the run bucket, the largest an
// object in the parts store. Sum is the SHA-256 of the data, checked on
// every read.
type Part struct {
	Size   int    `json:"size"`
	Sum    string `json:"sum"`
	Inline []byte `json:"inline,omitempty"`
	Key    string `json:"key,omitempty"`
	Object string `json:"object,omitempty"`
}

// Part placement. A record is read and written whole by every claim, so
// it keeps only small parts (a run's state, not its image): MaxInline
// each, maxInlineTotal in all. A part up to MaxKeyPart (a small run's
// image) is one value of the run bucket, one write and one read; a larger
// one is an object, in chunks.
const (
	MaxInline      = 8 << 10
	maxInlineTotal = 16 << 10
	MaxKeyPart     = 512 << 10
)

// maxRecordBytes bounds a record as stored: a bigger value is refused
// before it is parsed.
const maxRecordBytes = 64 << 10

// maxParts bounds how many parts a record may name.
const maxParts = 64

var (
	runIDPattern    = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)
	partNamePattern = regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}$`)
)

// ErrCorrupt wraps every refusal of a malformed record or part.
var ErrCorrupt = errors.New("cluster: corrupt run record")

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

// sumOf is the hex SHA-256 of data.
func sumOf(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// encodeRecord is the stored form of r.
func encodeRecord(r *Record) ([]byte, error) {
	if err := r.check(0); err != nil {
		return nil, err
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	if len(b) > maxRecordBytes {
		return nil, fmt.Errorf("cluster: run record of %d bytes passes %d", len(b), maxRecordBytes)
	}
	return b, nil
}

// decodeRecord parses a stored record of the key for id and checks it.
func decodeRecord(id string, b []byte, maxSlots int) (*Record, error) {
	if len(b) > maxRecordBytes {
		return nil, corrupt("%d bytes", len(b))
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, corrupt("%v", err)
	}
	if r.ID != id {
		return nil, corrupt("record of %q stored under %q", r.ID, id)
	}
	if err := r.check(maxSlots); err != nil {
		return nil, err
	}
	return &r, nil
}

// check refuses a record no replica could have written.
func (r *Record) check(maxSlots int) error {
	if !runIDPattern.MatchString(r.ID) {
		return corrupt("run id %q", r.ID)
	}
	if r.Slot < 0 || (maxSlots > 0 && r.Slot >= maxSlots) {
		return corrupt("slot %d", r.Slot)
	}
	if len(r.Parts) > maxParts {
		return corrupt("%d parts", len(r.Parts))
	}
	for name, p := range r.Parts {
		if !partNamePattern.MatchString(name) {
			return corrupt("part name %q", name)
		}
		if err := p.check(r.ID); err != nil {
			return fmt.Errorf("part %s: %w", name, err)
		}
	}
	return nil
}

func (p Part) check(runID string) error {
	if len(p.Sum) != 64 {
		return corrupt("sum %q", p.Sum)
	}
	if _, err := hex.DecodeString(p.Sum); err != nil {
		return corrupt("sum %q", p.Sum)
	}
	stored := 0
	for _, s := range []string{p.Key, p.Object} {
		if s != "" {
			stored++
		}
	}
	switch {
	case p.Size < 0:
		return corrupt("size %d", p.Size)
	case stored > 1 || (stored == 1 && len(p.Inline) > 0):
		return corrupt("part stored in more than one place")
	case stored == 0 && len(p.Inline) != p.Size:
		return corrupt("inline part of %d bytes, size %d", len(p.Inline), p.Size)
	case stored == 0 && p.Size > MaxInline:
		return corrupt("inline part of %d bytes", p.Size)
	case p.Key != "" && p.Key != partKey(runID, p.Sum):
		return corrupt("part key %q of run %q", p.Key, runID)
	case p.Object != "" && p.Object != objectName(runID, p.Sum):
		return corrupt("object %q of run %q", p.Object, runID)
	}
	return nil
}

// partKey is the run-bucket key of a part of runID with sum.
func partKey(runID, sum string) string { return "part." + runID + "." + sum }

// objectName is where a part of runID with sum is stored: content-addressed
// under the run, so a run's objects can be listed and dropped together.
func objectName(runID, sum string) string { return runID + "/" + sum }
