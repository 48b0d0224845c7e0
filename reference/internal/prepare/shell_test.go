package prepare

import (
	"strings"
	"testing"
)

// shellTests are the shell-rule cases; FuzzIsShellLike and FuzzScript use
// their sources as seeds. A case runs IsShellLike(src, prepared), where
// prepared is src for JavaScript and the body of the transformed function
// for TypeScript, and checks the answer and the step of SPEC.md section 5.4
// that gave it. Cases marked "flipped" answered the other way under the
// heuristic rule this procedure replaced.
var shellTests = []struct {
	name   string
	src    string
	lang   Language
	want   bool
	step   int
	reason string
}{
	// SPEC.md CM-5.21: classified as shell.
	{name: "CM-5.21 #! prefix", src: "#!/bin/sh\nls", want: true, step: 1},
	{name: "CM-5.21 if [", src: "if [ -f x ]; then echo y; fi", want: true, step: 3},
	{name: "CM-5.21 for x in", src: "for x in a b; do echo $x; done", want: true, step: 3},
	{name: "CM-5.21 case … in", src: "case \"$1\" in\n  a) echo a;;\nesac", want: true, step: 3},
	{name: "CM-5.21 function f {", src: "function f {\n  echo hi\n}", want: true, step: 3},
	{name: "CM-5.21 VAR=value then a command", src: "NODE_ENV=production npm run build", want: true, step: 9},
	{name: "CM-5.21 known command", src: "ls -la /tmp", want: true, step: 12},
	{name: "CM-5.21 /bin/ prefix", src: "/bin/ls -la /tmp", want: true, step: 9},
	{name: "CM-5.21 /usr/bin/ prefix", src: "/usr/bin/ls -la /tmp", want: true, step: 9},
	{name: "CM-5.21 /usr/local/bin/ prefix", src: "/usr/local/bin/ls -la /tmp", want: true, step: 9},
	{name: "CM-5.21 executable path with arguments", src: "./configure --prefix=/usr", want: true, step: 9},

	// SPEC.md CM-5.20: classified as not shell.
	{name: "CM-5.20 export const", src: "export const x = 1", want: false, step: 2},
	{name: "CM-5.20 export {", src: "export { a }", want: false, step: 2},
	{name: "CM-5.20 export interface", src: "export interface X {}", want: false, step: 2},
	{name: "CM-5.20 export enum", src: "export enum E {}", want: false, step: 2},
	{name: "CM-5.20 declared function named like a command", src: "date\nfunction date() { return 1 }", want: false, step: 10,
		reason: "without step 10 the line break after date would make it shell (step 11)"},
	{name: "CM-5.20 var named like a command", src: "test && run()\nvar test = true", want: false, step: 10},
	{name: "CM-5.20 declared variable used later", src: "const ls = [1]\nreturn ls", want: false, step: 6},
	{name: "CM-5.20 typescript var named like a command", src: "sort;\nvar sort: number = 1", lang: TypeScript, want: false, step: 10,
		reason: "prepared is the transformed body, where var sort is at the top of the function"},

	// One case per step and outcome.
	{name: "step 1 after blanks", src: "\n  #!/usr/bin/env node\nconsole.log(1)", want: true, step: 1},
	{name: "step 2 only comments", src: "// nothing\n/* here */\n# either", want: false, step: 2},
	{name: "step 2 export after comments", src: "// a module\nexport default 1", want: false, step: 2},
	{name: "step 3 elif", src: "elif [[ -z x ]]", want: true, step: 3},
	{name: "step 3 while with a name", src: "while read line; do echo; done", want: true, step: 3},
	{name: "step 3 arithmetic for", src: "for ((i = 0; i < 3; i++)); do echo; done", want: true, step: 3},
	{name: "step 4 quoted assignments", src: "A='x y' B=\"z \\\" w\" make", want: true, step: 8},
	{name: "step 4 assignment on its own line", src: "A=1\nls", want: true, step: 8},
	{name: "step 5 keyword is no command", src: "await tools.search(\"x\")", want: false, step: 6},
	{name: "step 5 global is no command", src: "console .log(1)", want: false, step: 6,
		reason: "console matches SHELL_IDENTIFIER but is a JavaScript global"},
	{name: "step 6 no command", src: "const x = 1\nreturn x", want: false, step: 6},
	{name: "step 8 unknown name alone", src: "result", want: false, step: 8},
	{name: "step 8 known name alone after comments", src: "// go\npwd", want: true, step: 8},
	{name: "step 9 executable path alone", src: "./run.sh", want: true, step: 9},
	{name: "step 9 windows path", src: `C:\tools\x.exe /all`, want: true, step: 9},
	{name: "step 10 let is not hoisted", src: "date\nlet date = 1", want: true, step: 11,
		reason: "let date conflicts with both let and var, so it is not a hoisted binding"},
	{name: "step 11 pipe", src: "ps | wc", want: true, step: 11},
	{name: "step 11 unknown command then separator", src: "fetchAll;\nreturn 1", want: false, step: 11},
	{name: "step 12 no command", src: "/x/g", want: false, step: 12,
		reason: "an executable path that parses: a regular expression"},
	{name: "step 12 jq filter", src: "jq .name", want: true, step: 12},
	{name: "step 12 jq member", src: "jq.name", want: false, step: 6},
	{name: "step 12 unknown command with argument", src: "deploy -f", want: true, step: 12},
	{name: "step 9 unknown command with argument", src: "deploy --force", want: true, step: 9,
		reason: "deploy-- force does not parse"},
	{name: "step 12 unknown command with redirection", src: "total > 1", want: false, step: 12,
		reason: "redirections count only after a known command"},
	{name: "step 12 known command with redirection", src: "wc > 1", want: true, step: 12},
	{name: "step 12 nothing shell-like", src: "ls = 1", want: false, step: 12},

	// Cases of the earlier heuristic rule that the procedure keeps.
	{name: "ls with flags and path", src: "ls -la /tmp", want: true, step: 12},
	{name: "cat a file", src: "cat README.md", want: true, step: 9},
	{name: "echo words", src: "echo hello world", want: true, step: 9},
	{name: "echo a string", src: `echo "hi"`, want: true, step: 9},
	{name: "echo a variable", src: "echo $HOME", want: true, step: 9},
	{name: "git status", src: "git status", want: true, step: 9},
	{name: "git flag", src: "git log --oneline", want: true, step: 9},
	{name: "npm install", src: "npm install", want: true, step: 9},
	{name: "grep recursive", src: "grep -r foo .", want: true, step: 9},
	{name: "cd and ls", src: "cd /tmp && ls", want: true, step: 12},
	{name: "curl", src: "curl https://x", want: true, step: 9},
	{name: "python script", src: "python3 script.py", want: true, step: 9},
	{name: "env assignment", src: "FOO=bar node x.js", want: true, step: 9},
	{name: "env assignments", src: `A=1 B="two words" make test`, want: true, step: 9},
	{name: "bin path", src: "/bin/ls -la", want: true, step: 9},
	{name: "usr bin env", src: "/usr/bin/env node x.js", want: true, step: 9},
	{name: "absolute executable", src: "/opt/x/bin/tool --flag", want: true, step: 9},
	{name: "relative executable", src: "./gradlew build", want: true, step: 9},
	{name: "bare ls", src: "ls", want: true, step: 8},
	{name: "bare pwd", src: "pwd\n", want: true, step: 8},
	{name: "bare make after blank lines", src: "\n\n  make", want: true, step: 8},
	{name: "command with semicolon", src: "ls; pwd", want: true, step: 11},
	{name: "and between commands", src: "ls && pwd", want: true, step: 11},
	{name: "export variable", src: "export PATH=/x", want: true, step: 9},
	{name: "powershell", src: "Get-ChildItem -Path .", want: true, step: 9},
	{name: "powershell any case", src: "get-content notes.txt", want: true, step: 9},
	{name: "shebang", src: "#!/bin/bash\necho hi", want: true, step: 1},
	{name: "shebang after blanks", src: "\n  #!/usr/bin/env node\nconsole.log(1)", want: true, step: 1},
	{name: "if test", src: "if [ -f x ]; then echo y; fi", want: true, step: 3},
	{name: "if double bracket", src: "if [[ $x == 1 ]]; then\n  echo one\nfi", want: true, step: 3},
	{name: "for in loop", src: "for f in *.txt; do echo $f; done", want: true, step: 3},
	{name: "while loop", src: "while true; do sleep 1; done", want: true, step: 3},
	{name: "until loop", src: "until false; do\n  sleep 1\ndone", want: true, step: 3},
	{name: "case", src: "case $x in\n  a) echo a;;\nesac", want: true, step: 3},
	{name: "function without parens", src: "function greet {\n  echo hi\n}", want: true, step: 3},
	{name: "do and done lines", src: "x=1\nfor_each\ndo\n  y\ndone", want: true, step: 9},
	{name: "pipe", src: "ls -la | grep foo", want: true, step: 9},
	{name: "pipe between commands", src: "ls | wc", want: true, step: 11},
	{name: "redirection", src: "echo hi > out.txt", want: true, step: 9},
	{name: "attached redirection", src: "ls>files.txt", want: true, step: 12},
	{name: "stderr redirection", src: "npm test 2>&1", want: true, step: 9},
	{name: "here-document", src: "cat <<EOF\nhi\nEOF", want: true, step: 12},
	{name: "glob", src: "rm *.log", want: true, step: 9},
	{name: "sudo", src: "sudo apt-get install -y jq", want: true, step: 9},
	{name: "docker", src: "docker ps", want: true, step: 9},
	{name: "kubectl", src: "kubectl get pods", want: true, step: 9},
	{name: "shell comment first", src: "# list files\nls -la", want: true, step: 9},
	{name: "js comment first", src: "// list files\nls -la", want: true, step: 12},
	{name: "windows type", src: "type file.txt", want: true, step: 9},
	{name: "dir with switch", src: "dir /s", want: true, step: 12},
	{name: "tail follow", src: "tail -f log.txt", want: true, step: 9},
	{name: "kill number", src: "kill 123", want: true, step: 9},
	{name: "echo call", src: `echo("hi")`, want: false, step: 6},
	{name: "echo call with space", src: `echo ("hi")`, want: false, step: 12},
	{name: "cat member", src: "cat.name", want: false, step: 6},
	{name: "ls assignment", src: "ls = 1", want: false, step: 12},
	{name: "find arrow", src: "find(x => x)", want: false, step: 6},
	{name: "find arrow with minus", src: "find (x => x -y)", want: false, step: 12},
	{name: "return echo", src: "return echo;", want: false, step: 6},
	{name: "git member call", src: "git.status()", want: false, step: 6},
	{name: "sort comparator", src: "sort((a, b) => a - b)", want: false, step: 6},
	{name: "env member", src: "env.HOME", want: false, step: 6},
	{name: "optional member", src: "node?.x", want: false, step: 6},
	{name: "conditional", src: "cat ? a : b", want: false, step: 12},
	{name: "in operator", src: `env in process`, want: false, step: 12},
	{name: "export braces", src: "export { a }", want: false, step: 2},
	{name: "export default", src: "export default 1", want: false, step: 2},
	{name: "type alias in typescript", src: "type X = string\nreturn 1 as X", lang: TypeScript, want: false, step: 12,
		reason: "the transformed body, return 1, parses; X = … is no shell argument"},
	{name: "generic type alias in typescript", src: "type Pair<T> = [T, T]", lang: TypeScript, want: false, step: 12},
	{name: "assignment", src: "FOO = bar", want: false, step: 12},
	{name: "assignment of await", src: `X=await tools.search("x")`, want: false, step: 6},
	{name: "assignment of instanceof", src: "X=a instanceof B", want: false, step: 6},
	{name: "assignment then comment", src: "X=a // note", want: false, step: 12},
	{name: "comment then program", src: "// list files\nconst r = await tools.callValue(\"ls\", {})\nreturn r", want: false, step: 6},
	{name: "block comment then program", src: "/* ls -la */ return 1", want: false, step: 6},
	{name: "shell in a string", src: `const r = await tools.callValue("exec", { command: "ls -la" })`, want: false, step: 6},
	{name: "shell in a template", src: "const s = `\nif [ -f x ]; then\n  ls -la\nfi\n`\nreturn s", want: false, step: 6},
	{name: "shell in a block comment", src: "/*\nfor f in *; do\ndone\n*/\nreturn 1", want: false, step: 6},
	{name: "for of", src: "for (const x of xs) {}", want: false, step: 6},
	{name: "for await", src: "for await (const x of xs) {}", want: false, step: 6},
	{name: "if statement", src: "if (x) {\n  return 1\n}", want: false, step: 6},
	{name: "while statement", src: "while (i < 3) i++", want: false, step: 6},
	{name: "do while", src: "do {\n  i++\n} while (i < 3)", want: false, step: 6},
	{name: "switch case", src: "switch (x) {\ncase 1: return 'a'\n}", want: false, step: 6},
	{name: "function declaration", src: "function greet(name) {\n  return name\n}", want: false, step: 6},
	{name: "done variable", src: "const done = true\ndone", want: false, step: 6},
	{name: "return template", src: "return `ls -la`", want: false, step: 6},
	{name: "js fence", src: "```js\nreturn 1\n```", want: false, step: 6},
	{name: "use strict", src: "\"use strict\"\nreturn 1", want: false, step: 6},
	{name: "empty", src: "", want: false, step: 2},

	// Cases of the earlier heuristic rule that the procedure answers the
	// other way.
	{name: "fi line", src: "[ -f x ] && cat x\nfi", want: false, step: 6,
		reason: "flipped: '[' starts no command; the guest reports a SyntaxError"},
	{name: "bash fence", src: "```bash\nls\n```", want: false, step: 6,
		reason: "flipped: a Markdown fence starts no command; the guest reports a SyntaxError"},
	{name: "sh fence", src: "```sh\ngit status\n```", want: false, step: 6, reason: "flipped, as bash fence"},
	{name: "fence without language", src: "```\nls -la\n```", want: false, step: 6, reason: "flipped, as bash fence"},
	{name: "unclosed shell fence", src: "```shell\nnpm test", want: false, step: 6, reason: "flipped, as bash fence"},
	{name: "prompt", src: "$ npm install", want: false, step: 6,
		reason: "flipped: '$' starts no command; the guest reports a SyntaxError"},
	{name: "generic call", src: "head<T>(x)", want: true, step: 12,
		reason: "flipped: as JavaScript it parses as head < T > x, and '<' after a known command is a redirection"},
	{name: "generic call in typescript", src: "head<T>(x)", lang: TypeScript, want: true, step: 12,
		reason: "flipped: command detection reads the source, so '<' is still a redirection"},
	{name: "comparison", src: "ls >= 1", want: true, step: 12,
		reason: "flipped: '>' after a known command is a redirection"},
	{name: "method chain on next line", src: "ls\n  .filter(Boolean)", want: true, step: 11,
		reason: "flipped: a line break right after a known command is a separator"},
	{name: "type alias", src: "type X = string\nreturn 1 as X", want: true, step: 9,
		reason: "flipped: as JavaScript it does not parse and type is a known command; as TypeScript it is allowed"},
	{name: "generic type alias", src: "type Pair<T> = [T, T]", want: true, step: 9,
		reason: "flipped, as type alias"},
	{name: "unknown command words", src: "foo bar", want: true, step: 9,
		reason: "flipped: foo is a command name that is not JavaScript's, and the source does not parse"},
}

