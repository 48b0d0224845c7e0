package prepare

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// shellCommands are the command names that make a first word shell-like.
var shellCommands = setOf(
	"ls", "cat", "echo", "printf", "git", "gh", "npm", "npx", "pnpm", "yarn", "bun", "deno",
	"node", "tsc", "python", "python3", "pip", "pip3", "grep", "rg", "find", "sed", "awk",
	"jq", "curl", "wget", "cd", "pwd", "mkdir", "rmdir", "rm", "cp", "mv", "ln", "touch",
	"chmod", "chown", "export", "source", "sudo", "apt", "apt-get", "brew", "docker",
	"kubectl", "make", "go", "cargo", "tar", "unzip", "head", "tail", "wc", "sort", "uniq",
	"xargs", "env", "which", "ps", "kill", "ssh", "scp", "du", "df", "diff", "tree",
	"whoami", "uname", "bash", "sh", "zsh", "dir", "type",
)

// cmdlets are PowerShell commands, matched without regard to case.
var cmdlets = setOf(
	"get-childitem", "get-content", "set-location", "get-location", "get-process",
	"remove-item", "copy-item", "move-item", "new-item", "select-string",
	"invoke-webrequest", "write-output",
)

// shellFences are the languages of fenced Markdown blocks that hold shell.
var shellFences = setOf(
	"sh", "bash", "shell", "zsh", "fish", "console", "shell-session", "terminal",
	"powershell", "pwsh", "ps1", "cmd", "bat",
)

// exportDeclarations are the words after export that make a JavaScript or
// TypeScript export, never a shell export.
var exportDeclarations = setOf(
	"const", "let", "var", "function", "function*", "class", "default", "async",
	"interface", "type", "enum", "abstract", "declare", "namespace", "module", "import",
	"=", "*", "as",
)

// infixWords are the words that may follow an operand in JavaScript or
// TypeScript; after a command name they do not make it a shell command.
var infixWords = setOf("in", "instanceof", "as", "satisfies")

// valueKeywords start an expression that continues with an operand, so in
// `X=await f()` the word after the value is not a command.
var valueKeywords = setOf(
	"await", "new", "typeof", "void", "delete", "yield", "async", "function", "class",
	"in", "instanceof",
)

