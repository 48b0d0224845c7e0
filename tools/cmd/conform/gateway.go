package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/codemodekit/kit/conformance/gateway"
	"github.com/codemodekit/kit/conformance/wire"
	"github.com/codemodekit/kit/reference/codemodetest"
	"github.com/codemodekit/kit/tools/internal/repo"
)

// gatewayTarget is the --target value of the wire target.
const gatewayTarget = "gateway"

// referenceGateway is the package of the reference gateway.
const referenceGateway = "github.com/codemodekit/kit/reference/cmd/codemode-gateway"

// natsServerModule is the NATS server the replicas of a clustered gateway
// share; the reference module pins its version.
const natsServerModule = "github.com/nats-io/nats-server/v2"

// buildNATSServer builds the NATS server from the version the reference
// module pins, into the repository's cache, once.
func buildNATSServer() (string, error) {
	root, err := repo.Root()
	if err != nil {
		return "", fmt.Errorf("--gateway-replicas: the NATS server is built from the repository: %w", err)
	}
	bin := filepath.Join(root, ".cache", "bin", "nats-server")
	cmd := exec.Command("go", "build", "-o", bin, natsServerModule)
	cmd.Dir = filepath.Join(root, "reference")
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the NATS server: %v\n%s", err, out)
	}
	return bin, nil
}

// gatewayInfo makes the wire target for the gateway command cmd (the
// reference gateway, built now, when cmd is empty, run with isolation and,
// if strict, -strict-preemption) and returns its name and a cleanup that
// removes what it built.
func gatewayInfo(cmd, api, isolation string, strict bool, replicas, natsServers int) (targetInfo, string, func(), error) {
	if api != "openai-responses" && api != "openai-completions" {
		return targetInfo{}, "", nil, fmt.Errorf("--gateway-api %q: want openai-responses or openai-completions", api)
	}
	if replicas < 1 {
		return targetInfo{}, "", nil, fmt.Errorf("--gateway-replicas %d: want 1 or more", replicas)
	}
	if natsServers != 1 && natsServers != 3 {
		return targetInfo{}, "", nil, fmt.Errorf("--gateway-nats %d: want 1, or 3 for a three-server JetStream cluster", natsServers)
	}
	name, cleanup := gatewayTarget, func() {}
	var argv []string
	if cmd == "" {
		dir, err := os.MkdirTemp("", "conform-gateway-")
		if err != nil {
			return targetInfo{}, "", nil, err
		}
		cleanup = func() { _ = os.RemoveAll(dir) }
		bin := filepath.Join(dir, "codemode-gateway")
		build := exec.Command("go", "build", "-o", bin, referenceGateway)
		// In the reference module, whose go.sum has what the gateway
		// alone links (the NATS client of its cluster mode).
		if root, err := repo.Root(); err == nil {
			build.Dir = filepath.Join(root, "reference")
		}
		if out, err := build.CombinedOutput(); err != nil {
			cleanup()
			return targetInfo{}, "", nil, fmt.Errorf("building the reference gateway: %v\n%s", err, out)
		}
		argv, name = []string{bin, "-config", gateway.ConfigPlaceholder, "-isolation", isolation}, "reference-gateway"
		if strict {
			argv = append(argv, "-strict-preemption")
		}
		if replicas > 1 {
			argv = append(argv, "-cluster", gateway.NATSPlaceholder, "-cluster-key", gateway.KeyPlaceholder, "-cluster-name", gateway.ReplicaPlaceholder,
				"-cluster-stream-replicas", strconv.Itoa(natsServers))
		}
	} else {
		var err error
		if argv, err = splitCommand(cmd); err != nil {
			return targetInfo{}, "", nil, fmt.Errorf("--gateway-cmd: %w", err)
		}
		if len(argv) == 0 {
			return targetInfo{}, "", nil, errors.New("--gateway-cmd: empty command")
		}
		if !strings.Contains(cmd, gateway.ConfigPlaceholder) {
			return targetInfo{}, "", nil, fmt.Errorf("--gateway-cmd: no %s in %q: the gateway would not find its configuration", gateway.ConfigPlaceholder, cmd)
		}
	}
	opts := gateway.Options{Command: argv, API: api, Fixtures: codemodetest.RealMCPFixtures, Replicas: replicas, NATSServers: natsServers}
	if replicas > 1 {
		if cmd != "" && !strings.Contains(cmd, gateway.NATSPlaceholder) {
			cleanup()
			return targetInfo{}, "", nil, fmt.Errorf("--gateway-replicas: no %s in %q: the replicas would not find their NATS server", gateway.NATSPlaceholder, cmd)
		}
		var err error
		if opts.NATSServer, err = buildNATSServer(); err != nil {
			cleanup()
			return targetInfo{}, "", nil, err
		}
	}
	mk := gateway.MakeTarget(opts)
	version := ""
	if cmd == "" {
		version = referenceVersion()
	}
	claimed := wire.ProcessProfiles()
	if replicas > 1 {
		// Replicas claim the cluster profile, and report under a name of
		// their own: their baseline is not the single gateway's.
		claimed, name = wire.Profiles(), name+"-cluster"
	}
	return targetInfo{make: mk, claimed: claimed, version: version}, name, cleanup, nil
}
