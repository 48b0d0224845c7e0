package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/codemodekit/kit/reference/internal/catalog"
	"github.com/codemodekit/kit/reference/internal/guest"
	"github.com/codemodekit/kit/reference/internal/jsjson"
)

// Limits are the limits of a run that the guest half enforces.
type Limits struct {
	// MemoryBytes is memoryLimitBytes: the QuickJS heap of the leg's VM.
	MemoryBytes int
	// MaxOutputBytes is maxOutputBytes: no output, value or error text
	// longer than it leaves the guest half.
	MaxOutputBytes int
}

// Output is a run's cumulative output before a leg: the byte length of
// the output array as compact JSON (2 when it is empty) and its entries.
type Output struct {
	Bytes int
	Count int
}

// A Settlement is the outcome of a bridge request, delivered to the guest.
type Settlement struct {
	ID string
	OK bool
	// Payload is the result's JSON text when OK, else the error message.
	Payload string
}

// Start describes the first leg of a run: a VM that no run has touched,
// the run's globals installed, then the prepared cell.
type Start struct {
	Deadline   time.Time
	Limits     Limits
	Catalog    catalog.GuestCatalog
	Config     []byte // guest.Config as JSON
	MaxPending int
}

// Resume describes a leg of a suspended run: its stored VM restored, then
// the settled bridge requests delivered in order.
type Resume struct {
	Deadline time.Time
	Limits   Limits
	Stored   Stored
	Ledger   []byte // the run's guest.Ledger (MarshalBinary)
	Output   Output
	Settle   []Settlement
}

// Stored is the guest half of a suspended run, as the host keeps it
// between legs: opaque bytes, sealed by the host.
type Stored struct {
	// Delta is the VM's image as a zstd-compressed delta against the base
	// image of the sandbox (engine.VM.SnapshotDelta).
	Delta []byte
	// RawSize is the delta's uncompressed size.
	RawSize int
	// Control is the controller object's handle in the image.
	Control uint32
	// Rejections are the VM's unhandled rejections (engine.VM.Rejections).
	Rejections []byte
}

// A Report is what a leg operation found once the guest was idle again:
// the output it produced, the state of the model's function and, when the
// run can go no further, why.
type Report struct {
	// Items are the output entries produced since the last report, each
	// the compact JSON text of {"type":"text","text":...} or
	// {"type":"json","value":...}, checked.
	Items []json.RawMessage
	// Done is set once the model's async function settled; OK when it
	// returned.
	Done, OK bool
	// The outcome, read only when Done and no bridge request is unsettled
	// (the run can only complete or fail now): Value is the final value's
	// JSON text, unless ValueTooLarge (with the output, it passes
	// maxOutputBytes, or it nests past jsjson.MaxGuestDepth); Error is what
	// the function threw; Unhandled is the earliest rejection still
	// unhandled, when the function returned.
	Value         json.RawMessage
	ValueTooLarge bool
	Error         *GuestError
	Unhandled     *GuestError
	// Interrupted is set when the interrupt handler stopped the guest
	// during the operation, Aborted when Abort was called.
	Interrupted, Aborted bool
	// Fault, when set, ends the run: the leg cannot go on.
	Fault *Fault
	// MemoryBytes is the size of the VM's linear memory afterwards: the
	// serialized snapshot is this plus a 28-byte header (CM-8.35).
	MemoryBytes int
}

// A GuestError is a value the guest threw or rejected with, as the error
// text of a failed payload.
type GuestError struct {
	// Text is "Name: message" and the guest's own stack frames (SPEC.md
	// CM-10.35); empty when TooLong.
	Text string
	// Module is set for a ReferenceError for require, module or process
	// (CM-5.18).
	Module bool
	// TooLong is set when the text is longer than maxOutputBytes: it is
	// guest output, and was never read whole (CM-7.28).
	TooLong bool
}

// FaultKind says why a leg could not go on.
type FaultKind uint8

