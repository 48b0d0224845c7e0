// Command codemode-gateway is the reference gateway: everything a gateway
// does around code mode and nothing else. It runs agent turns against an
// OpenAI-compatible model provider, with the reference runtime answering
// the model's exec and wait calls, and serves an OpenAI Responses-compatible
// endpoint on loopback. See README.md.
//
//	codemode-gateway -config gateway.json [-state DIR]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	codemode "github.com/codemodekit/kit/reference"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "codemode-gateway:", err)
		os.Exit(1)
	}
}

// shutdownGrace bounds how long in-flight requests may take to finish
// after a stop signal.
const shutdownGrace = 5 * time.Second

// run serves until ctx ends or the process gets SIGINT or SIGTERM. It
// writes one line "listening on http://ADDR" to stdout once it serves.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("codemode-gateway", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "the configuration `file` (required)")
	stateDir := fs.String("state", "", "the `directory` of durable state (session transcripts); default: next to the config file, in codemode-gateway-state")
	strict := fs.Bool("strict-preemption", false, "make every wasm loop a safepoint (codemode.Options.StrictPreemption): slower compute; with -isolation in-process, no garbage-collection hold-up by a guest inside a long built-in")
	isolation := fs.String("isolation", "process", "where guest code runs (codemode.Options.Isolation): `process` (worker processes the gateway kills when a leg passes its deadline) or in-process (trusted code only)")
	port := fs.Int("port", -1, "the loopback `port` to serve on, instead of the configuration's gateway.port (0: any free port)")
	var co clusterOptions
	fs.StringVar(&co.url, "cluster", "", "run as one replica of a clustered gateway: the NATS JetStream server `URLs` (comma-separated) where the replicas share suspended runs and session transcripts")
	fs.StringVar(&co.name, "cluster-name", "", "with -cluster: this replica's `name` (letters, digits, - and _); default: host name and process id")
	fs.StringVar(&co.keyFile, "cluster-key", "", "with -cluster: the `file` of the key every replica seals snapshots with (at least 16 bytes)")
	fs.IntVar(&co.streamReplicas, "cluster-stream-replicas", 1, "with -cluster: how many JetStream servers hold each stream (`N`: 1, or 3 for a three-server cluster)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *cfgPath == "" || fs.NArg() > 0 {
		fs.Usage()
		return errors.New("usage: codemode-gateway -config FILE [-state DIR] [-port N] [-isolation process|in-process] [-strict-preemption] [-cluster URLS -cluster-key FILE [-cluster-name NAME] [-cluster-stream-replicas N]]")
	}
	iso, err := codemode.ParseIsolation(*isolation)
	if err != nil {
		fs.Usage()
		return err
	}
	if *stateDir == "" {
		*stateDir = *cfgPath + ".state"
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	g, cfg, err := bootGateway(ctx, *cfgPath, *stateDir, runtimeOptions{strict: *strict, isolation: iso, cluster: co}, getenv, stderr)
	if err != nil {
		return err
	}
	defer g.Close()
	if *port >= 0 {
		cfg.Gateway.Port = *port
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(cfg.Gateway.Port)))
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: g.handler(), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "listening on http://%s\n", ln.Addr())
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Abort the turns first: their requests end, so Shutdown does not wait
	// for turns that would never finish.
	g.Close()
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	return nil
}
