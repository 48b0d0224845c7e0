package conformance

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/codemodekit/kit/fixtures"
)

// HostileDir is the directory of fixtures.FS holding the hostile-program
// corpus (fixtures/hostile/README.md).
const HostileDir = "hostile"

// A hostileCategory groups the programs whose file names start with its
// prefix, with the seed checklist tags that every program of the category
// proves (SPEC.md Appendix C.3 and C.5).
type hostileCategory struct {
	Prefix string
	Title  string
	Tags   []string
}

// hostileCategories lists the categories of the corpus, in the order the
// generated feature file shows them.
var hostileCategories = []hostileCategory{
	{"globals", "global enumeration against the allowlist", []string{"@SB-01", "@checklist-17"}},
	{"realm", "Function, eval, constructor and prototype tricks", []string{"@SB-02", "@SB-24"}},
	{"stack", "Error.prepareStackTrace and stack probing", []string{"@SB-03", "@SB-24"}},
	{"bridge", "forged bridge calls, ids and namespace paths", []string{"@SB-04", "@SB-24"}},
	{"ids", "guessed and denied tool ids", []string{"@SB-05", "@checklist-7"}},
	{"shadow", "convenience-name shadowing", []string{"@SB-04"}},
	{"recursive", "recursive exec, wait and tool-search controls", []string{"@SB-05", "@checklist-15", "@checklist-12"}},
	{"module", "module loading by every spelling", []string{"@SB-02", "@checklist-17"}},
	{"cpu", "CPU: loops, finally blocks and host conversions", []string{"@SB-07", "@checklist-18"}},
	{"regex", "catastrophic regular expressions and long built-ins", []string{"@SB-08", "@checklist-18"}},
	{"recursion", "deep and mutual recursion", []string{"@SB-09"}},
	{"memory", "memory bombs", []string{"@SB-10", "@checklist-19"}},
	{"output", "output floods", []string{"@SB-11", "@checklist-20"}},
	{"pending", "pending-call bombs", []string{"@SB-12"}},
	{"snapshot", "snapshot bombs", []string{"@SB-13", "@checklist-20"}},
	{"rejection", "unhandled rejections and false success", []string{"@SB-19"}},
	{"leak", "cross-run and cross-session leakage", []string{"@SB-15"}},
	{"builtin", "one long built-in call that never polls the interrupt handler", []string{"@SB-08", "@checklist-18"}},
	{"source", "source nesting and size before any parser", []string{"@SB-09", "@SB-24"}},
	{"payload", "patched prototypes, deep and oversized values against the payload", []string{"@SB-06", "@SB-11", "@SB-24"}},
	{"clock", "what the guest's clocks reveal", []string{"@SB-16"}},
}

// A HostileProgram is one program of the corpus with its parsed header.
type HostileProgram struct {
	File     string // file name inside HostileDir
	Category string
	Title    string          // the first header line
	Source   string          // the whole file, header included
	Language string          // "javascript" or "typescript"
	Expect   hostileExpect   // from "// expect:"
	Spec     []string        // clause ids from "// spec:"
	Config   json.RawMessage // from "// config:", or nil
	Tools    string          // catalog fixture name from "// tools:" (default "basic")
	Deny     []string        // tool policy entries from "// deny:"
}

// hostileExpect is the outcome a program declares.
type hostileExpect struct {
	Rejected      bool   // rejected before running: failed, phase input, nothing dispatched
	Status        string // completed or failed
	Code          string
	Phase         string
	Value         json.RawMessage // exact, markers allowed
	Output        json.RawMessage // exact output of the final payload, markers allowed
	Error         *string
	ErrorPrefix   []string // any of
	ErrorContains *string
	Waits         int // wait calls the model makes before the final result
}

