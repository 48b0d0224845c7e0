// Package config is a synthetic copy of the reference's settings for the
// checkdocs tests.
package config

// Runtime is the only supported runtime.
const Runtime = "quickjs-" + wasi

const wasi = "wasi"

// Mode is the only supported mode.
const Mode = "only"

// Languages are the supported languages.
var Languages = []string{"javascript", "typescript"}

// A Range is an inclusive range.
type Range struct{ Min, Max int }

// A Field is one numeric setting.
type Field struct {
	Name    string
	Default int
	Range   Range
}

const mib = 1 << 20

// Numeric settings.
var (
	TimeoutMs          = Field{Name: "timeoutMs", Default: 10 * 1000, Range: Range{100, 60000}}
	MemoryLimitBytes   = Field{Name: "memoryLimitBytes", Default: 64 * mib, Range: Range{Min: mib, Max: 1 << 30}}
	MaxSearchLimit     = Field{Name: "maxSearchLimit", Default: 50, Range: Range{1, 50}}
	SearchDefaultLimit = Field{Name: "searchDefaultLimit", Default: 8, Range: Range{1, 50}}
)
