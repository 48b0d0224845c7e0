// Package loopback gives the suite's targets what they need of 127.0.0.1.
package loopback

import "net"

// FreePort returns a loopback TCP port nobody listens on now.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
