package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/codemodekit/kit/conformance/wire"
)

// maxRequestBytes bounds a client request.
const maxRequestBytes = 32 << 20

// handler serves the gateway's HTTP API on loopback:
//
//	POST /v1/responses                  run one agent turn (OpenAI Responses-compatible)
//	POST /v1/turns/{id}/abort           abort a turn
//	GET  /v1/turns/{id}/trajectory      a turn's trajectory: {"events": [...]}
//	GET  /v1/transcript?sessionKey=K    a session's transcript: {"records": [...]}
//	GET  /v1/debug/log                  the debug log (text)
//	GET  /v1/registrations              namespace registration outcomes: {"errors": [null | "..."]}
//	GET  /healthz                       "ok" once the runtime is up
func (g *gateway) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/responses", g.serveResponses)
	mux.HandleFunc("POST /v1/turns/{id}/abort", g.serveAbort)
	mux.HandleFunc("GET /v1/turns/{id}/trajectory", g.serveTrajectory)
	mux.HandleFunc("GET /v1/transcript", g.serveTranscript)
	mux.HandleFunc("POST /v1/sessions/end", g.serveSessionEnd)
	mux.HandleFunc("GET /v1/debug/log", func(w http.ResponseWriter, r *http.Request) {
		text := g.localDebugLog()
		if g.member != nil {
			// Every replica's log: a turn's lines are where it ran.
			var err error
			if text, err = g.member.debugLog(r.Context()); err != nil {
				writeError(w, http.StatusBadGateway, "gateway_error", err.Error())
				return
			}
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, text)
	})
	mux.HandleFunc("GET /v1/registrations", func(w http.ResponseWriter, r *http.Request) {
		errs := g.sys.RegistrationErrors()
		out := make([]*string, len(errs))
		for i, err := range errs {
			if err != nil {
				msg := err.Error()
				out[i] = &msg
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{"errors": out})
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "ok\n") })
	return mux
}

// A responsesRequest is the part of an OpenAI Responses request the
// gateway reads. The turn's scope comes in metadata (turnId, agentId,
// sessionId, sessionKey, runId, disableTools, noTools); client tools are
// function tools, optionally with their full spec in x_codemodekit.
type responsesRequest struct {
	Model    string            `json:"model"`
	Input    json.RawMessage   `json:"input"`
	Stream   bool              `json:"stream"`
	Metadata map[string]string `json:"metadata"`
	Tools    []struct {
		Type        string          `json:"type"`
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
		Spec        *wire.Spec      `json:"x_codemodekit"`
	} `json:"tools"`
}

func (g *gateway) parseTurnRequest(r *http.Request) (turnRequest, bool, error) {
	var in responsesRequest
	dec := json.NewDecoder(io.LimitReader(r.Body, maxRequestBytes))
	if err := dec.Decode(&in); err != nil {
		return turnRequest{}, false, fmt.Errorf("request body: %w", err)
	}
	input, err := parseInput(in.Input)
	if err != nil {
		return turnRequest{}, false, err
	}
	md := in.Metadata
	req := turnRequest{TurnID: md["turnId"], AgentID: md["agentId"], SessionID: md["sessionId"], SessionKey: md["sessionKey"],
		RunID: md["runId"], SenderID: md["senderId"], ChannelID: md["channelId"], Input: input}
	for _, b := range []struct {
		key string
		dst *bool
	}{{"disableTools", &req.DisableTools}, {"noTools", &req.NoTools}} {
		if v, ok := md[b.key]; ok {
			if *b.dst, err = strconv.ParseBool(v); err != nil {
				return turnRequest{}, false, fmt.Errorf("metadata.%s: %q is not a boolean", b.key, v)
			}
		}
	}
	if req.TurnID == "" {
		req.TurnID = g.newTurnID()
	}
	if req.AgentID == "" {
		req.AgentID = "main"
	}
	for _, t := range in.Tools {
		if t.Type != "function" {
			return turnRequest{}, false, fmt.Errorf("tools: type %q: only function tools are client tools", t.Type)
		}
		spec := wire.Spec{Name: t.Name, Description: t.Description, Parameters: t.Parameters}
		if t.Spec != nil {
			spec = *t.Spec
			spec.Behavior = nil
		}
		spec.Source = "client"
		req.ClientTools = append(req.ClientTools, spec)
	}
	return req, in.Stream, nil
}

// parseInput reads a Responses input: a string or a list of messages.
func parseInput(raw json.RawMessage) ([]item, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []item{{Type: "message", Role: "user", Text: s}}, nil
	}
	var list []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &list); err != nil || len(list) == 0 {
		return nil, errors.New("input: want a string or a non-empty list of messages")
	}
	out := make([]item, 0, len(list))
	for _, m := range list {
		var text string
		if json.Unmarshal(m.Content, &text) != nil {
			var parts []struct {
				Text string `json:"text"`
			}
			if err := json.Unmarshal(m.Content, &parts); err != nil {
				return nil, errors.New("input: message content must be a string or a list of text parts")
			}
			for _, p := range parts {
				text += p.Text
			}
		}
		role := m.Role
		if role == "" {
			role = "user"
		}
		out = append(out, item{Type: "message", Role: role, Text: text})
	}
	return out, nil
}

