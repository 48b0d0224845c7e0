package main

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestLiveCounter(t *testing.T) {
	for _, tc := range []struct {
		name   string
		chunks []string
		want   string
	}{
		{
			name: "without a total",
			chunks: []string{
				"passed         a.feature:3 one\n",
				"failed         a.feature:9 two\npassed         b.feature:4 th",
				"ree\n",
				"not-applicable b.feature:8 four\n",
				"seed: 7\n",
			},
			want: "1 scenarios: 1 passed, 0 failed, 0 expected-fail, 0 not applicable" +
				"\r\033[Kfailed         a.feature:9 two\n" +
				"2 scenarios: 1 passed, 1 failed, 0 expected-fail, 0 not applicable" +
				"\r\033[K3 scenarios: 2 passed, 1 failed, 0 expected-fail, 0 not applicable" +
				"\r\033[Knot-applicable b.feature:8 four\n" +
				"4 scenarios: 2 passed, 1 failed, 0 expected-fail, 1 not applicable" +
				"\r\033[Kseed: 7\n",
		},
		{
			name: "with a total, one scenario every 10 s",
			chunks: []string{
				"running 3 scenarios, seed 7\n",
				"passed         a.feature:3 one\n",
				"reason-drift   a.feature:9 two\n",
				"expected-fail  b.feature:4 three\n",
			},
			want: "running 3 scenarios, seed 7\n" +
				"1/3 scenarios: 1 passed, 0 failed, 0 expected-fail, 0 not applicable, about 20s left" +
				"\r\033[Kreason-drift   a.feature:9 two\n" +
				"2/3 scenarios: 1 passed, 1 failed, 0 expected-fail, 0 not applicable, about 10s left" +
				"\r\033[Kexpected-fail  b.feature:4 three\n" +
				"3/3 scenarios: 1 passed, 1 failed, 1 expected-fail, 0 not applicable\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			c := newLiveCounter(&b)
			clock := time.Unix(0, 0)
			c.now = func() time.Time { return clock }
			for _, chunk := range tc.chunks {
				if _, err := c.Write([]byte(chunk)); err != nil {
					t.Fatal(err)
				}
				clock = clock.Add(10 * time.Second)
			}
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, b.String()); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}
