package prepare

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokenKind classifies a token.
type tokenKind uint8

const (
	identToken    tokenKind = iota + 1 // identifier or keyword
	punctToken                         // punctuator, or a character that starts no other token
	numberToken                        // numeric literal
	stringToken                        // single- or double-quoted string literal
	templateToken                      // template chunk: `…`, `…${, }…${ or }…`
	regexpToken                        // regular-expression literal with its flags
	commentToken                       // line or block comment
)

func (k tokenKind) String() string {
	switch k {
	case identToken:
		return "ident"
	case punctToken:
		return "punct"
	case numberToken:
		return "number"
	case stringToken:
		return "string"
	case templateToken:
		return "template"
	case regexpToken:
		return "regexp"
	case commentToken:
		return "comment"
	}
	return "invalid"
}

// A token is one lexical element of JavaScript source.
type token struct {
	kind tokenKind
	text string // the source text of the token
	// value is the identifier name with \u escapes decoded; for other kinds it
	// equals text.
	value string
	pos   int  // byte offset of text in the source
	nl    bool // a line terminator precedes the token since the previous non-comment token
	// reserved is true for an identifier that is a keyword where it stands:
	// a reserved word, or one of of/yield/await, not written as a member name.
	reserved bool
	// substitution is true for a template chunk that opens a substitution
	// (it ends with "${").
	substitution bool
}

func (t token) end() int { return t.pos + len(t.text) }

// is reports whether t is a punctuator with the given text.
func (t token) is(text string) bool { return t.kind == punctToken && t.text == text }

// slashMode says how the lexer reads a '/' that does not start a comment.
type slashMode uint8

const (
	slashRegexp       slashMode = iota // a regular expression literal
	slashDivide                        // a division operator
	slashEitherRegexp                  // ambiguous; read as a regular expression first
	slashEitherDivide                  // ambiguous; read as division first
)

// keywords are the reserved words after which a '/' starts a regular
// expression. this, super, null, true and false are values, so they are left
// out; of, yield and await are contextual and handled on their own.
var keywords = map[string]bool{
	"break": true, "case": true, "catch": true, "class": true, "const": true,
	"continue": true, "debugger": true, "default": true, "delete": true, "do": true,
	"else": true, "enum": true, "export": true, "extends": true, "finally": true,
	"for": true, "function": true, "if": true, "import": true, "in": true,
	"instanceof": true, "new": true, "return": true, "switch": true, "throw": true,
	"try": true, "typeof": true, "var": true, "void": true, "while": true, "with": true,
}

// punctuators lists the multi-character punctuators, longest first.
var punctuators = []string{
	">>>=",
	"...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
	"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "**", "<<", ">>",
}

// A lexer splits JavaScript source into tokens. It never fails: text that is
// not JavaScript becomes punctuators, and an unterminated comment or template
// runs to the end of the source. Strings and regular expressions cannot span
// lines, so an unterminated one ends at the line terminator.
//
// The source is read as the body of the wrapper function (see wrap), in a
// script: "<!--" anywhere, and "-->" where only white space and comments
// precede it on its line (the source's first line included, since the wrapper
// ends a line before it), start legacy HTML-like comments that run to the end
// of the line (ECMAScript Annex B.1.1), as in QuickJS and esbuild.
//
// Whether '/' starts a regular expression depends on the previous token: it
// divides after a value (an identifier, literal, ')', ']', or the '}' of an
// object literal) and starts a regexp elsewhere (after an operator, a keyword
// such as return or typeof, the ')' of an if/while/for/with head, or the '}'
// of a block). In a few places only a parser could tell: after a '}' that may
// close a block or an expression (a class body, a labelled block), after '++'
// or '--', and after of, yield or await, which may be identifiers. The lexer
// counts those ambiguous slashes and reads each one its preferred way unless
// flips says otherwise, so that callers can try every reading (see
// readings); a slash is not ambiguous if a regexp there would not fit (see
// regexpFits).
type lexer struct {
	src    string
	pos    int
	slash  slashMode
	braces []brace // open braces and template substitutions
	parens []bool  // for each open '(', whether it follows a control keyword
	prev   token   // the last two non-comment tokens
	prev2  token
	nl     bool

	// closedControl is true when the last ')' closed the head of a control
	// statement, after which '{' opens a block.
	closedControl bool

	flips     []int // indices, in order, of ambiguous slashes read the other way
	ambiguous int   // ambiguous slashes read so far
}

