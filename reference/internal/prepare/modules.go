package prepare

// maxReadings bounds how many readings of ambiguous slashes
// RejectsModuleAccess (and breakOut) try before giving up; RejectsModuleAccess
// then rejects the source. Ordinary programs have one reading, or a few.
const maxReadings = 64

// RejectsModuleAccess reports whether src, a source of language lang, loads
// modules (SPEC.md CM-5.14 to CM-5.16, CM-6.9): a static import declaration,
// an import(…) expression, import.meta, or a call whose callee is the bare
// identifier require after unwrapping parentheses, optional calls and comma
// sequences: require(…), require?.(…), (require)(…), (0, require)(…). For
// TypeScript it also rejects `import type …`, `import x = require(…)` and
// `export … from …`. The empty Language means JavaScript.
//
// The check runs on tokens, so strings, comments and regular expressions that
// mention import or require do not count, while code inside template
// substitutions does. Identifiers are compared after decoding \u escapes.
// Where only a parser could tell a regular expression from a division (see
// [lexer]), every reading is checked and any one that loads a module rejects
// src; a source with more than maxReadings readings is rejected too.
//
// # Notes
//
//   - import is rejected when it is not a member name (after '.', '?.' or '#')
//     and is followed by '(', '.', '?.', '{', '*', a string, a template or an
//     identifier: an import declaration (in JavaScript inside a function a
//     syntax error, which the SPEC's fallback rejects too), import(…),
//     import.meta. Followed by anything else (':', ',', ')', ';', '=', the
//     end) it is a property key or similar and allowed, and so is a method
//     named import (`{ import() {} }`).
//   - require is rejected as a callee: followed by '(', '?.(' or a template
//     (a tagged template calls its tag), or, through parentheses and the
//     last operand of comma sequences, by ')' … '('. It is allowed as a
//     member name (obj.require()), a method name, a value (`const r =
//     require`, f(require)) and an object (require.resolve(…)): those are not
//     calls of require, and the guest, which has no require, reports using
//     it as module access at run time (CM-5.18).
//   - new require(…) is rejected too: its callee is require.
//   - module and process are not checked here; the runtime handles them.
func RejectsModuleAccess(src string, lang Language) bool {
	found := false
	complete := readings(src, maxReadings, func(toks []token) bool {
		found = loadsModule(toks) || lang == TypeScript && exportsFrom(toks)
		return found
	})
	return found || !complete
}

// loadsModule applies the module rule to the non-comment tokens of one reading.
func loadsModule(toks []token) bool {
	var closers []int // closers[i]: index of the ')' matching a '(' at i; built when needed
	for i, t := range toks {
		if t.kind != identToken || t.value != "import" && t.value != "require" {
			continue
		}
		if i > 0 && (toks[i-1].is(".") || toks[i-1].is("?.") || toks[i-1].is("#")) {
			continue // a member or private name
		}
		if i+1 == len(toks) {
			continue
		}
		next := toks[i+1]
		if next.is("(") && followsMethodStart(toks, i) {
			if closers == nil {
				closers = matchParens(toks)
			}
			if c := closers[i+1]; c > 0 && c+1 < len(toks) && toks[c+1].is("{") && !toks[c+1].nl {
				continue // a method definition: name(…) {
			}
		}
		if t.value == "import" {
			if next.kind == templateToken || next.is("(") || next.is("?.") || next.is(".") ||
				next.is("{") || next.is("*") || next.kind == stringToken || next.kind == identToken {
				return true
			}
			continue
		}
		if isCallee(toks, i) {
			return true
		}
	}
	return false
}

