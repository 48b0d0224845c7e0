package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLiveCounter(t *testing.T) {
	var b strings.Builder
	c := newLiveCounter(&b)
	for _, chunk := range []string{
		"passed         a.feature:3 one\n",
		"failed         a.feature:9 two\npassed         b.feature:4 th",
		"ree\n",
		"not-applicable b.feature:8 four\n",
		"seed: 7\n",
	} {
		if _, err := c.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	want := "1 scenarios: 1 passed, 0 failed, 0 not applicable" +
		"\r\033[Kfailed         a.feature:9 two\n" +
		"2 scenarios: 1 passed, 1 failed, 0 not applicable" +
		"\r\033[K3 scenarios: 2 passed, 1 failed, 0 not applicable" +
		"\r\033[Knot-applicable b.feature:8 four\n" +
		"4 scenarios: 2 passed, 1 failed, 1 not applicable" +
		"\r\033[Kseed: 7\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}
