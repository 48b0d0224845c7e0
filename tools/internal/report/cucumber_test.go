package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/codemodekit/kit/conformance"
)

// checkCucumberJSON checks b against the rules of the Cucumber JSON schema
// (github.com/cucumber/cucumber-json-schema, schema.json), which report
// tools rely on: an array of features, each with a name and a uri; every
// element with a type, a line and a name; every step with a keyword and a
// line and a result whose status is one of Cucumber's, with an error
// message when it failed; every tag named "@...". It returns every
// violation.
func checkCucumberJSON(b []byte) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	var features []map[string]json.RawMessage
	if err := json.Unmarshal(b, &features); err != nil {
		return []string{"not an array of objects: " + err.Error()}
	}
	str := func(m map[string]json.RawMessage, key string) (string, bool) {
		var s string
		raw, ok := m[key]
		return s, ok && json.Unmarshal(raw, &s) == nil
	}
	integer := func(m map[string]json.RawMessage, key string) bool {
		var n int64
		raw, ok := m[key]
		return ok && json.Unmarshal(raw, &n) == nil
	}
	tagName := regexp.MustCompile(`^@`)
	statuses := []string{"passed", "failed", "undefined", "skipped", "pending", "ambiguous"}
	checkTags := func(where string, m map[string]json.RawMessage) {
		var tags []map[string]json.RawMessage
		if raw, ok := m["tags"]; ok && json.Unmarshal(raw, &tags) != nil {
			bad("%s: tags are not an array of objects", where)
		}
		for _, t := range tags {
			if name, ok := str(t, "name"); !ok || !tagName.MatchString(name) {
				bad("%s: tag without an @name", where)
			}
		}
	}
	for i, f := range features {
		where := fmt.Sprintf("feature %d", i)
		for _, key := range []string{"name", "uri"} {
			if _, ok := str(f, key); !ok {
				bad("%s: no string %s", where, key)
			}
		}
		checkTags(where, f)
		var elements []map[string]json.RawMessage
		if raw, ok := f["elements"]; ok && json.Unmarshal(raw, &elements) != nil {
			bad("%s: elements are not an array of objects", where)
		}
		for j, el := range elements {
			where := fmt.Sprintf("feature %d element %d", i, j)
			for _, key := range []string{"type", "name"} {
				if _, ok := str(el, key); !ok {
					bad("%s: no string %s", where, key)
				}
			}
			if !integer(el, "line") {
				bad("%s: no integer line", where)
			}
			checkTags(where, el)
			var steps []map[string]json.RawMessage
			if raw, ok := el["steps"]; ok && json.Unmarshal(raw, &steps) != nil {
				bad("%s: steps are not an array of objects", where)
			}
			for k, st := range steps {
				where := fmt.Sprintf("feature %d element %d step %d", i, j, k)
				if _, ok := str(st, "keyword"); !ok {
					bad("%s: no keyword", where)
				}
				if !integer(st, "line") {
					bad("%s: no integer line", where)
				}
				var res map[string]json.RawMessage
				if raw, ok := st["result"]; ok {
					if json.Unmarshal(raw, &res) != nil {
						bad("%s: result is not an object", where)
						continue
					}
					status, ok := str(res, "status")
					if !ok || !slices.Contains(statuses, status) {
						bad("%s: status %q is not Cucumber's", where, status)
					}
					if status == "failed" {
						if _, ok := str(res, "error_message"); !ok {
							bad("%s: failed without an error_message", where)
						}
					}
				}
			}
		}
	}
	return problems
}

// TestCucumber_schema checks the cucumber JSON of a report with every
// status against the Cucumber JSON schema's rules, and that the checker
// finds what breaks them.
func TestCucumber_schema(t *testing.T) {
	var b bytes.Buffer
	r := sample()
	r.Results = append(r.Results, conformance.Result{Feature: "01-exec.feature", Line: 50, Name: "no steps", Status: conformance.StatusFailed, Error: "boom"},
		conformance.Result{Feature: "01-exec.feature", Line: 60, Name: "failed step without error", Status: conformance.StatusFailed,
			Steps: []conformance.StepResult{{Keyword: "Then ", Text: "x", Line: 61, Status: "failed"}}})
	if err := Cucumber(&b, r); err != nil {
		t.Fatal(err)
	}
	if problems := checkCucumberJSON(b.Bytes()); len(problems) > 0 {
		t.Errorf("cucumber.json breaks the schema:\n%q", problems)
	}
	for _, bad := range []string{
		`{}`,
		`[{"uri": "a"}]`,
		`[{"uri": "a", "name": "A", "elements": [{"type": "scenario", "name": "s"}]}]`,
		`[{"uri": "a", "name": "A", "elements": [{"type": "scenario", "name": "s", "line": 1, "steps": [{"line": 2, "keyword": "Then ", "result": {"status": "expected-fail"}}]}]}]`,
		`[{"uri": "a", "name": "A", "elements": [{"type": "scenario", "name": "s", "line": 1, "steps": [{"line": 2, "keyword": "Then ", "result": {"status": "failed"}}]}]}]`,
		`[{"uri": "a", "name": "A", "elements": [{"type": "scenario", "name": "s", "line": 1, "tags": [{"name": "core"}]}]}]`,
	} {
		if len(checkCucumberJSON([]byte(bad))) == 0 {
			t.Errorf("the checker accepts %s", bad)
		}
	}
}
