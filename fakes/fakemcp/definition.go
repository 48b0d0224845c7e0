package fakemcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/codemodekit/kit/conformance/wire"
)

// A Definition describes one fake MCP server. It is also the format of the
// definition file the fakemcp command reads.
type Definition struct {
	// Name is the server name reported in the initialize result.
	Name string `json:"name"`
	// Tools are the server's tools, scripted like faketools tools. Title,
	// Description, InputSchema (else Parameters, else an empty object
	// schema) and OutputSchema are advertised by tools/list.
	Tools []wire.Spec `json:"tools,omitempty"`
	// Resources are {"uri", "name", "description"?, "mimeType"?, "text"}
	// objects. A non-nil slice, even an empty one, declares the resources
	// capability.
	Resources []json.RawMessage `json:"resources,omitempty"`
	// Prompts are {"name", "description"?, "arguments"?: [{"name",
	// "description"?, "required"?}], "text"} objects. prompts/get answers
	// one user message whose text is the prompt text with every {{arg}}
	// replaced by the value of argument arg. A non-nil slice, even an empty
	// one, declares the prompts capability.
	Prompts []json.RawMessage `json:"prompts,omitempty"`
	// PageSize, when positive, makes tools/list, resources/list and
	// prompts/list answer at most PageSize items per page, with a
	// nextCursor while more remain.
	PageSize int `json:"pageSize,omitempty"`
	// Replies script the tools/call of a tool, by tool name, at the wire
	// level. The call still reaches the host first.
	Replies map[string]Reply `json:"replies,omitempty"`
	// All, when set, scripts the answer to every request, initialize
	// included.
	All *Reply `json:"all,omitempty"`
}

// Reply kinds.
const (
	// ReplyResult answers with Reply.Result, verbatim, as the result.
	ReplyResult = "result"
	// ReplyError answers with a JSON-RPC error (Reply.Code, default
	// -32603, and Reply.Message).
	ReplyError = "error"
	// ReplyClose drops the connection without answering: over HTTP the
	// request's connection is closed; over stdio the server stops and, in
	// the fakemcp command, the process exits.
	ReplyClose = "close"
	// ReplyHang never answers; the request stays open until the client
	// gives up or the server closes (over streamable HTTP the connection
	// is then dropped).
	ReplyHang = "hang"
	// ReplyGarbage answers with something that is not a JSON-RPC response
	// to the request. Over streamable HTTP the body is not JSON. A stream
	// (stdio, SSE) cannot tie unparsable bytes to a request, so there the
	// server sends a line that is not JSON (stdio only) followed by a
	// response with the request's id whose result is a string, not an
	// object.
	ReplyGarbage = "garbage"
)

// A Reply replaces the normal answer to a request.
type Reply struct {
	Kind    string          `json:"kind"`
	Result  json.RawMessage `json:"result,omitempty"`
	Code    int             `json:"code,omitempty"`
	Message string          `json:"message,omitempty"`
}

func (r Reply) check() error {
	switch r.Kind {
	case ReplyResult:
		if !json.Valid(r.Result) {
			return fmt.Errorf("reply %q: result is not valid JSON", r.Kind)
		}
	case ReplyError, ReplyClose, ReplyHang, ReplyGarbage:
	default:
		return fmt.Errorf("unknown reply kind %q", r.Kind)
	}
	return nil
}

// A resource is one entry of Definition.Resources.
type resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	Text        string `json:"text"`
}

// A prompt is one entry of Definition.Prompts.
type prompt struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Arguments   []struct {
		Name        string `json:"name"`
		Description string `json:"description,omitempty"`
		Required    bool   `json:"required,omitempty"`
	} `json:"arguments,omitempty"`
	Text string `json:"text"`
}

// ParseDefinition reads a definition file's contents.
func ParseDefinition(b []byte) (Definition, error) {
	var d Definition
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&d); err != nil {
		return Definition{}, fmt.Errorf("fakemcp: definition: %w", err)
	}
	return d, nil
}

// ReadDefinition reads the definition file at path.
func ReadDefinition(path string) (Definition, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Definition{}, fmt.Errorf("fakemcp: %w", err)
	}
	return ParseDefinition(b)
}

// schema returns the input schema a tool advertises.
func schema(s wire.Spec) json.RawMessage {
	switch {
	case len(s.InputSchema) > 0:
		return s.InputSchema
	case len(s.Parameters) > 0:
		return s.Parameters
	default:
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
}

// compact returns v without insignificant white space, so that it fits on
// one stdio line.
func compact(v json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	if err := json.Compact(&buf, v); err != nil {
		return v
	}
	return buf.Bytes()
}
