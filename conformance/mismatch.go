package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// A Mismatch is one difference between what a step expected and what the
// target gave: where (a JSON path into the observed value, or a name such
// as "text" or "tools"), and the kinds of both sides (see kindOf).
type Mismatch struct {
	Path string `json:"path"`
	Want string `json:"want"`
	Got  string `json:"got"`
}

func (m Mismatch) String() string { return m.Path + ": " + m.Want + " vs " + m.Got }

// A mismatchError is a step failure that knows its first difference, so
// the runner can give the failure a signature (Result.Signature) and
// --explain can show a diff.
type mismatchError struct {
	first Mismatch
	msg   string
	diff  string // go-cmp (-want +got), may be empty
}

func (e *mismatchError) Error() string {
	if e.diff == "" {
		return e.msg
	}
	return e.msg + "\n(-want +got):\n" + e.diff
}

// mismatch builds a step failure for one observed difference at path.
func mismatch(path string, want, got any, format string, args ...any) error {
	return &mismatchError{
		first: Mismatch{Path: path, Want: kindOf(want), Got: kindOf(got)},
		msg:   fmt.Sprintf(format, args...),
		diff:  cmp.Diff(want, got),
	}
}

// Kinds of a side that is not a value.
const (
	kindMissing = "missing"
	kindAbsent  = "absent"
	kindPresent = "present"
)

// a presence stands for a member's presence in a Mismatch.
type presence string

// wordRE matches the short identifiers that are worth keeping in a
// signature: statuses, codes, phases and reasons.
var wordRE = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,39}$`)

// kindOf names the kind of a value for a failure signature: the value itself
// for short identifiers and booleans (so code vs code is visible), else its
// JSON type. Signatures must not change with incidental data, so no
// free text, number or length goes into one.
func kindOf(v any) string {
	switch x := v.(type) {
	case presence:
		return string(x)
	case nil:
		return "null"
	case bool:
		return fmt.Sprint(x)
	case string:
		if wordRE.MatchString(x) {
			return strconv.Quote(x)
		}
		return "string"
	case json.Number, float64, int, int64:
		return "number"
	case []any, []string:
		return "array"
	case map[string]any:
		return "object"
	default:
		return fmt.Sprintf("%T", v)
	}
}

// firstMismatch returns the first difference a step failure carries.
func firstMismatch(err error) (Mismatch, bool) {
	var me *mismatchError
	if errors.As(err, &me) {
		return me.first, true
	}
	return Mismatch{}, false
}

// signature is the identity of a failure: the failing step, and the first
// difference with the kinds of both sides, or "error" for a failure that
// compared nothing (a harness error, a refused call, a timeout). Two runs
// that fail for the same cause have the same signature.
func signature(step string, err error) string {
	if err == nil {
		return ""
	}
	if m, ok := firstMismatch(err); ok {
		return step + " | " + m.String()
	}
	return step + " | error"
}

// normalizeSignature trims the spaces a baseline line may add.
func normalizeSignature(s string) string {
	parts := strings.Split(s, "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return strings.Join(parts, " | ")
}
