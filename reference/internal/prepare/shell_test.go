package prepare

import "testing"

// shellTests are the shell-rule cases; FuzzIsShellLike and FuzzScript use
// their sources as seeds.
var shellTests = []struct {
	name   string
	src    string
	want   bool
	reason string
}{
	// Flagged.
	{name: "ls with flags and path", src: "ls -la /tmp", want: true},
	{name: "cat a file", src: "cat README.md", want: true},
	{name: "echo words", src: "echo hello world", want: true},
	{name: "echo a string", src: `echo "hi"`, want: true},
	{name: "echo a variable", src: "echo $HOME", want: true},
	{name: "git status", src: "git status", want: true},
	{name: "git flag", src: "git log --oneline", want: true},
	{name: "npm install", src: "npm install", want: true},
	{name: "grep recursive", src: "grep -r foo .", want: true},
	{name: "cd and ls", src: "cd /tmp && ls", want: true},
	{name: "curl", src: "curl https://x", want: true},
	{name: "python script", src: "python3 script.py", want: true},
	{name: "env assignment", src: "FOO=bar node x.js", want: true},
	{name: "env assignments", src: `A=1 B="two words" make test`, want: true},
	{name: "bin path", src: "/bin/ls -la", want: true},
	{name: "usr bin env", src: "/usr/bin/env node x.js", want: true},
	{name: "absolute executable", src: "/opt/x/bin/tool --flag", want: true},
	{name: "relative executable", src: "./gradlew build", want: true},
	{name: "bare ls", src: "ls", want: true},
	{name: "bare pwd", src: "pwd\n", want: true},
	{name: "bare make after blank lines", src: "\n\n  make", want: true},
	{name: "command with semicolon", src: "ls; pwd", want: true},
	{name: "and between commands", src: "ls && pwd", want: true},
	{name: "export variable", src: "export PATH=/x", want: true},
	{name: "powershell", src: "Get-ChildItem -Path .", want: true},
	{name: "powershell any case", src: "get-content notes.txt", want: true},
	{name: "shebang", src: "#!/bin/bash\necho hi", want: true},
	{name: "shebang after blanks", src: "\n  #!/usr/bin/env node\nconsole.log(1)", want: true},
	{name: "if test", src: "if [ -f x ]; then echo y; fi", want: true},
	{name: "if double bracket", src: "if [[ $x == 1 ]]; then\n  echo one\nfi", want: true},
	{name: "for in loop", src: "for f in *.txt; do echo $f; done", want: true},
	{name: "while loop", src: "while true; do sleep 1; done", want: true},
	{name: "until loop", src: "until false; do\n  sleep 1\ndone", want: true},
	{name: "case", src: "case $x in\n  a) echo a;;\nesac", want: true},
	{name: "function without parens", src: "function greet {\n  echo hi\n}", want: true},
	{name: "fi line", src: "[ -f x ] && cat x\nfi", want: true, reason: "fi alone on a line"},
	{name: "do and done lines", src: "x=1\nfor_each\ndo\n  y\ndone", want: true},
	{name: "bash fence", src: "```bash\nls\n```", want: true},
	{name: "sh fence", src: "```sh\ngit status\n```", want: true},
	{name: "fence without language", src: "```\nls -la\n```", want: true},
	{name: "unclosed shell fence", src: "```shell\nnpm test", want: true},
	{name: "pipe", src: "ls -la | grep foo", want: true},
	{name: "pipe between commands", src: "ls | wc", want: true},
	{name: "redirection", src: "echo hi > out.txt", want: true},
	{name: "attached redirection", src: "ls>files.txt", want: true},
	{name: "stderr redirection", src: "npm test 2>&1", want: true},
	{name: "here-document", src: "cat <<EOF\nhi\nEOF", want: true},
	{name: "glob", src: "rm *.log", want: true},
	{name: "sudo", src: "sudo apt-get install -y jq", want: true},
	{name: "docker", src: "docker ps", want: true},
	{name: "kubectl", src: "kubectl get pods", want: true},
	{name: "prompt", src: "$ npm install", want: true},
	{name: "shell comment first", src: "# list files\nls -la", want: true},
	{name: "js comment first", src: "// list files\nls -la", want: true},
	{name: "windows type", src: "type file.txt", want: true},
	{name: "dir with switch", src: "dir /s", want: true},
	{name: "tail follow", src: "tail -f log.txt", want: true},
	{name: "kill number", src: "kill 123", want: true},

	// Allowed.
	{name: "echo call", src: `echo("hi")`, want: false},
	{name: "echo call with space", src: `echo ("hi")`, want: false},
	{name: "cat member", src: "cat.name", want: false},
	{name: "ls assignment", src: "ls = 1", want: false},
	{name: "find arrow", src: "find(x => x)", want: false},
	{name: "find arrow with minus", src: "find (x => x -y)", want: false,
		reason: "-y is inside parentheses, so it is not a shell flag"},
	{name: "return echo", src: "return echo;", want: false},
	{name: "git member call", src: "git.status()", want: false},
	{name: "sort comparator", src: "sort((a, b) => a - b)", want: false},
	{name: "env member", src: "env.HOME", want: false},
	{name: "optional member", src: "node?.x", want: false},
	{name: "conditional", src: "cat ? a : b", want: false},
	{name: "in operator", src: `env in process`, want: false},
	{name: "generic call", src: "head<T>(x)", want: false},
	{name: "comparison", src: "ls >= 1", want: false},
	{name: "method chain on next line", src: "ls\n  .filter(Boolean)", want: false,
		reason: "a bare name continued by the next line is JavaScript"},
	{name: "export const", src: "export const x = 1", want: false},
	{name: "export braces", src: "export { a }", want: false},
	{name: "export interface", src: "export interface X {}", want: false},
	{name: "export enum", src: "export enum E {}", want: false},
	{name: "export default", src: "export default 1", want: false},
	{name: "type alias", src: "type X = string\nreturn 1 as X", want: false},
	{name: "generic type alias", src: "type Pair<T> = [T, T]", want: false},
	{name: "assignment", src: "FOO = bar", want: false},
	{name: "assignment of await", src: `X=await tools.search("x")`, want: false},
	{name: "assignment of instanceof", src: "X=a instanceof B", want: false},
	{name: "assignment then comment", src: "X=a // note", want: false},
	{name: "comment then program", src: "// list files\nconst r = await tools.callValue(\"ls\", {})\nreturn r", want: false},
	{name: "block comment then program", src: "/* ls -la */ return 1", want: false},
	{name: "shell in a string", src: `const r = await tools.callValue("exec", { command: "ls -la" })`, want: false},
	{name: "shell in a template", src: "const s = `\nif [ -f x ]; then\n  ls -la\nfi\n`\nreturn s", want: false,
		reason: "lines inside a template literal are not code"},
	{name: "shell in a block comment", src: "/*\nfor f in *; do\ndone\n*/\nreturn 1", want: false},
	{name: "for of", src: "for (const x of xs) {}", want: false},
	{name: "for await", src: "for await (const x of xs) {}", want: false},
	{name: "if statement", src: "if (x) {\n  return 1\n}", want: false},
	{name: "while statement", src: "while (i < 3) i++", want: false},
	{name: "do while", src: "do {\n  i++\n} while (i < 3)", want: false},
	{name: "switch case", src: "switch (x) {\ncase 1: return 'a'\n}", want: false},
	{name: "function declaration", src: "function greet(name) {\n  return name\n}", want: false},
	{name: "done variable", src: "const done = true\ndone", want: false,
		reason: "done alone is shell only with a do line"},
	{name: "return template", src: "return `ls -la`", want: false},
	{name: "js fence", src: "```js\nreturn 1\n```", want: false},
	{name: "use strict", src: "\"use strict\"\nreturn 1", want: false},
	{name: "unknown command words", src: "foo bar", want: false,
		reason: "only known commands count; this fails as a JavaScript syntax error instead"},
	{name: "empty", src: "", want: false},
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
			if got := IsShellLike(tt.src); got != tt.want {
				t.Errorf("IsShellLike(%q) = %v, want %v\nreason: %s", tt.src, got, tt.want, tt.reason)
			}
		})
	}
	if flagged < 25 || allowed < 25 {
		t.Errorf("shellTests has %d flagged and %d allowed cases, want at least 25 of each", flagged, allowed)
	}
}

func FuzzIsShellLike(f *testing.F) {
	for _, tt := range shellTests {
		f.Add(tt.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		got := IsShellLike(src)
		// Leading blank lines change nothing.
		if again := IsShellLike("\n\n" + src); again != got {
			t.Errorf("IsShellLike(%q) = %v, but %v after blank lines", src, got, again)
		}
	})
}
