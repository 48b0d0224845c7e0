package conformance

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/cucumber/godog"
)

// registerHost binds the checks of what reached the suite's fake host:
// tool calls and before_tool_call hook events (STEPS.md, "Observations").
func (w *world) registerHost(sc *godog.ScenarioContext) {
	sc.Step(`^the tool "([^"]+)" was called (\d+) times?$`, w.toolCalledTimes)
	sc.Step(`^the tool "([^"]+)" was not called$`, func(n string) error { return w.toolCalledTimes(n, 0) })
	sc.Step(`^the tool "([^"]+)" was last called with:$`, w.toolLastCalledWith)
	sc.Step(`^the held calls of the tool "([^"]+)" are cancelled$`, w.heldCallsCancelled)
	sc.Step(`^a call of the tool "([^"]+)" is held$`, w.callHeld)
	sc.Step(`^the hook saw an event including:$`, w.hookSaw)
}

func (w *world) toolCalledTimes(name string, n int) error {
	if got := len(w.host.Calls(name)); got != n {
		return fmt.Errorf("tool %q was called %d times, want %d", name, got, n)
	}
	return nil
}

// cancelWithin bounds how long a target's cancellation may take to reach a
// held call at the suite's host: over a driver, a gateway or HTTP MCP it
// travels through processes and closed requests.
const cancelWithin = 10 * time.Second

// callHeld waits until a call of the held tool name waits at its gate: a
// leg is in progress inside that call (CM-8.31).
func (w *world) callHeld(name string) error {
	if !w.heldWithin(name, someHeld) {
		return fmt.Errorf("no call of tool %q was held within %v", name, cancelWithin)
	}
	return nil
}

// awaitHeld waits until the number of held calls of tool name satisfies
// want, and reports whether it did before stop. The host wakes it on every
// change of a held count.
func (w *world) awaitHeld(name string, stop <-chan struct{}, want func(held int) bool) bool {
	for {
		n, changed := w.host.WatchHeld(name)
		if want(n) {
			return true
		}
		select {
		case <-stop:
			return false
		case <-changed:
		}
	}
}

// heldWithin is awaitHeld bounded by cancelWithin.
func (w *world) heldWithin(name string, want func(held int) bool) bool {
	ctx, cancel := context.WithTimeout(context.Background(), cancelWithin)
	defer cancel()
	return w.awaitHeld(name, ctx.Done(), want)
}

// someHeld and noneHeld are the held counts awaitHeld waits for.
func someHeld(n int) bool { return n > 0 }
func noneHeld(n int) bool { return n == 0 }

// heldCallsCancelled waits until no call of tool name is waiting at its gate
// any more: every call the target gave up on has been cancelled, before a
// later step releases the tool.
func (w *world) heldCallsCancelled(name string) error {
	if !w.heldWithin(name, noneHeld) {
		return fmt.Errorf("tool %q still has %d held call(s) after %v: the target did not cancel them", name, w.host.Held(name), cancelWithin)
	}
	return nil
}

func (w *world) toolLastCalledWith(name string, d *godog.DocString) error {
	calls := w.host.Calls(name)
	if len(calls) == 0 {
		return fmt.Errorf("tool %q was not called", name)
	}
	want, err := decodeJSON([]byte(d.Content))
	if err != nil {
		return err
	}
	got, err := decodeJSON(calls[len(calls)-1].Input)
	if err != nil {
		return err
	}
	return matchJSON(want, got, true)
}

func (w *world) hookSaw(d *godog.DocString) error {
	want, err := decodeJSON([]byte(d.Content))
	if err != nil {
		return err
	}
	events := w.host.HookEvents()
	for _, e := range events {
		got, err := decodeJSON(e)
		if err == nil && matchJSON(want, got, true) == nil {
			return nil
		}
	}
	all := make([]string, len(events))
	for i, e := range events {
		all[i] = string(e)
	}
	return fmt.Errorf("no hook event matches %s; events:\n%s", show(want), strings.Join(all, "\n"))
}
