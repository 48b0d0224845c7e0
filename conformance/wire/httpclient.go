package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// A RemoteError is an error answered by an [HTTPHost]. Its text is the
// host's error text unchanged, so a failing behaviour reads the same
// through HTTP as in process.
type RemoteError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *RemoteError) Error() string { return e.Message }

// An HTTPClient is the target's side of an [HTTPHost]: it runs tool calls,
// the before_tool_call hook and approvals on the host through HTTP, with the
// method shapes of the reference harness's TurnHost. A call's context
// bounds the HTTP request: when it ends, the host's call is cancelled too
// and the method returns ctx.Err(). It is safe for concurrent use.
type HTTPClient struct {
	base string
	hc   *http.Client
}

// NewHTTPClient returns a client of the host at baseURL (an
// [HTTPHost.URL]).
func NewHTTPClient(baseURL string) *HTTPClient {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil // loopback only
	tr.MaxIdleConnsPerHost = 16
	return &HTTPClient{base: strings.TrimRight(baseURL, "/"), hc: &http.Client{Transport: tr}}
}

// Close closes the client's idle connections.
func (c *HTTPClient) Close() { c.hc.CloseIdleConnections() }

// Invoke runs a call of s, tool i of the host's list, with input.
func (c *HTTPClient) Invoke(ctx context.Context, i int, s Spec, input json.RawMessage) (Result, error) {
	var out invokeResponse
	if err := c.post(ctx, "/invoke", invokeRequest{Index: i, Name: s.Name, Input: input}, &out); err != nil {
		return Result{}, err
	}
	if out.Error != nil {
		return Result{}, out.Error
	}
	if out.Result == nil {
		return Result{}, fmt.Errorf("wire: /invoke: answer without result")
	}
	return *out.Result, nil
}

// BeforeToolCall sends a hook event and returns the host's decision.
func (c *HTTPClient) BeforeToolCall(ctx context.Context, event json.RawMessage) (Decision, error) {
	var out struct {
		Decision
		Error *RemoteError `json:"error,omitempty"`
	}
	if err := c.post(ctx, "/hook", hookRequest{Event: event}, &out); err != nil {
		return Decision{}, err
	}
	if out.Error != nil {
		return Decision{}, out.Error
	}
	return out.Decision, nil
}

// Approve asks the host for the approval decision of a call of tool.
func (c *HTTPClient) Approve(ctx context.Context, tool string) (bool, error) {
	var out approveResponse
	if err := c.post(ctx, "/approve", approveRequest{Tool: tool}, &out); err != nil {
		return false, err
	}
	if out.Error != nil {
		return false, out.Error
	}
	return out.Granted, nil
}

// post sends in to path and decodes the answer, whatever its status, into
// out. An answer that is not JSON is an error.
func (c *HTTPClient) post(ctx context.Context, path string, in, out any) error {
	b, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("wire: %s: %w", path, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("wire: %s: %w", path, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("wire: %s: %w", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("wire: %s: %w", path, err)
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("wire: %s: HTTP %d: %s", path, resp.StatusCode, bytes.TrimSpace(body))
	}
	return nil
}
