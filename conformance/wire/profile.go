package wire

// profiles are the conformance profiles of SPEC.md (CM-1.14, Appendix C), in report order.
var profiles = [...]string{"core", "typescript", "mcp", "namespaces", "snapshots", "restart-safe", "security", "e2e", "real-mcp", "tool-search", "cluster"}

// Profiles returns the conformance profiles of SPEC.md (CM-1.14, Appendix C), in report order.
// The slice is the caller's.
func Profiles() []string { return append([]string(nil), profiles[:]...) }

// ProfileCluster is the profile of implementations that run as several
// replicas sharing their suspended runs (SPEC.md section 8.5).
const ProfileCluster = "cluster"

// ProcessProfiles returns the profiles a target of one process can claim:
// every profile but ProfileCluster, in report order. The slice is the
// caller's.
func ProcessProfiles() []string {
	out := make([]string, 0, len(profiles)-1)
	for _, p := range profiles {
		if p != ProfileCluster {
			out = append(out, p)
		}
	}
	return out
}
