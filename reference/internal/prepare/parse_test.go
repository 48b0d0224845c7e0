package prepare

import "testing"

// TestParsesAsGuest records the esbuild behaviours that the shell rule relies
// on (steps 9 and 10 of SPEC.md section 5.4).
func TestParsesAsGuest(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		want   bool
		reason string
	}{
		{name: "return and await", src: "const r = await f()\nreturn r", want: true},
		{name: "expression of names", src: "ls -la", want: true},
		{name: "names side by side", src: "ls x", want: false},
		{name: "export", src: "export const x = 1", want: false, reason: "not in a function body"},
		{name: "import declaration", src: "import x from 'y'", want: false},
		{name: "await as a name", src: "await = 1", want: false, reason: "the wrapper is async"},
		{name: "sloppy script", src: "with (a) {}\nreturn 08", want: true},
		{name: "strict body", src: "'use strict'; with (a) {}", want: false},
		{name: "JSX", src: "<div/>", want: false},
		{name: "legacy HTML-like comment", src: "x <!-- y\n--> z", want: true, reason: "a warning, not an error"},
		{name: "regexp flags are checked", src: "/a/gg", want: false},
		{name: "regexp patterns are not", src: "/(/", want: true, reason: "an engine would reject it"},
		{name: "break-out", src: "})(); evil(); (async () => {", want: true,
			reason: "the wrapped break-out is a valid script: why Script checks the wrapper first"},

		// Redeclarations, as step 10 uses them.
		{name: "let then var", src: "let N;\nvar N = 1", want: false},
		{name: "let then function", src: "let N;\nfunction N() {}", want: false},
		{name: "let then nested var", src: "let N;\nif (x) { var N }", want: false, reason: "var is hoisted to the function"},
		{name: "let then for var", src: "let N;\nfor (var N of []) {}", want: false},
		{name: "let then let", src: "let N;\nlet N", want: false},
		{name: "let then class", src: "let N;\nclass N {}", want: false},
		{name: "let then block function", src: "let N;\n{ function N() {} }", want: true,
			reason: "a function in a block is not hoisted past a conflicting let (Annex B.3.3)"},
		{name: "var then var", src: "var N;\nvar N = 1", want: true},
		{name: "var then function", src: "var N;\nfunction N() {}", want: true},
		{name: "var then let", src: "var N;\nlet N", want: false},
		{name: "let then use", src: "let N;\nN -la", want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parsesAsGuest(tt.src); got != tt.want {
				t.Errorf("parsesAsGuest(%q) = %v, want %v\nreason: %s", tt.src, got, tt.want, tt.reason)
			}
		})
	}
}
