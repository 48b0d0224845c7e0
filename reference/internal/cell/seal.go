package cell

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
)

// A sealer binds every stored snapshot to its run, its scope, the engine
// binary and this process with an HMAC. Snapshots never leave the process,
// so the seal is defense in depth: a snapshot that was altered, swapped
// between runs or carried over from another process never resumes.
type sealer struct {
	key    [32]byte
	digest [32]byte // sha256 of the engine binary
}

func newSealer(digest [32]byte) *sealer {
	s := &sealer{digest: digest}
	_, _ = rand.Read(s.key[:])
	return s
}

func (s *sealer) sum(r *run) []byte {
	m := hmac.New(sha256.New, s.key[:])
	field := func(b []byte) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		m.Write(n[:])
		m.Write(b)
	}
	field(s.digest[:])
	field([]byte(r.id))
	field([]byte(r.scope.AgentRunID))
	field([]byte(r.scope.SessionID))
	field([]byte(r.scope.SessionKey))
	field([]byte(r.scope.AgentID))
	var size [8]byte
	binary.LittleEndian.PutUint64(size[:], uint64(r.rawSize))
	field(size[:])
	var ctl [4]byte
	binary.LittleEndian.PutUint32(ctl[:], uint32(r.ctl))
	field(ctl[:])
	field(r.snapshot)
	return m.Sum(nil)
}

// seal records r's seal; call it after the snapshot and id are final.
func (s *sealer) seal(r *run) { r.seal = s.sum(r) }

// verify reports whether r's snapshot is the one sealed for it.
func (s *sealer) verify(r *run) bool { return len(r.seal) > 0 && hmac.Equal(r.seal, s.sum(r)) }
