package codemode

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"sync"
)

// A TranscriptRecord is one line of a session transcript (SPEC.md CM-22.1):
// a model tool call or its result, which a Turn appends, or a model request
// turn (the calls or the final text the model answered with), which the
// host that makes the model requests appends to its TranscriptStore.
// Code-mode exec and wait calls are kept like any other call.
type TranscriptRecord struct {
	Type       string `json:"type"` // "tool_call", "tool_result" or "model_turn"
	AgentRunID string `json:"agentRunId"`
	ToolCallID string `json:"toolCallId,omitempty"`
	// ToolCallIDs are the calls a model turn asked for, in order.
	ToolCallIDs []string        `json:"toolCallIds,omitempty"`
	Name        string          `json:"name"`
	Arguments   json.RawMessage `json:"arguments,omitempty"`
	Text        string          `json:"text,omitempty"`
	Details     json.RawMessage `json:"details,omitempty"`
	IsError     bool            `json:"isError,omitempty"`
	// Boot identifies the runtime instance that wrote the record, so a
	// restarted runtime can tell records written before it started.
	Boot string `json:"boot"`
}

// A TranscriptStore keeps session transcripts. It is the only state that
// survives a restart; implementations must be safe for concurrent use.
type TranscriptStore interface {
	Append(sessionKey string, rec TranscriptRecord) error
	Records(sessionKey string) ([]TranscriptRecord, error)
}

// NewMemoryTranscripts returns an empty in-memory TranscriptStore. Sharing
// one between a runtime and its replacement models a restart with a
// durable transcript.
func NewMemoryTranscripts() TranscriptStore {
	return &memoryTranscripts{sessions: map[string][]TranscriptRecord{}}
}

type memoryTranscripts struct {
	mu       sync.Mutex
	sessions map[string][]TranscriptRecord
}

func (m *memoryTranscripts) Append(sessionKey string, rec TranscriptRecord) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sessions[sessionKey] = append(m.sessions[sessionKey], rec)
	return nil
}

func (m *memoryTranscripts) Records(sessionKey string) ([]TranscriptRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]TranscriptRecord(nil), m.sessions[sessionKey]...), nil
}

func newBootID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// recovery is what a transcript says about a run lost in a restart.
type recovery struct {
	execCallID string
	args       json.RawMessage
	delivered  int
}

// findRecoverable looks for runID in the session transcript as a waiting,
// replay-safe payload written before this runtime booted, and returns the
// exec that started it and how much output was delivered (CM-9.10, CM-9.12).
func findRecoverable(recs []TranscriptRecord, runID, boot string) (recovery, bool) {
	type payload struct {
		Status     string            `json:"status"`
		RunID      string            `json:"runId"`
		ReplaySafe bool              `json:"replaySafe"`
		Output     []json.RawMessage `json:"output"`
	}
	calls := map[string]TranscriptRecord{}
	var rec recovery
	found := false
	for _, r := range recs {
		if r.Type == "tool_call" {
			calls[r.ToolCallID] = r
			continue
		}
		if r.Type != "tool_result" || (r.Name != "exec" && r.Name != "wait") {
			continue
		}
		var p payload
		if json.Unmarshal(r.Details, &p) != nil {
			continue
		}
		belongs := p.RunID == runID
		if r.Name == "wait" && !belongs {
			// A wait result that completed or failed the run names it only in
			// its call's arguments.
			var a struct {
				RunID string `json:"runId"`
			}
			_ = json.Unmarshal(calls[r.ToolCallID].Arguments, &a)
			belongs = a.RunID == runID
		}
		if !belongs {
			continue
		}
		rec.delivered += len(p.Output)
		if r.Name == "exec" && p.Status == "waiting" {
			rec.execCallID = r.ToolCallID
			rec.args = calls[r.ToolCallID].Arguments
		}
		found = p.Status == "waiting" && p.ReplaySafe && r.Boot != boot
	}
	return rec, found && rec.execCallID != ""
}