var (
	hostileNameRE   = regexp.MustCompile(`^([a-z]+)-(\d{2})-[a-z0-9]+(?:-[a-z0-9]+)*\.(js|ts)$`)
	hostileHeaderRE = regexp.MustCompile(`^// ([a-z]+): (.*)$`)
	clauseIDRE      = regexp.MustCompile(`^CM-\d+\.\d+$`)
	errorCodes      = map[string]bool{"invalid_input": true, "runtime_unavailable": true, "timeout": true,
		"output_limit_exceeded": true, "snapshot_limit_exceeded": true, "internal_error": true}
)

// LoadHostilePrograms reads and checks every program of the corpus, in file
// name order.
func LoadHostilePrograms() ([]HostileProgram, error) {
	return loadHostile(fixtures.FS)
}

func loadHostile(fsys fs.FS) ([]HostileProgram, error) {
	entries, err := fs.ReadDir(fsys, HostileDir)
	if err != nil {
		return nil, err
	}
	var out []HostileProgram
	var errs []error
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || name == "README.md" {
			continue
		}
		b, err := fs.ReadFile(fsys, path.Join(HostileDir, name))
		if err != nil {
			return nil, err
		}
		p, err := parseHostile(name, string(b))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, p)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out, nil
}

// loadHostileProgram reads one program of the corpus.
func loadHostileProgram(name string) (HostileProgram, error) {
	b, err := fs.ReadFile(fixtures.FS, path.Join(HostileDir, name))
	if err != nil {
		return HostileProgram{}, fmt.Errorf("hostile program %q: %w", name, err)
	}
	return parseHostile(name, string(b))
}

func categoryOf(prefix string) *hostileCategory {
	for i := range hostileCategories {
		if hostileCategories[i].Prefix == prefix {
			return &hostileCategories[i]
		}
	}
	return nil
}