// Faults.
const (
	// FaultGuest is an uncaught error raised outside the model's function
	// (an uncatchable one, such as out of memory, or a syntax error);
	// Fault.Text is its error text.
	FaultGuest FaultKind = iota + 1
	// FaultModule is FaultGuest for require, module or process (CM-5.18).
	FaultModule
	// FaultTimeout: the interrupt handler stopped the guest at its deadline.
	FaultTimeout
	// FaultAborted: the interrupt handler stopped the guest after Abort.
	FaultAborted
	// FaultOutputLimit: the output, or an error text, passed maxOutputBytes
	// or nested past jsjson.MaxGuestDepth.
	FaultOutputLimit
	// FaultController: the controller reported something malformed.
	FaultController
	// FaultRuntime: the engine trapped or failed, or the guest half's
	// process was lost; Fault.Text is the reason.
	FaultRuntime
	// FaultRestore: the stored VM could not be restored.
	FaultRestore
	// FaultWatchdog: the guest half did not answer within the deadline
	// and its grace, and was stopped (a worker process killed).
	FaultWatchdog
	// FaultPrepareTimeout: preparing the source took past the deadline,
	// and the guest half was stopped.
	FaultPrepareTimeout
)

// A Fault ends a leg.
type Fault struct {
	Kind FaultKind
	Text string
}

// The controller's messages. poll's result always has this form
// (guest/controller.js); anything else is a FaultController.
const (
	pollHead     = `{"items":[`
	pollOverflow = `],"overflow":`
	pollState    = `,"state":`
	itemText     = `{"type":"text","text":`
	itemJSON     = `{"type":"json","value":`
	stateRunning = `{"done":false}`
	stateThrew   = `{"done":true,"ok":false}`
	stateValue   = `{"done":true,"ok":true}`
	stateInline  = `{"done":true,"ok":true,"value":`
)

// pollCap bounds a poll result in bytes: the new items (their code units
// are at most maxOutputBytes, and so at most 3 bytes each) and an inline
// string value of at most maxOutputBytes code units (at most 6 bytes each,
// escaped). The controller never writes more.
func pollCap(maxOutput int) int { return 9*maxOutput + 8192 }

// errorCap bounds error(): a name, message and stack whose error text is
// within maxOutputBytes, escaped, with the frames the text leaves out.
func errorCap(maxOutput int) int { return 8*maxOutput + 64<<10 }

var errMalformed = errors.New("malformed controller message")

// poll is the parsed result of the controller's poll.
type poll struct {
	items    []json.RawMessage
	overflow bool
	done, ok bool
	inline   []byte // a value written inline, or nil
	// deep is set when an item nests past jsjson.MaxGuestDepth.
	deep bool
}

// parsePoll checks a poll result strictly: the controller writes exactly
// one form, and whatever model code did to the realm, a poll that is not of
// it never reaches the host as output.
func parsePoll(raw []byte) (poll, error) {
	var p poll
	b, ok := bytes.CutPrefix(raw, []byte(pollHead))
	if !ok {
		return p, errMalformed
	}
	for len(b) > 0 && b[0] != ']' {
		if len(p.items) > 0 {
			if b[0] != ',' {
				return p, errMalformed
			}
			b = b[1:]
		}
		n, deep, err := scanItem(b)
		if err != nil {
			return p, err
		}
		p.deep = p.deep || deep
		p.items = append(p.items, json.RawMessage(b[:n]))
		b = b[n:]
	}
	if b, ok = bytes.CutPrefix(b, []byte(pollOverflow)); !ok {
		return p, errMalformed
	}
	switch {
	case bytes.HasPrefix(b, []byte("true")):
		p.overflow, b = true, b[4:]
	case bytes.HasPrefix(b, []byte("false")):
		b = b[5:]
	default:
		return p, errMalformed
	}
	if b, ok = bytes.CutPrefix(b, []byte(pollState)); !ok {
		return p, errMalformed
	}
	if b, ok = bytes.CutSuffix(b, []byte("}")); !ok {
		return p, errMalformed
	}
	switch string(b) {
	case stateRunning:
	case stateThrew:
		p.done = true
	case stateValue:
		p.done, p.ok = true, true
	default:
		v, ok := bytes.CutPrefix(b, []byte(stateInline))
		if !ok || len(v) < 2 || v[len(v)-1] != '}' {
			return p, errMalformed
		}
		v = v[:len(v)-1]
		// Only scalars are written inline.
		if v[0] == '{' || v[0] == '[' || !jsjson.Valid(v, 0) || v[0] == ' ' {
			return p, errMalformed
		}
		p.done, p.ok, p.inline = true, true, v
	}
	return p, nil
}