// preparedFor returns what Script passes to IsShellLike as prepared: src for
// JavaScript, the body of the transformed function for TypeScript.
func preparedFor(t *testing.T, src string, lang Language) string {
	t.Helper()
	if lang != TypeScript {
		return src
	}
	_, body, f := transpile(src)
	if f != nil {
		t.Fatalf("transpile(%q) failed: %v", src, f)
	}
	return body
}

func TestIsShellLike(t *testing.T) {
	flagged, allowed := 0, 0
	for _, tt := range shellTests {
		if tt.want {
			flagged++
		} else {
			allowed++
		}
		t.Run(tt.name, func(t *testing.T) {
			prepared := preparedFor(t, tt.src, tt.lang)
			if got := IsShellLike(tt.src, prepared); got != tt.want {
				t.Errorf("IsShellLike(%q, %q) = %v, want %v\nreason: %s", tt.src, prepared, got, tt.want, tt.reason)
			}
			if _, step := classifyShell(tt.src, prepared); step != tt.step {
				t.Errorf("classifyShell(%q, %q) answered at step %d, want %d\nreason: %s", tt.src, prepared, step, tt.step, tt.reason)
			}
		})
	}
	if flagged < 25 || allowed < 25 {
		t.Errorf("shellTests has %d flagged and %d allowed cases, want at least 25 of each", flagged, allowed)
	}
}

