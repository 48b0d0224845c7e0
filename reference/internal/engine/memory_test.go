package engine

import (
	"bytes"
	"testing"
)

func TestSliceMemory(t *testing.T) {
	m := linearMemory{}.Allocate(65536, 4*initialMemoryCapacity).(*sliceMemory)
	if got := cap(m.buf); got != initialMemoryCapacity {
		t.Fatalf("initial capacity %d, want %d", got, initialMemoryCapacity)
	}
	b := m.Reallocate(65536)
	copy(b, bytes.Repeat([]byte{7}, len(b)))
	first := &b[0]
	tests := []struct {
		size     uint64
		wantNil  bool
		wantSame bool // the memory did not move
	}{
		{size: 2 * 65536, wantSame: true},
		{size: initialMemoryCapacity, wantSame: true},
		{size: initialMemoryCapacity + 1, wantSame: false},
		{size: 4 * initialMemoryCapacity, wantSame: false},
		{size: 4*initialMemoryCapacity + 1, wantNil: true},
	}
	for _, tc := range tests {
		got := m.Reallocate(tc.size)
		if tc.wantNil {
			if got != nil {
				t.Errorf("Reallocate(%d) past the maximum = %d bytes, want nil", tc.size, len(got))
			}
			continue
		}
		if uint64(len(got)) != tc.size {
			t.Fatalf("Reallocate(%d) has length %d", tc.size, len(got))
		}
		if same := &got[0] == first; same != tc.wantSame {
			t.Errorf("Reallocate(%d): moved = %v, want %v", tc.size, !same, !tc.wantSame)
		}
		if uint64(cap(got)) > 4*initialMemoryCapacity {
			t.Errorf("Reallocate(%d): capacity %d past the maximum", tc.size, cap(got))
		}
		if !bytes.Equal(got[:65536], bytes.Repeat([]byte{7}, 65536)) {
			t.Fatalf("Reallocate(%d) lost the contents", tc.size)
		}
		first = &got[0]
	}
	m.Free()
	if m.buf != nil {
		t.Error("Free kept the memory")
	}
}

func TestSliceMemoryDoublesWhenItMoves(t *testing.T) {
	m := linearMemory{}.Allocate(65536, 8*initialMemoryCapacity).(*sliceMemory)
	tests := []struct {
		size    uint64
		wantCap int
	}{
		{initialMemoryCapacity, initialMemoryCapacity},
		{initialMemoryCapacity + 1, 2 * initialMemoryCapacity},
		{3 * initialMemoryCapacity, 4 * initialMemoryCapacity},
		{5 * initialMemoryCapacity, 8 * initialMemoryCapacity}, // doubling stops at the maximum
	}
	for _, tc := range tests {
		if got := cap(m.Reallocate(tc.size)); got != tc.wantCap {
			t.Errorf("Reallocate(%d): capacity %d, want %d", tc.size, got, tc.wantCap)
		}
	}
}