// scanItem reads one output item at the start of b and returns its length.
// deep reports a value nested past jsjson.MaxGuestDepth.
func scanItem(b []byte) (n int, deep bool, err error) {
	var head string
	switch {
	case bytes.HasPrefix(b, []byte(itemText)):
		head = itemText
	case bytes.HasPrefix(b, []byte(itemJSON)):
		head = itemJSON
	default:
		return 0, false, errMalformed
	}
	i := len(head)
	if head == itemText && (i >= len(b) || b[i] != '"') {
		return 0, false, errMalformed
	}
	end, err := jsjson.Scan(b, i, jsjson.MaxGuestDepth)
	if errors.Is(err, jsjson.ErrTooDeep) {
		// Find the item's end without a bound, to go on reading.
		if end, err = jsjson.Scan(b, i, len(b)); err != nil {
			return 0, false, errMalformed
		}
		deep = true
	} else if err != nil || end == i || isSpace(b[i]) {
		return 0, false, errMalformed
	}
	if end >= len(b) || b[end] != '}' {
		return 0, false, errMalformed
	}
	return end + 1, deep, nil
}

// ValidItem reports whether b is one output item of the two forms the
// controller writes, nested at most jsjson.MaxGuestDepth deep.
func ValidItem(b []byte) bool {
	n, deep, err := scanItem(b)
	return err == nil && !deep && n == len(b)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// errorDescriptor is what the controller's error() reports.
type errorDescriptor struct {
	IsError bool   `json:"isError"`
	Name    string `json:"name"`
	Message string `json:"message"`
	Stack   string `json:"stack"`
}

var moduleRefRE = regexp.MustCompile(`^(?:require|module|process) is not defined$`)

// thrownError makes the GuestError of a thrown value's descriptor.
func thrownError(d errorDescriptor, maxOutput, shift int) *GuestError {
	if d.IsError && d.Name == "ReferenceError" && moduleRefRE.MatchString(d.Message) {
		return &GuestError{Module: true}
	}
	return boundedError(ErrorText(d.IsError, d.Name, d.Message, d.Stack, shift), maxOutput)
}

func boundedError(text string, maxOutput int) *GuestError {
	if len(text) > maxOutput {
		return &GuestError{TooLong: true}
	}
	return &GuestError{Text: text}
}

// userFrameRE finds the position of a frame in model code: the file name
// the cell is evaluated under, a line and a column.
var userFrameRE = regexp.MustCompile(regexp.QuoteMeta(guest.UserFile) + `:(\d+)`)

// ErrorText formats a thrown value (SPEC.md CM-10.35): "Name: message",
// then the guest's own stack frames (frames of model code only, never host
// or controller frames), their line numbers less shift: the lines the
// evaluated script has before the model's first line. A value that is not
// an Error is its message alone.
func ErrorText(isError bool, name, message, stack string, shift int) string {
	if !isError {
		return message
	}
	text := name
	if message != "" {
		if text != "" {
			text += ": "
		}
		text += message
	}
	var frames []string
	for _, line := range strings.Split(stack, "\n") {
		if strings.Contains(line, guest.UserFile) {
			frames = append(frames, userLines(strings.TrimRight(line, " "), shift))
		}
	}
	if len(frames) > 0 {
		text += "\n" + strings.Join(frames, "\n")
	}
	return text
}

// userLines renumbers the lines of a frame by shift.
func userLines(frame string, shift int) string {
	if shift == 0 {
		return frame
	}
	return userFrameRE.ReplaceAllStringFunc(frame, func(m string) string {
		n, err := strconv.Atoi(m[len(guest.UserFile)+1:])
		if err != nil || n <= shift {
			return m
		}
		return guest.UserFile + ":" + strconv.Itoa(n-shift)
	})
}
