package tail

import "testing"

func TestBuffer(t *testing.T) {
	for _, tc := range []struct {
		name   string
		limit  int
		writes []string
		want   string
	}{
		{"fits", 10, []string{"abc", "def"}, "abcdef"},
		{"cut", 4, []string{"abc", "def"}, "[...]cdef"},
		{"one big write", 3, []string{"abcdefgh"}, "[...]fgh"},
		{"disabled", 0, []string{"abc"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := New(tc.limit)
			for _, w := range tc.writes {
				if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
			}
			if got := b.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
		})
	}
}
