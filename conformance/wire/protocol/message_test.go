package protocol

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDecodeMessage(t *testing.T) {
	tests := []struct {
		name   string
		line   string
		want   *message // nil: refused
		reason string
	}{
		{name: "request", line: `{"jsonrpc":"2.0","id":1,"method":"hello","params":{"a":1}}`,
			want: &message{kind: kindRequest, ID: json.RawMessage("1"), Method: "hello", Params: json.RawMessage(`{"a":1}`)}},
		{name: "request with a string id", line: ` {"jsonrpc":"2.0","id":"x-1","method":"m"} `,
			want: &message{kind: kindRequest, ID: json.RawMessage(`"x-1"`), Method: "m"}, reason: "surrounding white space is fine"},
		{name: "notification", line: `{"jsonrpc":"2.0","method":"$/cancel","params":{"id":3}}`,
			want: &message{kind: kindNotification, Method: "$/cancel", Params: json.RawMessage(`{"id":3}`)}},
		{name: "result", line: `{"jsonrpc":"2.0","id":7,"result":{"x":[1,2]},"extra":true}`,
			want: &message{kind: kindResponse, ID: json.RawMessage("7"), Result: json.RawMessage(`{"x":[1,2]}`)}, reason: "unknown members are ignored"},
		{name: "null result", line: `{"jsonrpc":"2.0","id":7,"result":null}`,
			want: &message{kind: kindResponse, ID: json.RawMessage("7"), Result: json.RawMessage(`null`)}},
		{name: "error", line: `{"jsonrpc":"2.0","id":7,"error":{"code":-32001,"message":"no","data":{"k":1}}}`,
			want: &message{kind: kindResponse, ID: json.RawMessage("7"), Error: &RPCError{Code: -32001, Message: "no", Data: json.RawMessage(`{"k":1}`)}}},
		{name: "not JSON", line: `hello`},
		{name: "an array", line: `[{"jsonrpc":"2.0","id":1,"method":"m"}]`, reason: "no batches"},
		{name: "truncated", line: `{"jsonrpc":"2.0","id":1,"method":"m"`},
		{name: "version 1", line: `{"jsonrpc":"1.0","id":1,"method":"m"}`},
		{name: "no version", line: `{"id":1,"method":"m"}`},
		{name: "empty method", line: `{"jsonrpc":"2.0","id":1,"method":""}`},
		{name: "method not a string", line: `{"jsonrpc":"2.0","id":1,"method":5}`},
		{name: "params a string", line: `{"jsonrpc":"2.0","id":1,"method":"m","params":"x"}`},
		{name: "null id", line: `{"jsonrpc":"2.0","id":null,"method":"m"}`},
		{name: "object id", line: `{"jsonrpc":"2.0","id":{},"method":"m"}`},
		{name: "request with result", line: `{"jsonrpc":"2.0","id":1,"method":"m","result":1}`},
		{name: "result and error", line: `{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"x"}}`},
		{name: "neither result nor error", line: `{"jsonrpc":"2.0","id":1}`},
		{name: "response without id", line: `{"jsonrpc":"2.0","result":1}`},
		{name: "error without code", line: `{"jsonrpc":"2.0","id":1,"error":{"message":"x"}}`},
		{name: "error with a fractional code", line: `{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"x"}}`},
		{name: "error not an object", line: `{"jsonrpc":"2.0","id":1,"error":"boom"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeMessage([]byte(tt.line))
			if tt.want == nil {
				if err == nil {
					t.Errorf("decodeMessage(%s) = %+v, want an error (%s)", tt.line, got, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatalf("decodeMessage(%s) error: %v", tt.line, err)
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(message{})); diff != "" {
				t.Errorf("decodeMessage(%s) mismatch (-want +got):\n%s\nreason: %s", tt.line, diff, tt.reason)
			}
		})
	}
}

func TestEncodeMessage(t *testing.T) {
	tests := []struct {
		name string
		m    *message
		want string
	}{
		{name: "no HTML escaping", m: &message{kind: kindResponse, ID: json.RawMessage("1"), Result: json.RawMessage(`{"t": "<b>&</b>"}`)},
			want: `{"jsonrpc":"2.0","id":1,"result":{"t":"<b>&</b>"}}` + "\n"},
		{name: "empty result is null", m: &message{kind: kindResponse, ID: json.RawMessage(`"a"`)},
			want: `{"jsonrpc":"2.0","id":"a","result":null}` + "\n"},
		{name: "notification", m: &message{kind: kindNotification, Method: MethodCancel, Params: json.RawMessage(`{"id":2}`)},
			want: `{"jsonrpc":"2.0","method":"$/cancel","params":{"id":2}}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := encodeMessage(tt.m)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("encodeMessage mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzDecodeMessage checks the trust boundary: whatever a peer writes, the
// decoder never panics, and a line it accepts survives an encode and a
// decode unchanged, on one line.
func FuzzDecodeMessage(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocolVersion":"1"}}`,
		`{"jsonrpc":"2.0","method":"$/cancel","params":{"id":"a"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"text":"line\nbreak","details":{"n":1e400}}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32002,"message":"failed","data":null}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":1e3,"message":""}}`,
		`{"jsonrpc":"2.0","id":-0.5e1,"result":null,"result":1}`,
		`{"jsonrpc":"2.0","id":"\u2028<>","method":"m","params":[]}`,
		"\x00\xff{",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		m, err := decodeMessage(line)
		if err != nil {
			return
		}
		b, err := encodeMessage(m)
		if err != nil {
			t.Fatalf("encodeMessage of an accepted message: %v", err)
		}
		if bytes.IndexByte(b, '\n') != len(b)-1 {
			t.Fatalf("encoded message is not one line: %q", b)
		}
		m2, err := decodeMessage(b)
		if err != nil {
			t.Fatalf("decodeMessage(encodeMessage(%q)) error: %v", line, err)
		}
		if diff := cmp.Diff(m, m2, cmp.AllowUnexported(message{}), cmp.Comparer(jsonEqual)); diff != "" {
			t.Fatalf("round trip of %q mismatch (-first +second):\n%s", line, diff)
		}
	})
}

// jsonEqual compares JSON texts without insignificant white space.
func jsonEqual(a, b json.RawMessage) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}