// parseHostile checks a program's name and parses its header: the leading
// run of "//" lines. The first is the title; "// key: value" lines set
// expect, spec, config, tools and deny; other comment lines are prose.
func parseHostile(name, src string) (HostileProgram, error) {
	fail := func(format string, args ...any) (HostileProgram, error) {
		return HostileProgram{}, fmt.Errorf("hostile program %s: %s", name, fmt.Sprintf(format, args...))
	}
	m := hostileNameRE.FindStringSubmatch(name)
	if m == nil {
		return fail("the name must be <category>-<nn>-<short-name>.js or .ts")
	}
	if categoryOf(m[1]) == nil {
		return fail("unknown category %q", m[1])
	}
	p := HostileProgram{File: name, Category: m[1], Source: src, Language: "javascript", Tools: "basic"}
	if m[3] == "ts" {
		p.Language = "typescript"
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for first := true; sc.Scan(); first = false {
		line := strings.TrimRight(sc.Text(), "\r")
		if !strings.HasPrefix(line, "//") {
			break
		}
		if first {
			p.Title = strings.TrimSpace(strings.TrimPrefix(line, "//"))
			if p.Title == "" || hostileHeaderRE.MatchString(line) {
				return fail("the first line must be a one-line description")
			}
			continue
		}
		hm := hostileHeaderRE.FindStringSubmatch(line)
		if hm == nil {
			continue
		}
		key, val := hm[1], strings.TrimSpace(hm[2])
		switch key {
		case "expect", "spec", "config", "tools", "deny":
		default:
			continue // prose such as "// note: ..."
		}
		if seen[key] {
			return fail("header %q given twice", key)
		}
		seen[key] = true
		var err error
		switch key {
		case "expect":
			p.Expect, err = parseExpect(val)
		case "spec":
			for _, id := range strings.FieldsFunc(val, func(r rune) bool { return r == ',' || r == ' ' }) {
				if !clauseIDRE.MatchString(id) {
					err = fmt.Errorf("spec: %q is not a clause id", id)
					break
				}
				p.Spec = append(p.Spec, id)
			}
		case "config":
			var obj map[string]any
			if err = json.Unmarshal([]byte(val), &obj); err == nil {
				p.Config = json.RawMessage(val)
			} else {
				err = fmt.Errorf("config: want a JSON object: %w", err)
			}
		case "tools":
			p.Tools = val
		case "deny":
			p.Deny = splitList(val)
		}
		if err != nil {
			return fail("%v", err)
		}
	}
	if err := sc.Err(); err != nil {
		return fail("%v", err)
	}
	if !seen["expect"] {
		return fail("no // expect: header")
	}
	if len(p.Spec) == 0 {
		return fail("no // spec: header naming the clauses the outcome follows")
	}
	return p, nil
}

// parseExpect parses "key=value" pairs separated by spaces; a value that
// starts with {, [ or " is one JSON value (it may contain spaces). The
// bare word "rejected" stands for a preparation failure.
func parseExpect(s string) (hostileExpect, error) {
	var e hostileExpect
	rest := strings.TrimSpace(s)
	for rest != "" {
		if word, after, _ := strings.Cut(rest, " "); word == "rejected" {
			e.Rejected, e.Status, e.Phase = true, "failed", "input"
			rest = strings.TrimSpace(after)
			continue
		}
		key, after, ok := strings.Cut(rest, "=")
		if !ok || key == "" || strings.ContainsAny(key, " \t") {
			return e, fmt.Errorf("expect: want key=value at %q", rest)
		}
		var raw string
		if after != "" && strings.ContainsRune("{[\"", rune(after[0])) {
			dec := json.NewDecoder(strings.NewReader(after))
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return e, fmt.Errorf("expect: %s: %w", key, err)
			}
			n := int(dec.InputOffset())
			raw, rest = after[:n], strings.TrimSpace(after[n:])
		} else {
			raw, rest, _ = strings.Cut(after, " ")
			rest = strings.TrimSpace(rest)
		}
		str := func() (*string, error) {
			var v string
			if err := json.Unmarshal([]byte(raw), &v); err != nil {
				return nil, fmt.Errorf("expect: %s: want a JSON string", key)
			}
			return &v, nil
		}
		var err error
		switch key {
		case "status":
			if raw != "completed" && raw != "failed" {
				return e, fmt.Errorf("expect: status must be completed or failed, not %q", raw)
			}
			e.Status = raw
		case "code":
			if !errorCodes[raw] {
				return e, fmt.Errorf("expect: %q is not an error code of SPEC.md CM-19.1", raw)
			}
			e.Code = raw
		case "phase":
			e.Phase = raw
		case "value":
			e.Value = json.RawMessage(raw)
		case "output":
			e.Output = json.RawMessage(raw)
		case "error":
			e.Error, err = str()
		case "errorPrefix":
			if strings.HasPrefix(raw, "[") {
				if err = json.Unmarshal([]byte(raw), &e.ErrorPrefix); err != nil || len(e.ErrorPrefix) == 0 {
					err = fmt.Errorf("expect: errorPrefix: want a JSON string or a non-empty array of strings")
				}
				break
			}
			var p *string
			if p, err = str(); err == nil {
				e.ErrorPrefix = []string{*p}
			}
		case "errorContains":
			e.ErrorContains, err = str()
		case "waits":
			e.Waits, err = strconv.Atoi(raw)
		default:
			return e, fmt.Errorf("expect: unknown key %q", key)
		}
		if err != nil {
			return e, err
		}
	}
	switch {
	case e.Status == "":
		return e, errors.New("expect: want status=completed, status=failed or rejected")
	case e.Status == "completed" && e.Value == nil:
		return e, errors.New("expect: a completed program must declare its value")
	case e.Status == "completed" && (e.Code != "" || e.Error != nil || len(e.ErrorPrefix) > 0 || e.ErrorContains != nil):
		return e, errors.New("expect: a completed program has no code or error")
	case e.Status == "failed" && e.Code == "":
		return e, errors.New("expect: a failed program must declare its code")
	case e.Status == "failed" && e.Value != nil:
		return e, errors.New("expect: a failed program has no value")
	case e.Rejected && e.Waits > 0:
		return e, errors.New("expect: a rejected program never waits")
	}
	return e, nil
}
