package mutation

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMutant_Apply(t *testing.T) {
	src := "package p\n\nfunc f(a, b int) bool {\n\tif a < b && b != 0 {\n\t\ta++\n\t}\n\treturn -a+b >= 1\n}\n"
	tests := []struct {
		name    string
		m       Mutant
		want    string
		wantErr bool
	}{
		{name: "boundary", m: Mutant{Line: 4, Column: 7, Type: "CONDITIONALS_BOUNDARY"},
			want: "package p\n\nfunc f(a, b int) bool {\n\tif a <= b && b != 0 {\n\t\ta++\n\t}\n\treturn -a+b >= 1\n}\n"},
		{name: "negation", m: Mutant{Line: 4, Column: 16, Type: "CONDITIONALS_NEGATION"},
			want: "package p\n\nfunc f(a, b int) bool {\n\tif a < b && b == 0 {\n\t\ta++\n\t}\n\treturn -a+b >= 1\n}\n"},
		{name: "logical", m: Mutant{Line: 4, Column: 11, Type: "INVERT_LOGICAL"},
			want: "package p\n\nfunc f(a, b int) bool {\n\tif a < b || b != 0 {\n\t\ta++\n\t}\n\treturn -a+b >= 1\n}\n"},
		{name: "increment", m: Mutant{Line: 5, Column: 4, Type: "INCREMENT_DECREMENT"},
			want: "package p\n\nfunc f(a, b int) bool {\n\tif a < b && b != 0 {\n\t\ta--\n\t}\n\treturn -a+b >= 1\n}\n"},
		{name: "negative", m: Mutant{Line: 7, Column: 9, Type: "INVERT_NEGATIVES"},
			want: "package p\n\nfunc f(a, b int) bool {\n\tif a < b && b != 0 {\n\t\ta++\n\t}\n\treturn +a+b >= 1\n}\n"},
		{name: "arithmetic", m: Mutant{Line: 7, Column: 11, Type: "ARITHMETIC_BASE"},
			want: "package p\n\nfunc f(a, b int) bool {\n\tif a < b && b != 0 {\n\t\ta++\n\t}\n\treturn -a-b >= 1\n}\n"},
		{name: "no token there", m: Mutant{Line: 4, Column: 8, Type: "CONDITIONALS_BOUNDARY"}, wantErr: true},
		{name: "wrong token", m: Mutant{Line: 4, Column: 11, Type: "CONDITIONALS_BOUNDARY"}, wantErr: true},
		{name: "unknown type", m: Mutant{Line: 4, Column: 7, Type: "INVERT_LOOPCTRL"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.m.File = "p.go"
			got, err := tt.m.Apply([]byte(src))
			if (err != nil) != tt.wantErr {
				t.Fatalf("Apply error = %v, want error %v", err, tt.wantErr)
			}
			if err == nil {
				if diff := cmp.Diff(tt.want, string(got)); diff != "" {
					t.Errorf("Apply (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestSample(t *testing.T) {
	var all []Mutant
	for _, p := range []string{"a", "b", "c"} {
		for i := 1; i <= 5; i++ {
			all = append(all, Mutant{Package: p, File: "x.go", Line: i, Column: 1, Type: "ARITHMETIC_BASE"})
		}
	}
	all = append(all, Mutant{Package: "d", File: "x.go", Line: 1, Column: 1, Type: "ARITHMETIC_BASE"})
	got := Sample(all, 7, 42)
	if diff := cmp.Diff(got, Sample(all, 7, 42)); diff != "" {
		t.Errorf("Sample is not deterministic for a seed (-first +second):\n%s", diff)
	}
	per := map[string]int{}
	for _, m := range got {
		per[m.Package]++
	}
	if diff := cmp.Diff(map[string]int{"a": 2, "b": 2, "c": 2, "d": 1}, per); diff != "" {
		t.Errorf("Sample spread (-want +got):\n%s", diff)
	}
	if n := len(Sample(all, 100, 1)); n != len(all) {
		t.Errorf("Sample of more than there are = %d mutants, want all %d", n, len(all))
	}
}

func TestTally(t *testing.T) {
	m := func(line int) Mutant {
		return Mutant{Package: "p", File: "x.go", Line: line, Column: 1, Type: "ARITHMETIC_BASE"}
	}
	results := []Result{
		{Mutant: m(1), Outcome: Killed}, {Mutant: m(2), Outcome: TimedOut}, {Mutant: m(3), Outcome: Lived},
		{Mutant: m(4), Outcome: Lived}, {Mutant: m(5), Outcome: NotViable},
	}
	eq, err := ParseEquivalents([]byte("# equivalent\n" + m(4).ID() + " :: the branch is unreachable\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := Tally(results, eq)
	if diff := cmp.Diff(Score{Killed: 2, Lived: 1, Equivalent: 1, NotViable: 1}, got); diff != "" {
		t.Errorf("Tally (-want +got):\n%s", diff)
	}
	if p := got.Percent(); p < 66.6 || p > 66.7 {
		t.Errorf("Percent = %v, want 66.7", p)
	}
	if _, err := ParseEquivalents([]byte("no reason here\n")); err == nil {
		t.Error("ParseEquivalents accepted a line without a reason")
	}
}