// tokenize returns every token of src, comments included, reading each
// ambiguous slash its preferred way.
func tokenize(src string) []token {
	l := &lexer{src: src}
	toks := make([]token, 0, len(src)/8+1)
	for {
		t, ok := l.next()
		if !ok {
			return toks
		}
		toks = append(toks, t)
	}
}

// readings calls visit with the non-comment tokens of each reading of src,
// one per way of reading its ambiguous slashes; visit must not keep the
// slice. It stops when visit returns true.
// It returns false if it stopped because src has more than limit readings.
func readings(src string, limit int, visit func([]token) bool) bool {
	pending := [][]int{nil}
	var toks []token // reused: visit must not keep it
	for runs := 0; len(pending) > 0; runs++ {
		flips := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		l := &lexer{src: src, flips: flips}
		toks = toks[:0]
		for {
			t, ok := l.next()
			if !ok {
				break
			}
			if t.kind != commentToken {
				toks = append(toks, t)
			}
		}
		if visit(toks) {
			return true
		}
		// Every ambiguous slash after the last flipped one was read its
		// preferred way and can be read the other way too.
		first := 0
		if len(flips) > 0 {
			first = flips[len(flips)-1] + 1
		}
		for k := first; k < l.ambiguous; k++ {
			if runs+1+len(pending) == limit {
				return false
			}
			pending = append(pending, append(flips[:len(flips):len(flips)], k))
		}
	}
	return true
}

// next returns the next token, or false at the end of the source.
func (l *lexer) next() (token, bool) {
	l.skipSpace()
	if l.pos >= len(l.src) {
		return token{}, false
	}
	start := l.pos
	src := l.src
	c := src[start]
	kind := punctToken
	var value string
	subst := false // a template chunk opens a substitution
	switch {
	case c == '/' && start+1 < len(src) && src[start+1] == '/',
		c == '<' && strings.HasPrefix(src[start:], "<!--"),
		c == '-' && strings.HasPrefix(src[start:], "-->") && (l.nl || l.prev.kind == 0):
		l.pos = lineEnd(src, start)
		kind = commentToken
	case c == '/' && start+1 < len(src) && src[start+1] == '*':
		if i := strings.Index(src[start+2:], "*/"); i >= 0 {
			l.pos = start + 2 + i + 2
		} else {
			l.pos = len(src)
		}
		kind = commentToken
	case c == '/':
		if !l.slashIsRegexp() {
			l.pos++
			if l.pos < len(src) && src[l.pos] == '=' {
				l.pos++
			}
			break
		}
		l.regexp()
		kind = regexpToken
	case c == '"' || c == '\'':
		l.str(c)
		kind = stringToken
	case c == '`':
		subst = l.template(start + 1)
		kind = templateToken
	case c == '}' && len(l.braces) > 0 && l.braces[len(l.braces)-1] == braceSubst:
		l.braces = l.braces[:len(l.braces)-1]
		subst = l.template(start + 1)
		kind = templateToken
	case isDigit(c) || c == '.' && start+1 < len(src) && isDigit(src[start+1]):
		l.number()
		kind = numberToken
	default:
		if name, ok := l.identifier(); ok {
			kind, value = identToken, name
			break
		}
		l.punctuator()
	}
	t := token{kind: kind, text: src[start:l.pos], pos: start, substitution: subst}
	t.value = t.text
	if kind == identToken {
		t.value = value
	}
	t = l.emit(t)
	if subst {
		l.braces = append(l.braces, braceSubst)
		l.slash = slashRegexp
	}
	return t, true
}