// isCallee reports whether the require at toks[i] is the callee of a call:
// after unwrapping the parentheses around it, where it is the last operand of
// a comma sequence, it is followed by '(', by '?.' and '(', or by a template.
func isCallee(toks []token, i int) bool {
	for {
		if i+1 == len(toks) {
			return false
		}
		switch next := toks[i+1]; {
		case next.is("("), next.kind == templateToken:
			return true
		case next.is("?."):
			return i+2 < len(toks) && toks[i+2].is("(")
		case next.is(")"):
			// Unwrap when the '(' that this ')' closes groups an expression
			// rather than holding arguments or a control head.
			open := openingParen(toks, i+1)
			if open < 0 || !isGrouping(toks, open) {
				return false
			}
			i++
		default:
			return false
		}
	}
}

// openingParen returns the index of the '(' that the ')' at toks[c] closes,
// or -1.
func openingParen(toks []token, c int) int {
	depth := 0
	for j := c; j >= 0; j-- {
		switch {
		case toks[j].is(")"):
			depth++
		case toks[j].is("("):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// isGrouping reports whether the '(' at toks[open] may start a
// parenthesised expression rather than a call's arguments or the head of a
// control statement. After a '}' it may (the '}' can end a block), so
// `{}\n(require)("x")` counts as a call.
func isGrouping(toks []token, open int) bool {
	if open == 0 {
		return true
	}
	switch p := toks[open-1]; p.kind {
	case identToken:
		if !p.reserved {
			return false // f(…)
		}
		switch p.value {
		case "if", "while", "for", "with", "switch", "catch":
			return false
		}
		return true // return (…), typeof (…), await (…)
	case punctToken:
		return !p.is(")") && !p.is("]") && !p.is("?.")
	case templateToken:
		return p.substitution // `${(…)}`; after a whole template, a call
	}
	return false // after a literal: a call
}

// followsMethodStart reports whether toks[i] may name a method: it is first,
// or follows '{', ',', ';', '}', '*', get, set, static or async. Such a name
// followed by (…) and '{' on the same line is a method definition; a call
// there would be a syntax error. After extends, a call followed by '{' is a
// class heritage, so the preceding token matters.
func followsMethodStart(toks []token, i int) bool {
	if i == 0 {
		return true
	}
	switch p := toks[i-1]; {
	case p.is("{"), p.is(","), p.is(";"), p.is("}"), p.is("*"):
		return true
	case p.kind == identToken:
		return p.value == "get" || p.value == "set" || p.value == "static" || p.value == "async"
	}
	return false
}

// matchParens returns, for each '(' in toks, the index of its matching ')';
// other entries, and unmatched '(', are 0.
func matchParens(toks []token) []int {
	closers := make([]int, len(toks))
	var open []int
	for i, t := range toks {
		switch {
		case t.is("("):
			open = append(open, i)
		case t.is(")") && len(open) > 0:
			closers[open[len(open)-1]] = i
			open = open[:len(open)-1]
		}
	}
	return closers
}

// exportsFrom reports whether toks hold a TypeScript (or JavaScript)
// re-export: export, an optional type, then '*' (with an optional "as name")
// or a braced list, then from and a string.
func exportsFrom(toks []token) bool {
	for i, t := range toks {
		if t.kind != identToken || t.value != "export" {
			continue
		}
		if i > 0 && (toks[i-1].is(".") || toks[i-1].is("?.") || toks[i-1].is("#")) {
			continue
		}
		j := i + 1
		if j < len(toks) && toks[j].kind == identToken && toks[j].value == "type" {
			j++
		}
		switch {
		case j >= len(toks):
			continue
		case toks[j].is("*"):
			j++
			if j+1 < len(toks) && toks[j].kind == identToken && toks[j].value == "as" {
				j += 2
			}
		case toks[j].is("{"):
			depth := 0
			for ; j < len(toks); j++ {
				if toks[j].is("{") {
					depth++
				} else if toks[j].is("}") {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			j++
		default:
			continue
		}
		if j+1 < len(toks) && toks[j].kind == identToken && toks[j].value == "from" && toks[j+1].kind == stringToken {
			return true
		}
	}
	return false
}