func (g *gateway) serveResponses(w http.ResponseWriter, r *http.Request) {
	req, stream, err := g.parseTurnRequest(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	id := "resp_" + req.TurnID
	created := time.Now().Unix()
	if stream {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
		writeEvent(w, "response.created", map[string]any{"type": "response.created",
			"response": responseBody(id, created, req.TurnID, "in_progress", "", nil)})
	}
	text, err := g.runTurn(r.Context(), req)
	status, code, msg := "completed", "", ""
	var tf *turnFailure
	switch {
	case err == nil:
	case errors.As(err, &tf):
		status, code, msg = "failed", "turn_failed", tf.msg
	case errors.Is(err, errAborted):
		status, code, msg = "cancelled", "aborted", "the turn was aborted"
	default:
		status, code, msg = "failed", "gateway_error", err.Error()
	}
	var e map[string]any
	if code != "" {
		e = map[string]any{"code": code, "message": msg}
	}
	body := responseBody(id, created, req.TurnID, status, text, e)
	if stream {
		if text != "" {
			writeEvent(w, "response.output_text.delta", map[string]any{"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": text})
		}
		ev := "response.completed"
		if status != "completed" {
			ev = "response.failed"
		}
		writeEvent(w, ev, map[string]any{"type": ev, "response": body})
		return
	}
	httpStatus := http.StatusOK
	if code == "turn_failed" {
		httpStatus = http.StatusUnprocessableEntity
	} else if code == "gateway_error" {
		httpStatus = http.StatusBadGateway
	}
	writeJSON(w, httpStatus, body)
}

func responseBody(id string, created int64, turnID, status, text string, e map[string]any) map[string]any {
	output := []any{}
	if text != "" {
		output = append(output, map[string]any{"type": "message", "id": "msg_" + turnID, "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}})
	}
	return map[string]any{"id": id, "object": "response", "created_at": created, "status": status, "model": "codemode-gateway",
		"output": output, "error": e, "metadata": map[string]string{"turnId": turnID}}
}

func (g *gateway) serveAbort(w http.ResponseWriter, r *http.Request) {
	g.serveTurnOp(w, r, "abort")
}

func (g *gateway) serveTrajectory(w http.ResponseWriter, r *http.Request) {
	g.serveTurnOp(w, r, "trajectory")
}

// serveTurnOp answers an admin request for a turn: this replica's, or, in
// cluster mode, the replica's that runs it.
func (g *gateway) serveTurnOp(w http.ResponseWriter, r *http.Request, op string) {
	id := r.PathValue("id")
	if lt, ok := g.turn(id); ok {
		status, v := g.answerTurn(lt, op)
		writeJSON(w, status, v)
		return
	}
	if g.member != nil {
		reply, found, err := g.member.askTurn(r.Context(), id, op)
		if err != nil {
			writeError(w, http.StatusBadGateway, "gateway_error", err.Error())
			return
		}
		if found {
			writeJSON(w, reply.Status, reply.Body)
			return
		}
	}
	writeError(w, http.StatusNotFound, "unknown_turn", "no turn "+strconv.Quote(id))
}

// answerTurn performs an admin op on a turn this replica runs.
func (g *gateway) answerTurn(lt *liveTurn, op string) (int, any) {
	switch op {
	case "abort":
		// The run learns it was aborted before its context ends, so a
		// cell in progress fails as aborted (CM-8.38).
		lt.tu.Abort()
		lt.cancel(errAborted)
		return http.StatusOK, map[string]any{"aborted": true}
	case "trajectory":
		events, err := lt.tu.Trajectory()
		if err != nil {
			return http.StatusInternalServerError, errorBody("gateway_error", err.Error())
		}
		return http.StatusOK, map[string]any{"events": events}
	}
	return http.StatusNotFound, errorBody("unknown_op", op)
}

// serveSessionEnd ends the session named by the body's sessionKey, as a
// reset or deletion does: its suspended runs are disposed (CM-8.40).
func (g *gateway) serveSessionEnd(w http.ResponseWriter, r *http.Request) {
	var body struct {
		SessionKey string `json:"sessionKey"`
		How        string `json:"how"`
	}
	err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&body)
	if err != nil || body.SessionKey == "" || (body.How != "reset" && body.How != "delete") {
		writeError(w, http.StatusBadRequest, "invalid_request", "want {\"sessionKey\": \"...\", \"how\": \"reset\" | \"delete\"}")
		return
	}
	g.sys.EndSession(body.SessionKey)
	writeJSON(w, http.StatusOK, map[string]any{"ended": true})
}

func (g *gateway) serveTranscript(w http.ResponseWriter, r *http.Request) {
	recs, err := g.sys.Transcript(r.URL.Query().Get("sessionKey"))
	if err != nil {
		writeError(w, http.StatusInternalServerError, "gateway_error", err.Error())
		return
	}
	if recs == nil {
		recs = []json.RawMessage{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"records": recs})
}

// writeJSON writes v as JSON, without HTML escaping, so that documents
// (details, transcript records) keep their bytes.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, errorBody(code, msg))
}

// errorBody is the body of an error answer.
func errorBody(code, msg string) map[string]any {
	return map[string]any{"error": map[string]any{"type": "invalid_request_error", "code": code, "message": msg}}
}

func writeEvent(w http.ResponseWriter, event string, v any) {
	b, _ := json.Marshal(v)
	_, _ = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