// emit updates the lexer state for t and returns t.
func (l *lexer) emit(t token) token {
	t.nl = l.nl
	if t.kind == commentToken {
		if strings.ContainsFunc(t.text, isLineTerminator) {
			l.nl = true
		}
		return t
	}
	l.nl = false
	member := l.prev.is(".") || l.prev.is("?.") || l.prev.is("#")
	switch t.kind {
	case identToken:
		t.reserved = !member && (keywords[t.value] || t.value == "of" || t.value == "yield" || t.value == "await")
		switch {
		case member, t.value == "this", t.value == "super", t.value == "null",
			t.value == "true", t.value == "false":
			l.slash = slashDivide
		case t.value == "of" || t.value == "yield" || t.value == "await":
			l.slash = slashEitherRegexp
		case keywords[t.value]:
			l.slash = slashRegexp
		default:
			l.slash = slashDivide
		}
	case punctToken:
		prevSlash := l.slash
		l.slash = slashRegexp
		switch t.text {
		case "(":
			l.parens = append(l.parens, l.followsControlKeyword())
		case ")":
			l.slash = slashDivide
			l.closedControl = false
			if n := len(l.parens); n > 0 {
				if l.parens[n-1] {
					l.slash = slashRegexp // if (x) /re/
					l.closedControl = true
				}
				l.parens = l.parens[:n-1]
			}
		case "!":
			if prevSlash != slashRegexp && !t.nl {
				// After an operand on the same line, '!' can only be
				// TypeScript's non-null assertion (x! / 2); in JavaScript it
				// is a syntax error. After a line break it starts a
				// statement.
				l.slash = prevSlash
			}
		case "]":
			l.slash = slashDivide
		case "{":
			l.braces = append(l.braces, l.opens(t))
		case "}":
			l.slash = slashEitherDivide
			if n := len(l.braces); n > 0 {
				switch l.braces[n-1] {
				case braceBlock:
					l.slash = slashRegexp
				case braceObject:
					l.slash = slashDivide
				}
				l.braces = l.braces[:n-1]
			}
		case "++", "--":
			l.slash = slashEitherDivide
		}
	default: // numbers, strings, templates, regular expressions
		l.slash = slashDivide
	}
	l.prev2, l.prev = l.prev, t
	return t
}

// A brace records what an open '{' or template substitution is, which
// decides how a '/' after its closing '}' reads.
type brace uint8

const (
	braceEither brace = iota // block or expression: the slash is ambiguous
	braceBlock               // a block or function body: a regexp follows
	braceObject              // an object literal: a division follows
	braceSubst               // a template substitution: the template goes on
)

// opens classifies the '{' token t from the token before it. After an
// operand the brace may open a class body, whose heritage is an expression
// (class extends f() {} / 2 divides), so it is braceEither unless the
// operand is the head of a control statement.
func (l *lexer) opens(t token) brace {
	p := l.prev
	switch p.kind {
	case 0:
		return braceBlock // the start of the source
	case punctToken:
		switch p.text {
		case ";", "{", "=>":
			return braceBlock
		case ")":
			if l.closedControl {
				return braceBlock // if (x) {
			}
			return braceEither // a function or method body, or a class body
		case ":", "}", "]":
			return braceEither // a label or a property value; a class body
		}
		return braceObject // after an operator, '(', '[' or ','
	case templateToken:
		if p.substitution {
			return braceObject // inside a substitution
		}
		return braceEither // a class body after a tagged template
	case numberToken, stringToken, regexpToken:
		return braceEither // a class body
	case identToken:
		if !p.reserved {
			return braceEither // a class or TypeScript declaration body
		}
		switch p.value {
		case "else", "do", "try", "catch", "finally":
			return braceBlock
		case "return", "yield":
			if t.nl {
				return braceBlock // a semicolon is inserted after return
			}
		}
		return braceObject
	}
	return braceEither
}

// followsControlKeyword reports whether a '(' now would open the head of an
// if, while, for (or for await), with, switch or catch, after which a '/'
// starts a regular expression and a '{' opens a block.
func (l *lexer) followsControlKeyword() bool {
	if !l.prev.reserved {
		return false
	}
	switch l.prev.value {
	case "if", "while", "for", "with", "switch", "catch":
		return true
	case "await":
		return l.prev2.reserved && l.prev2.value == "for"
	}
	return false
}

