package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/cucumber/godog"
)

// registerCalls binds the steps of the model's tool calls, one at a time,
// and those that release what the fake host holds meanwhile (STEPS.md,
// "Model calls").
func (w *world) registerCalls(sc *godog.ScenarioContext) {
	sc.Step(`^the model calls exec with:$`, func(d *godog.DocString) error { return w.exec(map[string]any{"code": d.Content}) })
	sc.Step(`^the model calls exec with "([^"]*)" repeated (\d+) times, then:$`, func(unit string, n int, d *godog.DocString) error {
		return w.exec(map[string]any{"code": strings.Repeat(unit, n) + d.Content})
	})
	sc.Step(`^the model calls exec in typescript with:$`, func(d *godog.DocString) error {
		return w.exec(map[string]any{"code": d.Content, "language": "typescript"})
	})
	sc.Step(`^the model calls exec restart-safe with:$`, func(d *godog.DocString) error {
		return w.exec(map[string]any{"code": d.Content, "restartSafe": true})
	})
	sc.Step(`^the model calls exec with arguments:$`, w.execArgs)
	sc.Step(`^the model calls exec with tool call id "([^"]*)":$`, w.execWithID)
	sc.Step(`^the model calls wait with run id arguments:$`, w.waitRunIDArgs)
	sc.Step(`^the model calls wait$`, w.waitLatest)
	sc.Step(`^the model calls wait with arguments:$`, w.waitArgs)
	sc.Step(`^the model calls "([^"]+)" with:$`, w.callTool)
	sc.Step(`^the model calls "([^"]+)" with tool call id "([^"]*)":$`, w.callToolWithID)
	sc.Step(`^the tool "([^"]+)" is released$`, func(name string) error { w.host.Release(name); return nil })
	sc.Step(`^approval for "([^"]+)" is released as (granted|denied)$`, func(name, d string) error {
		w.host.Decide(name, d == "granted")
		return nil
	})
	sc.Step(`^(\d+) ms pass$`, func(n int) error { time.Sleep(time.Duration(n) * time.Millisecond); return nil })
}

func (w *world) exec(args map[string]any) error {
	b, err := json.Marshal(args)
	if err != nil {
		return err
	}
	_, err = w.call("exec", b)
	return err
}

func (w *world) execArgs(d *godog.DocString) error {
	if _, err := parseDoc(d.Content); err != nil {
		return err
	}
	_, err := w.call("exec", json.RawMessage(d.Content))
	return err
}

func (w *world) waitLatest() error {
	b, err := w.waitLatestArgs()
	if err != nil {
		return err
	}
	_, err = w.call("wait", b)
	return err
}

// waitLatestArgs returns the arguments of a wait for the latest waiting
// run, and notes its run id as the latest one waited for.
func (w *world) waitLatestArgs() (json.RawMessage, error) {
	id, err := w.latestRunID()
	if err != nil {
		return nil, err
	}
	w.lastWaitID = id
	b, _ := json.Marshal(map[string]string{"runId": id})
	return b, nil
}

func (w *world) waitArgs(d *godog.DocString) error {
	if _, err := parseDoc(d.Content); err != nil {
		return err
	}
	var a struct {
		RunID string `json:"runId"`
	}
	_ = json.Unmarshal([]byte(d.Content), &a)
	w.lastWaitID = a.RunID
	_, err := w.call("wait", json.RawMessage(d.Content))
	return err
}

func (w *world) callTool(name string, d *godog.DocString) error {
	if _, err := parseDoc(d.Content); err != nil {
		return err
	}
	_, err := w.call(name, json.RawMessage(d.Content))
	return err
}

func (w *world) callToolWithID(name, id string, d *godog.DocString) error {
	if _, err := parseDoc(d.Content); err != nil {
		return err
	}
	_, err := w.callWithID(id, name, json.RawMessage(d.Content))
	return err
}

func (w *world) execWithID(id string, d *godog.DocString) error {
	b, _ := json.Marshal(map[string]string{"code": d.Content})
	_, err := w.callWithID(id, "exec", b)
	return err
}

var runIDRefRE = regexp.MustCompile(`<run-id:(latest|\d+)>`)

// waitRunIDArgs substitutes <run-id:latest> and <run-id:N> (the Nth waiting
// result's run id, from 1) in the docstring, then calls wait with it.
func (w *world) waitRunIDArgs(d *godog.DocString) error {
	var bad error
	content := runIDRefRE.ReplaceAllStringFunc(d.Content, func(m string) string {
		ref := runIDRefRE.FindStringSubmatch(m)[1]
		if len(w.waitingIDs) == 0 {
			bad = errors.New("no waiting result has a runId yet")
			return m
		}
		if ref == "latest" {
			return w.waitingIDs[len(w.waitingIDs)-1]
		}
		n, _ := strconv.Atoi(ref)
		if n < 1 || n > len(w.waitingIDs) {
			bad = fmt.Errorf("there is no waiting result number %d", n)
			return m
		}
		return w.waitingIDs[n-1]
	})
	if bad != nil {
		return bad
	}
	return w.waitArgs(&godog.DocString{Content: content})
}
