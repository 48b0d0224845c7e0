package jsjson

import (
	"math"
	"testing"
)

// point1 is a variable so that point1 + 0.2 is computed in float64, not as
// an exact constant.
var point1 = 0.1

func TestFormatNumber(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{1, "1"},
		{-1, "-1"},
		{-1.5, "-1.5"},
		{0.5, "0.5"},
		{100, "100"},
		{0.1, "0.1"},
		{123.456, "123.456"},
		{0.000001, "0.000001"},
		{0.0000001, "1e-7"},
		{1.25e-7, "1.25e-7"},
		{1.5e-7, "1.5e-7"},
		{1e20, "100000000000000000000"},
		{123456789012345680000, "123456789012345680000"},
		{1e21, "1e+21"},
		{1.5e21, "1.5e+21"},
		{1.5e300, "1.5e+300"},
		{5e-324, "5e-324"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{point1 + 0.2, "0.30000000000000004"},
		{0.30000000000000004, "0.30000000000000004"},
		{1 << 53, "9007199254740992"},
		{999999999999999868928, "999999999999999900000"},
		{math.NaN(), "null"},
		{math.Inf(1), "null"},
		{math.Inf(-1), "null"},
	}
	for _, tt := range tests {
		if got := FormatNumber(tt.in); got != tt.want {
			t.Errorf("FormatNumber(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
