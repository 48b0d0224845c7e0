package prepare

import "strings"

// breakOut reports whether src, as the body of the wrapper function (see
// wrap), would close the wrapper early: whether a closing bracket ')', ']' or
// '}' appears where none of src's own brackets ('(', '[', '{' and template
// substitutions "${") is open. Run as a script, such a source could end the
// function body, run code of its own outside it and open a new function for
// the rest of the wrapper, as in `})(); evil(); (async () => {`. It returns
// the first such closing character. See SPEC.md CM-5.24.
//
// The check runs on the tokens of the lexer, so brackets in strings,
// comments, regular expressions and template text do not count. Where only
// a parser could tell a regular expression from a division, every reading is
// checked and any one that breaks out counts; a source with more than
// maxReadings readings counts as breaking out if it holds any closing
// bracket at all. Both err on the side of failing: a real program never has
// an unopened closing bracket, since that is a syntax error.
//
// Unclosed brackets are left alone: the wrapper's own closing "})" then ends
// something of src's, and the script fails to parse.
func breakOut(src string) (closer byte, found bool) {
	complete := readings(src, maxReadings, func(toks []token) bool {
		closer, found = unopenedCloser(toks)
		return found
	})
	if !found && !complete {
		if i := strings.IndexAny(src, ")]}"); i >= 0 {
			return src[i], true
		}
	}
	return closer, found
}

// unopenedCloser returns the first closing bracket in toks that closes
// nothing opened before it in toks.
func unopenedCloser(toks []token) (byte, bool) {
	depth := 0
	for _, t := range toks {
		switch {
		case t.is("("), t.is("["), t.is("{"):
			depth++
		case t.is(")"), t.is("]"), t.is("}"):
			if depth == 0 {
				return t.text[0], true
			}
			depth--
		case t.kind == templateToken:
			// A chunk that starts with '}' ends a substitution; the lexer
			// reads one only while a substitution is open.
			if t.text[0] == '}' {
				if depth == 0 {
					return '}', true
				}
				depth--
			}
			if t.substitution {
				depth++
			}
		}
	}
	return 0, false
}

// syntaxFailure is the failure of a source that breaks out of the wrapper:
// the guest SyntaxError that evaluating it as a function body would give.
func syntaxFailure(closer byte) *Failure {
	return &Failure{Message: "SyntaxError: unexpected token '" + string(closer) + "'", Syntax: true}
}
