package mcpns

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/codemodekit/kit/reference/internal/jsjson"
)

// Guest-facing messages of MCP namespace calls (SPEC.md chapter 19). They
// are exact SPEC strings, so they keep their capital letters and periods.
const (
	MsgOneObjectArgument = "MCP namespace tools accept one object argument."
	msgMissingArgument   = "Missing required MCP namespace argument: "
	msgMissingArguments  = "Missing required MCP namespace arguments: "
	msgUnknownNamespace  = "Unknown code mode namespace: "
	msgNotCallable       = "Code mode namespace path is not callable: "
	msgInvalidSegment    = "Invalid code mode namespace path segment: "
)

// UnknownNamespace returns the error for a namespace request whose id is
// not NamespaceID nor any other known namespace (CM-15.15).
func UnknownNamespace(id string) error { return errors.New(msgUnknownNamespace + id) }

func notCallable(path string) error { return errors.New(msgNotCallable + path) }

// Resolve checks a dotted namespace path below MCP, such as
// "github.createIssue", "docs.resources.read", "github.$api" or "$api",
// and returns its entry (CM-14.15, CM-15.15).
//
// Every segment is checked first: an empty segment, "__proto__",
// "constructor" or "prototype" is rejected with "Invalid code mode
// namespace path segment: <segment>" ("(empty)" for an empty segment, as
// in CM-15.12). A path that does not name a callable function is rejected
// with "Code mode namespace path is not callable: <path>".
//
// The $api paths resolve to pseudo entries with Operation OpAPI (and an
// empty ServerIdentifier for MCP.$api); answer them with [Model.API]. They
// have no catalog id and are not tool calls (CM-14.19, CM-14.24). Without
// a visible server MCP has no member (CM-10.5), so "$api" is not callable
// either.
func (m *Model) Resolve(path string) (*Entry, error) {
	segs := strings.Split(path, ".")
	for _, seg := range segs {
		if seg == "" {
			return nil, errors.New(msgInvalidSegment + "(empty)")
		}
		if slices.Contains(ForbiddenSegments, seg) {
			return nil, errors.New(msgInvalidSegment + seg)
		}
	}
	if len(segs) == 1 && segs[0] == OpAPI && len(m.Servers) > 0 {
		return &Entry{Operation: OpAPI, Path: []string{OpAPI}, Method: OpAPI}, nil
	}
	s := m.Server(segs[0])
	if s == nil || len(segs) < 2 {
		return nil, notCallable(path)
	}
	rest := strings.Join(segs[1:], ".")
	if rest == OpAPI {
		return &Entry{
			Operation: OpAPI, Path: []string{OpAPI}, Method: OpAPI,
			ServerIdentifier: s.Identifier, ServerName: s.Name,
		}, nil
	}
	for _, e := range s.Entries {
		if e.Method == rest {
			return e, nil
		}
	}
	return nil, notCallable(path)
}

// PrepareInput builds the MCP tool input of a call of entry e with the
// guest arguments args, of which there were argc (CM-14.12 to CM-14.14):
//
//   - more than one argument, or an argument that is not a JSON object
//     (null and arrays are not objects), is rejected with
//     MsgOneObjectArgument; a guest undefined argument arrives as null and
//     is rejected too;
//   - no argument is the empty object (an argument counted by argc but
//     missing from args counts as absent);
//   - every top-level property of the input schema that declares a
//     default and is absent from the input gets the default: the input's
//     members keep their order and the defaults follow in schema order (a
//     guest undefined member never reaches the host, so it is absent);
//   - required properties still absent are reported in required order.
//
// The result is compact JSON.
func PrepareInput(e *Entry, args []json.RawMessage, argc int) (json.RawMessage, error) {
	if e == nil || e.Operation == OpAPI {
		return nil, errors.New("mcpns: PrepareInput needs a tool entry")
	}
	if argc > 1 {
		return nil, errors.New(MsgOneObjectArgument)
	}
	input := jsonObject()
	if argc == 1 && len(args) > 0 {
		v, err := jsjson.Parse(args[0])
		if err != nil || !v.IsObject() {
			return nil, errors.New(MsgOneObjectArgument)
		}
		input = *v
	}
	present := make(map[string]bool, len(input.Obj))
	for _, mb := range input.Obj {
		present[mb.Key] = true
	}
	if props := e.schema.Get("properties"); props.IsObject() {
		for i := range props.Obj {
			mb := &props.Obj[i]
			if present[mb.Key] || !mb.Value.IsObject() {
				continue
			}
			if def := mb.Value.Get("default"); def != nil {
				input.Obj = append(input.Obj, jsjson.Member{Key: mb.Key, Value: *def})
				present[mb.Key] = true
			}
		}
	}
	var missing []string
	for _, name := range requiredNames(e.schema) {
		if !present[name] {
			missing = append(missing, name)
		}
	}
	switch len(missing) {
	case 0:
		return json.RawMessage(input.String()), nil
	case 1:
		return nil, errors.New(msgMissingArgument + missing[0])
	default:
		return nil, errors.New(msgMissingArguments + strings.Join(missing, ", "))
	}
}
