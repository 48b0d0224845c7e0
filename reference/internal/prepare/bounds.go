package prepare

import "strconv"

// Bounds of a cell's source (SPEC.md CM-5.25), checked before any parser
// sees it. esbuild's parser and QuickJS's are recursive descent parsers: a
// few hundred thousand nested brackets overflowed the Go stack inside
// esbuild, which no recover catches. Model-written cells nest tens of
// levels and run to a few thousand tokens; a model's largest answer is
// about a hundred thousand.
const (
	// MaxSourceDepth bounds the nesting of brackets ((), [], {} and
	// template substitutions).
	MaxSourceDepth = 1000
	// MaxSourceTokens bounds the tokens of a source, comments left out.
	MaxSourceTokens = 200_000
)

// Messages of a source over its bounds.
var (
	DepthMessage  = "code mode source nests brackets more than " + strconv.Itoa(MaxSourceDepth) + " levels deep."
	TokensMessage = "code mode source has more than " + strconv.Itoa(MaxSourceTokens) + " tokens."
)

// checkBounds reports a source over MaxSourceDepth or MaxSourceTokens. It
// reads the source once with the lexer, which keeps its state in slices,
// not on the stack, and stops at the first bound passed.
func checkBounds(src string) *Failure {
	l := &lexer{src: src}
	depth, tokens := 0, 0
	for {
		t, ok := l.next()
		if !ok {
			return nil
		}
		if t.kind == commentToken {
			continue
		}
		if tokens++; tokens > MaxSourceTokens {
			return &Failure{Message: TokensMessage}
		}
		switch {
		case t.kind == punctToken && (t.text == "(" || t.text == "[" || t.text == "{"):
			depth++
		case t.kind == punctToken && (t.text == ")" || t.text == "]" || t.text == "}"):
			depth = max(depth-1, 0)
		case t.kind == templateToken:
			if t.text[0] == '}' {
				depth = max(depth-1, 0) // the end of a substitution
			}
			if t.substitution {
				depth++
			}
		}
		if depth > MaxSourceDepth {
			return &Failure{Message: DepthMessage}
		}
	}
}