var (
	envAssignment = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*=`)
	absolutePath  = regexp.MustCompile(`^/[\w.+-]+(/[\w.+-]+)+$`)
)

// IsShellLike reports whether src looks like a shell command rather than a
// JavaScript or TypeScript program. See SPEC.md CM-5.x.
//
// It flags:
//   - a #! prefix;
//   - a fenced Markdown block whose language is a shell (```bash, ```sh, …),
//     or any fenced block whose body is shell-like;
//   - shell control syntax at the start of a line of code (not inside a
//     string, template or comment): `if [ … ]` and other if/while heads not
//     followed by '(', `for x in …`, `until …; do`, `case … in`,
//     `function name {`, and `then`, `fi`, `esac` lines, or `done` lines in a
//     source with a `do` line;
//   - leading environment assignments followed by a command, `FOO=bar cmd`;
//   - a first line (after comments and an optional "$ " prompt) that starts
//     with ./ or ../, with an absolute path such as /bin/ls, or with a
//     PowerShell cmdlet;
//   - a first line that starts with a known command name and is not
//     JavaScript: the name stands alone, is followed by ';', '|' or '>', or is
//     followed by an operand word (git status, echo "hi"), or by shell
//     arguments (-x, --flag), bare paths (/tmp, ./src, .), redirections
//     (>, >>, 2>&1, <), pipes, globs (*.log), or `&&`, `||` or `;` before
//     another command name.
//
// A command name used as JavaScript stays allowed: echo("hi"), cat.name,
// ls = 1, find(x => x), git.status(). So do `export const …`, `export {…}`
// and other export declarations, and TypeScript `type X = …`.
func IsShellLike(src string) bool {
	if lang, body, ok := fencedBlock(strings.TrimLeftFunc(src, isBlank)); ok {
		return shellFences[lang] || isShell(body)
	}
	return isShell(src)
}

// isShell applies the rules of IsShellLike other than the fence rule.
func isShell(src string) bool {
	s := strings.TrimLeftFunc(src, isBlank)
	if strings.HasPrefix(s, "#!") {
		return true
	}
	if hasShellControl(src) {
		return true
	}
	line, rest := commandLine(s)
	return isShellCommand(line, rest)
}

// fencedBlock splits a Markdown block fenced by ``` into its language (lower
// case) and body. The closing fence may be missing.
func fencedBlock(s string) (lang, body string, ok bool) {
	rest, ok := strings.CutPrefix(s, "```")
	if !ok {
		return "", "", false
	}
	info, rest, _ := strings.Cut(rest, "\n")
	if f := strings.Fields(info); len(f) > 0 {
		lang = strings.ToLower(f[0])
	}
	if i := strings.Index(rest, "\n```"); i >= 0 {
		rest = rest[:i]
	} else if strings.HasPrefix(rest, "```") {
		rest = ""
	}
	return lang, rest, true
}

// hasShellControl reports whether a line of code in src is shell control
// syntax.
func hasShellControl(src string) bool {
	loop, done := false, false
	for _, start := range codeLineStarts(src) {
		line := strings.TrimFunc(src[start:lineEnd(src, start)], isBlank)
		word, after := cutWord(line)
		switch word {
		case "if", "while":
			if after != "" && !strings.ContainsAny(after[:1], "(/:") {
				return true
			}
		case "until":
			if strings.HasSuffix(line, "; do") || strings.HasSuffix(line, ";do") {
				return true
			}
		case "for":
			if next, _ := cutWord(after); after != "" && next != "await" &&
				!strings.ContainsAny(after[:1], "(/:") {
				return true
			}
		case "case":
			if strings.HasSuffix(after, " in") {
				return true
			}
		case "function":
			if name, body := cutWord(after); name != "" && !strings.ContainsAny(name, "(<") &&
				strings.HasPrefix(body, "{") {
				return true
			}
		case "then", "fi", "esac":
			if after == "" {
				return true
			}
		case "done":
			done = done || after == ""
		}
		if line == "do" || strings.HasSuffix(line, "; do") || strings.HasSuffix(line, ";do") {
			loop = true
		}
	}
	return loop && done
}

// codeLineStarts returns the offsets of the lines of src that start outside
// strings, templates and comments.
func codeLineStarts(src string) []int {
	var spans []token // tokens that span lines
	for _, t := range tokenize(src) {
		if t.kind != identToken && t.kind != punctToken && strings.ContainsFunc(t.text, isLineTerminator) {
			spans = append(spans, t)
		}
	}
	starts := []int{0}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' || src[i] == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
			starts = append(starts, i+1)
		}
	}
	code := starts[:0]
	for _, start := range starts {
		for len(spans) > 0 && spans[0].end() <= start {
			spans = spans[1:]
		}
		if len(spans) == 0 || start <= spans[0].pos {
			code = append(code, start)
		}
	}
	return code
}

// commandLine returns the first line of s after blank lines, JavaScript
// comments and shell comments, and the text after that line.
func commandLine(s string) (line, rest string) {
	for {
		s = strings.TrimLeftFunc(s, isBlank)
		switch {
		case strings.HasPrefix(s, "//"), strings.HasPrefix(s, "#"):
			s = s[lineEnd(s, 0):]
		case strings.HasPrefix(s, "/*"):
			_, after, found := strings.Cut(s[2:], "*/")
			if !found {
				return "", ""
			}
			s = after
		default:
			end := lineEnd(s, 0)
			return strings.TrimRightFunc(s[:end], isBlank), s[end:]
		}
	}
}

// isShellCommand applies the command rules to the first line of a source;
// rest is the text after it.
func isShellCommand(line, rest string) bool {
	if after, ok := strings.CutPrefix(line, "$ "); ok {
		line = strings.TrimLeftFunc(after, isBlank)
	}
	if hasEnvPrefix(line) {
		return true
	}
	word, tail := cutWord(line)
	switch {
	case strings.HasPrefix(word, "./"), strings.HasPrefix(word, "../"):
		return len(strings.Trim(word, "./")) > 0
	case strings.HasPrefix(word, "/"):
		return absolutePath.MatchString(word)
	}
	name := commandName(word)
	attached := word[len(name):]
	if attached == "" && cmdlets[strings.ToLower(name)] {
		return true
	}
	if !shellCommands[name] {
		return false
	}
	switch {
	case attached != "":
		return attached[0] == ';' || attached[0] == '>' && isShellArgument(attached) ||
			attached[0] == '|' && !strings.HasPrefix(attached, "||") && !strings.HasPrefix(attached, "|=")
	case tail == "":
		return !continuesExpression(rest)
	}
	words := shellWords(tail)
	if len(words) == 0 {
		return false
	}
	switch name {
	case "export":
		if exportDeclarations[words[0].text] || strings.HasPrefix(words[0].text, "{") {
			return false
		}
	case "type":
		if isTypeAlias(words) {
			return false
		}
	}
	if isOperand(words[0].text) {
		return true
	}
	for i, w := range words {
		if w.nested {
			continue
		}
		if isShellArgument(w.text) {
			return true
		}
		if (w.text == "&&" || w.text == "||" || w.text == ";") && i+1 < len(words) &&
			isCommandWord(words[i+1].text) {
			return true
		}
	}
	return false
}

// hasEnvPrefix reports whether line starts with environment assignments
// followed by a command, as in `FOO=bar node x.js`.
func hasEnvPrefix(line string) bool {
	n := 0
	for {
		m := envAssignment.FindString(line)
		if m == "" {
			break
		}
		value, rest := cutShellWord(line[len(m):])
		if value == "" || valueKeywords[value] || strings.ContainsAny(value[len(value)-1:], "+-*/%&|^<>=!?:,.([{~") {
			return false
		}
		line = strings.TrimLeftFunc(rest, isBlank)
		n++
	}
	if n == 0 {
		return false
	}
	word, _ := cutWord(line)
	if word == "" || infixWords[word] {
		return false
	}
	r, _ := utf8.DecodeRuneInString(word)
	return unicode.IsLetter(r) || r == '_' || strings.HasPrefix(word, "./") || strings.HasPrefix(word, "../")
}

// isTypeAlias reports whether the words after type make a TypeScript type
// alias: `type X = …` or `type X<T> = …`.
func isTypeAlias(words []shellWord) bool {
	if strings.ContainsAny(words[0].text, "=<") {
		return true
	}
	return len(words) > 1 && strings.ContainsAny(words[1].text[:1], "=<")
}

// isOperand reports whether a word after a command name is an operand, which
// JavaScript does not allow there: a name, number, string or path-like word,
// but not an infix operator such as in.
func isOperand(w string) bool {
	if infixWords[w] {
		return false
	}
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(`_$"'~`, r)
}

// isShellArgument reports whether w is a shell flag, bare path, redirection,
// pipe or glob.
func isShellArgument(w string) bool {
	switch {
	case len(w) > 1 && w[0] == '-' && isLetter(w[1]),
		len(w) > 2 && w[:2] == "--" && isLetter(w[2]):
		return true // -la, --flag
	case w == "." || w == "..", strings.HasPrefix(w, "./"), strings.HasPrefix(w, "../"),
		strings.HasPrefix(w, "~/"), len(w) > 1 && w[0] == '/' && isPathByte(w[1]):
		return true // paths
	case w == "|", len(w) > 1 && w[0] == '|' && w[1] != '|' && w[1] != '=':
		return true // pipes
	case strings.HasPrefix(w, "*."):
		return true // globs
	case strings.HasPrefix(w, "&>"), strings.HasPrefix(w, "<<"):
		return true // redirections, here-documents
	}
	if w[0] == '<' {
		return len(w) == 1 || isPathByte(w[1]) && w[1] != '='
	}
	w = strings.TrimLeft(w, "0123456789")
	w, ok := strings.CutPrefix(w, ">")
	if !ok {
		return false
	}
	w = strings.TrimPrefix(w, ">")
	return w == "" || w[0] == '&' || isPathByte(w[0])
}

// isCommandWord reports whether w is exactly a known command name.
func isCommandWord(w string) bool {
	return shellCommands[w] || cmdlets[strings.ToLower(w)]
}

// continuesExpression reports whether rest, the text after a line holding
// only a name, continues that name as a JavaScript expression, as in
// "ls\n  .filter(Boolean)".
func continuesExpression(rest string) bool {
	line, _ := commandLine(rest)
	return line != "" && strings.ContainsAny(line[:1], ".?([`=+-*%<>&|^,!:/")
}

// commandName returns the leading run of letters, digits, '_' and '-' in w,
// if it starts with a letter.
func commandName(w string) string {
	if w == "" || !isLetter(w[0]) {
		return ""
	}
	i := 1
	for i < len(w) && (isLetter(w[i]) || isDigit(w[i]) || w[i] == '_' || w[i] == '-') {
		i++
	}
	return w[:i]
}

// A shellWord is one word of a shell line.
type shellWord struct {
	text   string
	nested bool // the word starts inside (), [] or {}
}

// shellWords splits s into words at blanks outside quotes, noting which words
// start inside brackets.
func shellWords(s string) []shellWord {
	var words []shellWord
	depth := 0
	for {
		s = strings.TrimLeftFunc(s, isBlank)
		if s == "" {
			return words
		}
		var w string
		w, s = cutShellWord(s)
		words = append(words, shellWord{text: w, nested: depth > 0})
		for _, c := range []byte(w) {
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth = max(depth-1, 0)
			}
		}
	}
}

// cutShellWord cuts s at the first blank outside quotes.
func cutShellWord(s string) (word, rest string) {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' && quote != '\'' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '\\':
			i++
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			return s[:i], s[i:]
		}
	}
	return s, ""
}

// cutWord cuts s at its first blank and trims the blanks after it.
func cutWord(s string) (word, rest string) {
	i := strings.IndexFunc(s, isBlank)
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimLeftFunc(s[i:], isBlank)
}

func isBlank(r rune) bool { return isSpace(r) || isLineTerminator(r) }

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isPathByte(c byte) bool {
	return isLetter(c) || isDigit(c) || strings.IndexByte("_.~-$", c) >= 0
}

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
