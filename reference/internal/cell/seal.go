package cell

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
)

// A sealer binds every stored snapshot to its run, its scope, the engine
// binary and this process with an HMAC-SHA256 (SPEC.md CM-18.18 to
// CM-18.20). Snapshots never leave the process, so the seal is defense in
// depth: a snapshot that was altered, swapped between runs, replayed from an
// earlier suspension of the same run, or sealed by another runner or for
// another engine binary never resumes.
type sealer struct {
	key    [32]byte // random, per runner; never leaves the process
	digest [32]byte // sha256 of the engine binary
}

func newSealer(digest [32]byte) *sealer {
	s := &sealer{digest: digest}
	_, _ = rand.Read(s.key[:])
	return s
}

// sum is the HMAC over every field a resume depends on, each length-prefixed
// so that no two field lists share an encoding.
func (s *sealer) sum(r *run) []byte {
	m := hmac.New(sha256.New, s.key[:])
	field := func(b []byte) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		m.Write(n[:])
		m.Write(b)
	}
	u64 := func(v uint64) {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], v)
		field(b[:])
	}
	field(s.digest[:])
	field([]byte(r.id))
	field([]byte(r.scope.AgentRunID))
	field([]byte(r.scope.SessionID))
	field([]byte(r.scope.SessionKey))
	field([]byte(r.scope.AgentID))
	u64(r.generation)
	st := r.stored
	u64(uint64(st.RawSize))
	u64(uint64(st.Control))
	// The unhandled rejections are restored into the VM with the image.
	field(st.Rejections)
	field(st.Delta)
	return m.Sum(nil)
}

// seal starts a new generation of r and records its seal; call it after the
// snapshot and id are final. A seal of an earlier generation no longer
// verifies, so an older snapshot of the same run cannot be replayed.
func (s *sealer) seal(r *run) {
	r.generation++
	r.seal = s.sum(r)
}

// verify reports whether r's snapshot is the one last sealed for it.
func (s *sealer) verify(r *run) bool {
	return s != nil && len(r.seal) > 0 && hmac.Equal(r.seal, s.sum(r))
}
