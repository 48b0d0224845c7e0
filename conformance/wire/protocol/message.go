package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Message kinds.
const (
	kindRequest = iota + 1
	kindNotification
	kindResponse
)

// A message is one JSON-RPC 2.0 message: a request (ID and Method), a
// notification (Method only) or a response (ID and Result or Error).
type message struct {
	kind   int
	ID     json.RawMessage // compact: a JSON number or string
	Method string
	Params json.RawMessage
	Result json.RawMessage
	Error  *RPCError
}

// An RPCError is the error member of an error response.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *RPCError) Error() string {
	return fmt.Sprintf("%s (%d): %s", CodeName(e.Code), e.Code, e.Message)
}

// NotApplicable returns the not_applicable error response: the
// implementation cannot express what the request asks, for the reason
// given.
func NotApplicable(format string, args ...any) *RPCError {
	return &RPCError{Code: CodeNotApplicable, Message: fmt.Sprintf(format, args...)}
}

// TurnFailed returns the turn_failed error response of turn/start, with
// the failure text of the agent run.
func TurnFailed(text string) *RPCError { return &RPCError{Code: CodeTurnFailed, Message: text} }

// A ToolError is a tool failure, as host/invoke reports it (tool_failed).
// Its Error is the failure text, verbatim, so an implementation shows the
// model exactly what the suite's tool said.
type ToolError struct{ Message string }

func (e *ToolError) Error() string { return e.Message }

// CodeName returns the symbolic name of a protocol error code, as
// SPEC.md Appendix D writes it ("not_applicable"), or "error".
func CodeName(code int) string {
	switch code {
	case CodeParseError:
		return "parse_error"
	case CodeInvalidRequest:
		return "invalid_request"
	case CodeMethodNotFound:
		return "method_not_found"
	case CodeInvalidParams:
		return "invalid_params"
	case CodeInternalError:
		return "internal_error"
	case CodeNotApplicable:
		return "not_applicable"
	case CodeTurnFailed:
		return "turn_failed"
	case CodeToolFailed:
		return "tool_failed"
	case CodeInvalidState:
		return "invalid_state"
	case CodeCancelled:
		return "cancelled"
	default:
		return "error"
	}
}

// maxLine bounds one message. A longer line is a protocol error.
const maxLine = 32 << 20

var errNotObject = errors.New("not a JSON object")

// decodeMessage decodes one line. It accepts exactly the messages
// SPEC.md Appendix D allows: a JSON object with "jsonrpc": "2.0" that is a
// request, a notification or a response. Unknown members are ignored.
func decodeMessage(line []byte) (*message, error) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return nil, errNotObject
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(line, &raw); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	var version string
	if err := json.Unmarshal(raw["jsonrpc"], &version); err != nil || version != "2.0" {
		return nil, errors.New(`"jsonrpc" is not "2.0"`)
	}
	m := &message{}
	idRaw, hasID := raw["id"]
	if hasID {
		id, err := compactID(idRaw)
		if err != nil {
			return nil, err
		}
		m.ID = id
	}
	methodRaw, hasMethod := raw["method"]
	resultRaw, hasResult := raw["result"]
	errorRaw, hasError := raw["error"]
	switch {
	case hasMethod:
		if hasResult || hasError {
			return nil, errors.New("a request has no result or error")
		}
		if err := json.Unmarshal(methodRaw, &m.Method); err != nil || m.Method == "" {
			return nil, errors.New(`"method" is not a non-empty string`)
		}
		if p, ok := raw["params"]; ok {
			p = bytes.TrimSpace(p)
			if len(p) == 0 || (p[0] != '{' && p[0] != '[') {
				return nil, errors.New(`"params" is not an object or an array`)
			}
			m.Params = p
		}
		m.kind = kindNotification
		if hasID {
			m.kind = kindRequest
		}
	case hasResult == hasError:
		return nil, errors.New("a response has exactly one of result and error")
	case !hasID:
		return nil, errors.New("a response has an id")
	case hasResult:
		m.kind = kindResponse
		m.Result = bytes.TrimSpace(resultRaw)
	default:
		e, err := decodeError(errorRaw)
		if err != nil {
			return nil, err
		}
		m.kind = kindResponse
		m.Error = e
	}
	return m, nil
}

// decodeError decodes the error member of a response: an object with an
// integer code and a string message.
func decodeError(raw json.RawMessage) (*RPCError, error) {
	var e struct {
		Code    *json.Number    `json:"code"`
		Message *string         `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &e) != nil {
		return nil, errors.New(`"error" is not an error object`)
	}
	if e.Code == nil || e.Message == nil {
		return nil, errors.New(`"error" has no code or no message`)
	}
	code, err := strconv.ParseInt(string(*e.Code), 10, 32)
	if err != nil {
		return nil, errors.New(`"error" code is not an integer`)
	}
	return &RPCError{Code: int(code), Message: *e.Message, Data: e.Data}, nil
}

// compactID returns id, which must be a JSON string or number, without
// white space; null is refused.
func compactID(id json.RawMessage) (json.RawMessage, error) {
	id = bytes.TrimSpace(id)
	var v any
	if err := json.Unmarshal(id, &v); err != nil {
		return nil, fmt.Errorf(`"id": %w`, err)
	}
	switch v.(type) {
	case string, float64:
		return id, nil
	default:
		return nil, errors.New(`"id" is not a string or a number`)
	}
}

// intID parses one of our own request ids.
func intID(id json.RawMessage) (int64, bool) {
	n, err := strconv.ParseInt(string(id), 10, 64)
	return n, err == nil
}

// encodeMessage returns m as one line, newline included. HTML characters
// are not escaped, so strings and raw JSON cross the wire unchanged.
func encodeMessage(m *message) ([]byte, error) {
	out := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id,omitempty"`
		Method  string          `json:"method,omitempty"`
		Params  json.RawMessage `json:"params,omitempty"`
		Result  json.RawMessage `json:"result,omitempty"`
		Error   *RPCError       `json:"error,omitempty"`
	}{"2.0", m.ID, m.Method, m.Params, m.Result, m.Error}
	if m.kind == kindResponse && m.Error == nil && len(m.Result) == 0 {
		out.Result = json.RawMessage("null")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Marshal encodes v as compact JSON without escaping HTML characters, as
// the protocol writes every value: strings and raw JSON cross the wire
// unchanged.
func Marshal(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// DecodeParams decodes the params of a request into v; missing or
// malformed params are an invalid_params error.
func DecodeParams(params json.RawMessage, v any) error {
	if len(params) == 0 {
		return InvalidParams("no params")
	}
	if err := json.Unmarshal(params, v); err != nil {
		return InvalidParams("%v", err)
	}
	return nil
}

// InvalidParams returns an invalid_params error response.
func InvalidParams(format string, args ...any) *RPCError {
	return &RPCError{Code: CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}
