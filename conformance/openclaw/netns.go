package openclaw

import (
	"fmt"
	"net"
	"os"
	"os/exec"
)

// LoopbackCommand is exe with args run in a new network namespace whose
// only interface is an up loopback: `unshare -n` (also a user namespace,
// -r, when not root), then `ip link set lo up`, then exe.
func LoopbackCommand(exe string, args ...string) *exec.Cmd {
	flags := "-n"
	if os.Geteuid() != 0 {
		flags = "-rn"
	}
	argv := append([]string{flags, "--", "sh", "-c", `ip link set lo up && exec "$0" "$@"`, exe}, args...)
	return exec.Command("unshare", argv...)
}

// LoopbackOnly reports an error unless the only network interface the
// process sees is an up loopback one: the network namespace made by
// `unshare -n` followed by `ip link set lo up`.
func LoopbackOnly() error {
	ifs, err := net.Interfaces()
	if err != nil {
		return fmt.Errorf("openclaw: listing network interfaces: %w", err)
	}
	up := false
	for _, i := range ifs {
		if i.Flags&net.FlagLoopback == 0 {
			return fmt.Errorf("openclaw: network interface %q is not loopback: run in a loopback-only network namespace (unshare -n)", i.Name)
		}
		up = up || i.Flags&net.FlagUp != 0
	}
	if !up {
		return fmt.Errorf("openclaw: the loopback interface is down (ip link set lo up)")
	}
	return nil
}