// TestIsShellLike_prepared shows that steps 1 to 8 read only the source and
// steps 9 and 10 only prepared.
func TestIsShellLike_prepared(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		prepared string
		want     bool
	}{
		{name: "command alone ignores prepared", src: "ls", prepared: "this does not parse", want: true},
		{name: "no command ignores prepared", src: "return 1", prepared: "ls -la", want: false},
		{name: "prepared that does not parse", src: "ls x", prepared: "ls x", want: true},
		{name: "prepared that parses", src: "ls x", prepared: "ls", want: false},
		{name: "hoisting read from prepared", src: "ls;", prepared: "ls;\nvar ls", want: false},
		{name: "separator read from the source", src: "ls;", prepared: "ls", want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsShellLike(tt.src, tt.prepared); got != tt.want {
				t.Errorf("IsShellLike(%q, %q) = %v, want %v", tt.src, tt.prepared, got, tt.want)
			}
		})
	}
}

func FuzzIsShellLike(f *testing.F) {
	for _, tt := range shellTests {
		f.Add(tt.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		got, step := classifyShell(src, src)
		if step < 1 || step > 12 {
			t.Fatalf("classifyShell(%q) answered at step %d", src, step)
		}
		// Leading and trailing white space change nothing, and a #! line
		// is always shell.
		if again := IsShellLike("\n \t"+src+"\n", "\n \t"+src+"\n"); again != got {
			t.Errorf("IsShellLike(%q) = %v, but %v with blank lines around it", src, got, again)
		}
		if !IsShellLike("#!"+src, src) {
			t.Errorf("IsShellLike(%q) = false, want true", "#!"+src)
		}
		// A source that is not shell before step 9 never asks the parser.
		if step < 9 && !strings.HasPrefix(strings.TrimFunc(src, isJSSpace), "#!") {
			if again, _ := classifyShell(src, "this does not parse !"); again != got {
				t.Errorf("IsShellLike(%q) depends on prepared before step 9", src)
			}
		}
	})
}
