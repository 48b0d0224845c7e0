package openclaw

import (
	"fmt"
	"net"
)

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