// slashIsRegexp decides how to read the '/' at l.pos. An ambiguous slash is
// read as division, and not counted, when a regexp there would be rejected by
// JavaScript (see regexpFits).
func (l *lexer) slashIsRegexp() bool {
	switch {
	case l.slash == slashRegexp:
		return true
	case l.slash == slashDivide, !regexpFits(l.src, l.pos):
		return false
	}
	prefer := l.slash == slashEitherRegexp
	k := l.ambiguous
	l.ambiguous++
	if len(l.flips) > 0 && l.flips[0] == k {
		l.flips = l.flips[1:]
		return !prefer
	}
	return prefer
}

func (l *lexer) skipSpace() {
	for l.pos < len(l.src) {
		r, size := utf8.DecodeRuneInString(l.src[l.pos:])
		switch {
		case isLineTerminator(r):
			l.nl = true
		case isSpace(r):
		default:
			return
		}
		l.pos += size
	}
}

// maxRegexpProbe bounds how far regexpFits looks ahead.
const maxRegexpProbe = 1024

// regexpFits reports whether a regular expression literal can start at the
// '/' at src[i]: one that JavaScript would accept is terminated on its line
// and not followed on that line by an operand, such as the 2 in "i++ /n/ 2".
// It looks at most maxRegexpProbe bytes ahead and says yes beyond that.
func regexpFits(src string, i int) bool {
	window := src[:min(len(src), i+maxRegexpProbe)]
	cut := len(window) < len(src)
	probe := lexer{src: window, pos: i}
	if !probe.regexp() {
		return cut && probe.pos == len(window)
	}
	for {
		probe.skipSpace()
		rest := window[probe.pos:]
		if probe.nl || rest == "" {
			return true
		}
		if !strings.HasPrefix(rest, "/*") {
			break
		}
		end := strings.Index(rest[2:], "*/")
		if end < 0 || strings.ContainsFunc(rest[:2+end], isLineTerminator) {
			return true
		}
		probe.pos += 2 + end + 2
	}
	c := window[probe.pos]
	if isDigit(c) || c == '"' || c == '\'' || c == '.' && probe.pos+1 < len(window) && isDigit(window[probe.pos+1]) {
		return false
	}
	if name, ok := probe.identifier(); ok {
		return infixWords[name]
	}
	return true
}

// regexp reads a regular expression literal starting at the '/' at l.pos and
// reports whether it is terminated.
func (l *lexer) regexp() bool {
	src := l.src
	i := l.pos + 1
	class := false
	for i < len(src) {
		r, size := utf8.DecodeRuneInString(src[i:])
		switch {
		case isLineTerminator(r):
			l.pos = i
			return false
		case r == '\\':
			i += size
			if i == len(src) {
				l.pos = i
				return false
			}
			r, size = utf8.DecodeRuneInString(src[i:])
			if isLineTerminator(r) {
				l.pos = i
				return false
			}
		case r == '[':
			class = true
		case r == ']':
			class = false
		case r == '/' && !class:
			i += size
			for i < len(src) {
				r, size := utf8.DecodeRuneInString(src[i:])
				if !isIDPart(r) {
					break
				}
				i += size
			}
			l.pos = i
			return true
		}
		i += size
	}
	l.pos = i
	return false
}

// str reads a string literal quoted by q starting at l.pos.
func (l *lexer) str(q byte) {
	src := l.src
	i := l.pos + 1
	for i < len(src) {
		c := src[i]
		switch {
		case c == q:
			l.pos = i + 1
			return
		case c == '\\':
			i++
			if strings.HasPrefix(src[i:], "\r\n") {
				i++
			}
			if i < len(src) {
				_, size := utf8.DecodeRuneInString(src[i:])
				i += size
			}
			continue
		case c == '\n' || c == '\r':
			l.pos = i
			return
		}
		i++
	}
	l.pos = i
}

// template reads a template chunk whose text starts at i, up to and including
// the closing '`' or the '${' that opens a substitution, and reports whether
// it opens a substitution.
func (l *lexer) template(i int) bool {
	src := l.src
	for i < len(src) {
		switch src[i] {
		case '\\':
			i += 2
			continue
		case '`':
			l.pos = i + 1
			return false
		case '$':
			if i+1 < len(src) && src[i+1] == '{' {
				l.pos = i + 2
				return true
			}
		}
		i++
	}
	l.pos = len(src)
	return false
}

