package jsjson

// IsIdentifier reports whether s matches /^[A-Za-z_$][A-Za-z0-9_$]*$/, the
// keys that hints and declarations write bare (SPEC.md section 11.4,
// CM-14.31).
func IsIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c == '_', c == '$':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// PropertyName renders the object key s as hints and declarations write
// it: s itself when it is an identifier ([IsIdentifier]), else its JSON
// string literal ([Quote]).
func PropertyName(s string) string {
	if IsIdentifier(s) {
		return s
	}
	return Quote(s)
}
