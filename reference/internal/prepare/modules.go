package prepare

// maxReadings bounds how many readings of ambiguous slashes
// RejectsModuleAccess tries before it gives up and rejects the source.
// Ordinary programs have one reading, or a few.
const maxReadings = 64

// RejectsModuleAccess reports whether src loads modules: an import
// declaration, import(…), import.meta, or a call of require. See SPEC.md
// CM-5.x.
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
//     identifier. Followed by anything else (':', ',', ')', ';', '=', the end)
//     it is a property key or similar and allowed.
//   - require is rejected when it is not a member name and is followed by
//     '(', '?.', '.', ')' or a template: a call such as require("x"),
//     require?.("x") or require`x`; a wrapped callee such as (require)("x"),
//     (0, require)("x") or ((require))("x"); or a member such as
//     require.resolve. A bare reference such as `const r = require` is
//     allowed: the guest has no require, so using it fails at run time with a
//     ReferenceError that the runtime reports as module access.
//   - A method named import or require (`{ import() {} }`) is allowed.
//   - module and process are not checked here; the runtime handles them.
func RejectsModuleAccess(src string) bool {
	found := false
	complete := readings(src, maxReadings, func(toks []token) bool {
		found = loadsModule(toks)
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
		if next.kind == templateToken || next.is("(") || next.is("?.") || next.is(".") {
			return true
		}
		if t.value == "import" {
			if next.is("{") || next.is("*") || next.kind == stringToken || next.kind == identToken {
				return true
			}
		} else if next.is(")") {
			return true
		}
	}
	return false
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