func (l *lexer) number() {
	src := l.src
	i := l.pos
	radix := false // 0x, 0o, 0b: letters are digits, no fraction or exponent
	if src[i] == '0' && i+1 < len(src) && strings.IndexByte("xXoObB", src[i+1]) >= 0 {
		radix = true
		i += 2
	}
	dot := false
	for i < len(src) {
		c := src[i]
		switch {
		case isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_':
			i++
			if !radix && (c == 'e' || c == 'E') && i < len(src) && (src[i] == '+' || src[i] == '-') {
				i++
			}
			continue
		case c == '.' && !dot && !radix:
			dot = true
			i++
			continue
		}
		break
	}
	l.pos = i
}

// identifier reads an identifier at l.pos, if there is one, and returns its
// name with \u escapes decoded.
func (l *lexer) identifier() (string, bool) {
	src := l.src
	i := l.pos
	for i < len(src) && (isLetter(src[i]) || src[i] == '_' || src[i] == '$' || i > l.pos && isDigit(src[i])) {
		i++
	}
	if i == len(src) || src[i] != '\\' && src[i] < utf8.RuneSelf {
		if i == l.pos {
			return "", false
		}
		name := src[l.pos:i]
		l.pos = i
		return name, true
	}
	// Escapes or non-ASCII characters: decode.
	var name strings.Builder
	name.WriteString(src[l.pos:i])
	for i < len(src) {
		r, size := utf8.DecodeRuneInString(src[i:])
		if r == '\\' {
			r, size = unicodeEscape(src[i:])
			if size == 0 {
				break
			}
		} else if i == l.pos && !isIDStart(r) || i > l.pos && !isIDPart(r) {
			break
		}
		name.WriteRune(r)
		i += size
	}
	if i == l.pos {
		return "", false
	}
	l.pos = i
	return name.String(), true
}

// unicodeEscape decodes a \uXXXX or \u{X…} escape at the start of s. It
// returns size 0 if s starts with no valid escape.
func unicodeEscape(s string) (rune, int) {
	if !strings.HasPrefix(s, `\u`) {
		return 0, 0
	}
	digits, size := s[2:], 6
	if strings.HasPrefix(digits, "{") {
		end := strings.IndexByte(digits[:min(len(digits), 10)], '}')
		if end < 2 || end > 9 {
			return 0, 0
		}
		digits, size = digits[1:end], end+3
	} else if len(digits) < 4 {
		return 0, 0
	} else {
		digits = digits[:4]
	}
	var r rune
	for _, c := range []byte(digits) {
		var d byte
		switch {
		case isDigit(c):
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, 0
		}
		r = r<<4 | rune(d)
	}
	if r > unicode.MaxRune {
		return 0, 0
	}
	return r, size
}

func (l *lexer) punctuator() {
	rest := l.src[l.pos:]
	if strings.HasPrefix(rest, "?.") && !(len(rest) > 2 && isDigit(rest[2])) {
		l.pos += 2
		return
	}
	for _, p := range punctuators {
		if p != "?." && strings.HasPrefix(rest, p) {
			l.pos += len(p)
			return
		}
	}
	_, size := utf8.DecodeRuneInString(rest)
	l.pos += size
}

// lineEnd returns the offset of the first line terminator at or after i, or
// len(s).
func lineEnd(s string, i int) int {
	if j := strings.IndexFunc(s[i:], isLineTerminator); j >= 0 {
		return i + j
	}
	return len(s)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isLineTerminator(r rune) bool {
	return r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029'
}

func isSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\v', '\f', '\u00a0', '\ufeff':
		return true
	}
	return unicode.Is(unicode.Zs, r)
}

func isIDStart(r rune) bool {
	return r == '$' || r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) ||
		unicode.Is(unicode.Other_ID_Start, r)
}

func isIDPart(r rune) bool {
	return isIDStart(r) || r == '\u200c' || r == '\u200d' ||
		unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue)
}

// infixWords are the words that may follow an operand; a regular expression
// followed by one of them on its line still fits (see regexpFits).
var infixWords = map[string]bool{"in": true, "instanceof": true, "as": true, "satisfies": true}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isBlank(r rune) bool { return isSpace(r) || isLineTerminator(r) }
