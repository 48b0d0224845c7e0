package wire

// profiles are the conformance profiles of SPEC.md (CM-1.14, Appendix C), in report order.
var profiles = [...]string{"core", "typescript", "mcp", "namespaces", "snapshots", "restart-safe", "security", "e2e", "real-mcp", "tool-search"}

// Profiles returns the conformance profiles of SPEC.md (CM-1.14, Appendix C), in report order.
// The slice is the caller's.
func Profiles() []string { return append([]string(nil), profiles[:]...) }
