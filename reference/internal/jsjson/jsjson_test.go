package jsjson

import "testing"

func TestCanonical(t *testing.T) {
	tests := []struct{ in, want string }{
		{`[1e21, 1E-7, 5000.0, -0, "<&>", "é\u0007\t"]`, `[1e+21,1e-7,5000,0,"<&>","é\u0007\t"]`},
		{`{"b": 1, "a": [true, null]}`, `{"b":1,"a":[true,null]}`},
		{`0.000001`, `0.000001`},
		{`123456789012345678901234`, `1.2345678901234569e+23`},
		{`1.5e300`, `1.5e+300`},
		{`-2.5`, `-2.5`},
		{`100`, `100`},
		{`"\u2028"`, "\"\u2028\""},
	}
	for _, tt := range tests {
		got, err := Canonical([]byte(tt.in))
		if err != nil {
			t.Errorf("Canonical(%s): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Canonical(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
