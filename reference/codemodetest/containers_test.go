package codemodetest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/netip"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codemodekit/kit/conformance"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"
)

// The container tier of the @real-mcp scenarios: the third-party MCP
// servers of fixtures/mcp, hosted in containers the way users host them,
// and features/14-mcp-real.feature run against them. Nothing is pulled:
// both images are built here, FROM scratch, from what is on this machine.
// scripts/with-docker.sh provides the engine (make test runs it).

const (
	// gosdkVersion is the go-sdk whose example servers the go image holds;
	// keep it equal to GOSDK_VERSION in the Makefile (TestGoSDKVersion).
	gosdkVersion = "v1.8.0"
	gosdkModule  = "github.com/modelcontextprotocol/go-sdk"
	// imageFixtures is where the images hold the files of fixtures/mcp.
	imageFixtures = "/mcp"
	// runLabel marks every container and image of one test run.
	runLabel = "org.codemodekit.test-run"
)

// containerHosting hosts the real MCP server fixtures in containers
// (an MCPHosting). A fixture in urls is a server that already runs in a
// container and is reached over HTTP through a port published on loopback;
// a fixture in images runs over stdio, as users configure such servers:
// {"command": "docker", "args": ["run", "-i", "--rm", …, image, …]}, one
// container per connection, with no network.
type containerHosting struct {
	docker     string                    // the docker CLI, absolute
	dockerHost string                    // DOCKER_HOST of the engine testcontainers uses
	run        string                    // value of runLabel
	urls       map[string]map[string]any // fixture → url entry
	images     map[string]string         // fixture → image for `docker run -i`

	mu     sync.Mutex
	hosted map[string]int // fixture → entries made
}

// with returns a hosting like h that reaches the fixtures of urls by url.
func (h *containerHosting) with(urls map[string]map[string]any) *containerHosting {
	return &containerHosting{docker: h.docker, dockerHost: h.dockerHost, run: h.run, urls: urls, images: h.images}
}

// hostedCount returns how many entries h made for fixture.
func (h *containerHosting) hostedCount(fixture string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.hosted[fixture]
}

func (h *containerHosting) host(s RealMCPServer) (map[string]any, error) {
	h.mu.Lock()
	if h.hosted == nil {
		h.hosted = map[string]int{}
	}
	h.hosted[s.Fixture]++
	h.mu.Unlock()
	if e, ok := h.urls[s.Fixture]; ok {
		return maps.Clone(e), nil
	}
	image, ok := h.images[s.Fixture]
	if !ok {
		return nil, fmt.Errorf("no container for fixture %q", s.Fixture)
	}
	// inImage maps a path under fixtures/mcp to the image's copy.
	inImage := func(v any) any {
		p, _ := v.(string)
		if !filepath.IsAbs(p) {
			return v
		}
		if rel, err := filepath.Rel(s.Dir, p); err == nil && filepath.IsLocal(rel) {
			return path.Join(imageFixtures, filepath.ToSlash(rel))
		}
		return v
	}
	args := []any{"run", "--interactive", "--rm", "--init", "--network", "none",
		"--label", runLabel + "=" + h.run, "--user", fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid())}
	if s.Scratch != "" {
		// The same path inside: every ${scratch} of the definition holds.
		args = append(args, "--volume", s.Scratch+":"+s.Scratch)
	}
	env, _ := s.Entry["env"].(map[string]any)
	for _, k := range slices.Sorted(maps.Keys(env)) {
		args = append(args, "--env", fmt.Sprintf("%s=%v", k, inImage(env[k])))
	}
	if cwd, ok := s.Entry["cwd"]; ok {
		args = append(args, "--workdir", inImage(cwd))
	}
	args = append(args, image, inImage(s.Entry["command"]))
	if rest, ok := s.Entry["args"].([]any); ok {
		for _, a := range rest {
			args = append(args, inImage(a))
		}
	}
	return map[string]any{
		"command": h.docker,
		"args":    args,
		"env":     map[string]any{"DOCKER_HOST": h.dockerHost},
	}, nil
}

// TestContainers builds the images, starts the HTTP servers, checks that
// every fixture answers as hosted, and runs the @real-mcp scenarios with the
// everything server reached over streamable HTTP and over SSE.
func TestContainers(t *testing.T) {
	t.Parallel() // beside the whole-suite runs, which wait for no image
	began := time.Now()
	p := requireDocker(t)
	fixtures := requireFixtures(t)
	docker, err := exec.LookPath("docker")
	if err != nil {
		skipOrFail(t, "the docker CLI is not on PATH: %v", err)
	}
	ctx := context.Background()
	run := strconv.FormatInt(time.Now().UnixNano(), 36)
	h := &containerHosting{docker: docker, dockerHost: p.Client().DaemonHost(), run: run}

	step := time.Now()
	// The go-sdk servers compile (a minute on a cold build cache) while
	// the node image builds.
	goDir := t.TempDir()
	goCtx, goCancel := context.WithTimeout(ctx, 10*time.Minute)
	goDone := make(chan struct{})
	var goErr error
	go func() {
		defer close(goDone)
		goErr = buildGoServers(goCtx, goDir)
	}()
	t.Cleanup(func() { goCancel(); <-goDone }) // runs before goDir is removed
	nodeImage := buildImage(t, p, "codemodekit-mcp-node", run, nodeContext(t, fixtures))
	<-goDone
	if goErr != nil {
		t.Fatal(goErr)
	}
	goImage := buildImage(t, p, "codemodekit-mcp-gosdk", run, goDir)
	t.Logf("images ready in %.1f s", time.Since(step).Seconds())
	// Cleanups run last first: the servers stop, then whatever container
	// of this run is left goes, then the images.
	t.Cleanup(func() { removeLeftovers(t, p, run) })

	step = time.Now()
	everything := path.Join(imageFixtures, "node_modules/@modelcontextprotocol/server-everything/dist/index.js")
	streamable := startServer(t, serverSpec{image: nodeImage, run: run, port: "3001/tcp",
		cmd: []string{"node", everything, "streamableHttp"}, env: map[string]string{"PORT": "3001"},
		ready: "listening on port 3001"})
	sse := startServer(t, serverSpec{image: nodeImage, run: run, port: "3001/tcp",
		cmd: []string{"node", everything, "sse"}, env: map[string]string{"PORT": "3001"},
		ready: "running on port 3001"})
	gosdk := startServer(t, serverSpec{image: goImage, run: run, port: "8080/tcp",
		cmd:   []string{path.Join(imageFixtures, "bin/everything"), "-http", "0.0.0.0:8080"},
		ready: "MCP handler listening"})
	t.Logf("HTTP servers started in %.1f s", time.Since(step).Seconds())

	h.images = map[string]string{"memory": nodeImage, "filesystem": nodeImage, "gosdk-hello": goImage}
	hostings := []struct {
		name       string
		everything map[string]any
	}{
		{"streamable-http", map[string]any{"url": streamable + "/mcp"}},
		{"sse", map[string]any{"url": sse + "/sse", "transport": "sse"}},
	}

	step = time.Now()
	t.Run("connect", func(t *testing.T) {
		for _, hosting := range hostings {
			hh := h.with(map[string]map[string]any{"everything": hosting.everything})
			for _, tt := range fixtureTests {
				if tt.fixture != "everything" && hosting.name != hostings[0].name {
					continue // stdio fixtures are hosted the same way in both
				}
				t.Run(hosting.name+"/"+tt.fixture, func(t *testing.T) {
					r := realMCP{hosting: hh.host}
					t.Cleanup(r.cleanup)
					entry := requireRealMCPConfig(t, &r, tt.fixture)
					c := fixtureCalls[tt.fixture]
					checkConnect(t, tt.fixture, entry, tt.tools, c.tool, c.args, c.want(r.lastScratch()))
				})
			}
		}
		t.Run("gosdk-everything", func(t *testing.T) {
			checkConnect(t, "gosdk-everything", map[string]any{"url": gosdk}, []string{"greet", "ping"},
				"greet", `{"name": "Ada"}`, "Hi Ada")
		})
	})
	t.Logf("connect checks took %.1f s", time.Since(step).Seconds())

	for _, hosting := range hostings {
		step = time.Now()
		t.Run("conformance/"+hosting.name, func(t *testing.T) {
			hh := h.with(map[string]map[string]any{"everything": hosting.everything})
			rep, err := conformance.Run(ctx, conformance.Options{
				Target: Name,
				Make:   func() (conformance.Target, error) { return NewTargetWith(Options{MCPHosting: hh.host}) },
				Tags:   "@real-mcp",
				Paths:  []string{"14-mcp-real.feature"},
			})
			if err != nil {
				t.Fatalf("conformance: %v", err)
			}
			t.Logf("seed %d; %s", rep.Seed, rep.Summary())
			if len(rep.Results) == 0 {
				t.Fatal("conformance ran no @real-mcp scenario")
			}
			for _, res := range rep.Results {
				if res.Status != conformance.StatusPassed {
					t.Errorf("%s:%d %s: %s, want passed: %s", res.Feature, res.Line, res.Name, res.Status, res.Error)
				}
			}
			for _, fixture := range []string{"everything", "memory", "filesystem"} {
				if hh.hostedCount(fixture) == 0 {
					t.Errorf("no scenario reached the %s fixture through the container hosting", fixture)
				}
			}
		})
		t.Logf("@real-mcp scenarios over %s took %.1f s", hosting.name, time.Since(step).Seconds())
	}

	t.Run("stdio containers end with their connections", func(t *testing.T) {
		// Only the three HTTP servers may still run: every `docker run -i
		// --rm` container ended when the client closed its connection.
		deadline := time.Now().Add(15 * time.Second)
		for {
			left := runContainers(t, p, run)
			if len(left) <= 3 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d containers of this run still exist, want the 3 HTTP servers: %v", len(left), left)
			}
			time.Sleep(200 * time.Millisecond)
		}
	})
	t.Logf("container tier took %.1f s", time.Since(began).Seconds())
}

// TestGoSDKVersion checks that the go image holds the go-sdk version the
// Makefile installs for the host.
func TestGoSDKVersion(t *testing.T) {
	root, err := locateMCPFixtures()
	if err != nil {
		t.Skip(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "..", "..", "Makefile"))
	if err != nil {
		t.Skip(err)
	}
	m := regexp.MustCompile(`(?m)^GOSDK_VERSION\s*:?=\s*(\S+)`).FindSubmatch(b)
	if m == nil {
		t.Fatal("the Makefile sets no GOSDK_VERSION")
	}
	if got := string(m[1]); got != gosdkVersion {
		t.Errorf("Makefile GOSDK_VERSION = %s, gosdkVersion = %s: keep them equal", got, gosdkVersion)
	}
}

// skipOrFail skips t, except in CI (CI set), where the container tier must
// run and t fails instead.
func skipOrFail(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("CI") != "" {
		t.Fatalf("%s; CI is set, so the container tier must run (make test starts an engine with scripts/with-docker.sh)", msg)
	}
	t.Skipf("%s; from the repository root, `scripts/with-docker.sh go test ./reference/codemodetest` or `make test` starts one", msg)
}

// requireDocker returns the provider of a Docker engine that answers, with
// containers reached on loopback. Without an engine it skips t (fails in
// CI).
func requireDocker(t *testing.T) (p *testcontainers.DockerProvider) {
	t.Helper()
	// Never one without the other (see scripts/with-docker.sh): without
	// Ryuk disabled the reaper image is pulled, which fails here; without
	// the override testcontainers may take the default gateway for the
	// Docker host and send traffic off the machine.
	// Set for the whole test process (a parallel test cannot use
	// t.Setenv): no test of it may reach Docker another way.
	for k, v := range map[string]string{"TESTCONTAINERS_RYUK_DISABLED": "true", "TESTCONTAINERS_HOST_OVERRIDE": "localhost"} {
		if os.Getenv(k) == "" {
			if err := os.Setenv(k, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		if p, err = testcontainers.NewDockerProvider(); err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		return p.Health(ctx)
	}()
	if err != nil {
		skipOrFail(t, "no Docker engine answers (DOCKER_HOST=%q): %v", os.Getenv("DOCKER_HOST"), err)
	}
	t.Cleanup(func() { _ = p.Close() })
	host, err := p.DaemonHost(context.Background())
	if err != nil {
		t.Fatalf("docker host: %v", err)
	}
	if !isLoopback(host) {
		t.Fatalf("containers would be reached at %q; set TESTCONTAINERS_HOST_OVERRIDE=localhost: tests talk to loopback only", host)
	}
	return p
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// requireFixtures returns fixtures/mcp with its npm packages installed, or
// skips t (fails it in CI).
func requireFixtures(t *testing.T) string {
	t.Helper()
	root, err := locateMCPFixtures()
	if err == nil {
		_, err = os.Stat(filepath.Join(root, "node_modules", ".package-lock.json"))
	}
	if err != nil {
		skipOrFail(t, "fixtures/mcp is not installed (run `make deps`): %v", err)
	}
	return root
}

// buildImage builds the image of the build context dir as repo:tag with
// testcontainers and removes it when t ends.
func buildImage(t *testing.T, p *testcontainers.DockerProvider, repo, run, dir string) string {
	t.Helper()
	started := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	req := &testcontainers.ContainerRequest{FromDockerfile: testcontainers.FromDockerfile{
		Context: dir, Repo: repo, Tag: run, KeepImage: true, BuildLogWriter: io.Discard,
		BuildOptionsModifier: func(o *client.ImageBuildOptions) {
			o.Labels = map[string]string{runLabel: run}
		},
	}}
	tag, err := p.BuildImage(ctx, req)
	if err != nil {
		t.Fatalf("build %s: %v", repo, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := p.Client().ImageRemove(ctx, tag, client.ImageRemoveOptions{Force: true, PruneChildren: true}); err != nil {
			t.Errorf("remove image %s: %v", tag, err)
		}
	})
	t.Logf("built %s in %.1f s", tag, time.Since(started).Seconds())
	return tag
}

// nodeContext writes the build context of the npm servers' image: this
// machine's node with the libraries it links, and fixtures/mcp/node_modules
// at /mcp/node_modules.
func nodeContext(t *testing.T, fixtures string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		skipOrFail(t, "node is not on PATH: %v", err)
	}
	if node, err = filepath.EvalSymlinks(node); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rootfs := filepath.Join(dir, "rootfs")
	copyFile(t, node, filepath.Join(rootfs, "usr", "local", "bin", "node"))
	for _, lib := range sharedLibraries(t, node) {
		real, err := filepath.EvalSymlinks(lib)
		if err != nil {
			t.Fatal(err)
		}
		copyFile(t, real, filepath.Join(rootfs, lib))
	}
	copyTree(t, filepath.Join(fixtures, "node_modules"), filepath.Join(rootfs, filepath.FromSlash(imageFixtures), "node_modules"))
	tmp := filepath.Join(rootfs, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tmp, 0o1777); err != nil {
		t.Fatal(err)
	}
	writeDockerfile(t, dir, "FROM scratch\nCOPY rootfs/ /\nENV PATH=/usr/local/bin\n")
	return dir
}

// sharedLibraries returns the absolute paths of the shared libraries ldd
// lists for the binary bin, the dynamic loader included.
func sharedLibraries(t *testing.T, bin string) []string {
	t.Helper()
	out, err := exec.Command("ldd", bin).Output()
	if err != nil {
		skipOrFail(t, "ldd %s: %v", bin, err)
	}
	var libs []string
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		// "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x…)" or
		// "/lib64/ld-linux-x86-64.so.2 (0x…)"; the vDSO has no file.
		f := strings.Fields(sc.Text())
		for _, s := range f {
			if filepath.IsAbs(s) {
				libs = append(libs, s)
				break
			}
		}
	}
	if len(libs) == 0 {
		t.Fatalf("ldd %s listed no library:\n%s", bin, out)
	}
	return libs
}

// buildGoServers writes the build context of the go-sdk servers' image
// into dir: the example servers hello and everything, static, at /mcp/bin.
// It runs on its own goroutine, so it reports errors instead of failing t.
func buildGoServers(ctx context.Context, dir string) error {
	gotool, err := exec.LookPath("go")
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, gotool, "install", "-ldflags=-s -w",
		gosdkModule+"/examples/server/hello@"+gosdkVersion,
		gosdkModule+"/examples/server/everything@"+gosdkVersion)
	cmd.Env = append(os.Environ(), "GOBIN="+filepath.Join(dir, "rootfs", filepath.FromSlash(imageFixtures), "bin"),
		"CGO_ENABLED=0", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v\n%s", cmd, err, out)
	}
	return os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte("FROM scratch\nCOPY rootfs/ /\n"), 0o600)
}

func writeDockerfile(t *testing.T, dir, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// copyFile copies the regular file src to dst, keeping its mode bits.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	if err := copyRegular(src, dst); err != nil {
		t.Fatal(err)
	}
}

func copyRegular(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, st.Mode().Perm()|0o444)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// copyTree copies the directory src (or the one it links to) to dst:
// directories, regular files and symbolic links, which keep their targets.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	src, err := filepath.EvalSymlinks(src)
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case d.Type().IsRegular():
			return copyRegular(p, target)
		}
		return nil // sockets, devices: not in an npm tree
	})
	if err != nil {
		t.Fatalf("copy %s: %v", src, err)
	}
}

// serverSpec is an MCP server container that serves HTTP.
type serverSpec struct {
	image string
	run   string
	cmd   []string
	env   map[string]string
	port  string // container port, "3001/tcp"
	ready string // log line that says the server listens
}

// startServer starts s with its port published on 127.0.0.1 and returns
// its base URL, http://127.0.0.1:<port>. The container is removed when t
// ends.
func startServer(t *testing.T, s serverSpec) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	port := network.MustParsePort(s.port)
	c, err := testcontainers.Run(ctx, s.image,
		testcontainers.WithCmd(s.cmd...),
		testcontainers.WithEnv(s.env),
		testcontainers.WithExposedPorts(s.port),
		testcontainers.WithLabels(map[string]string{runLabel: s.run}),
		testcontainers.WithHostConfigModifier(func(hc *container.HostConfig) {
			// docker-init as PID 1: node ignores SIGTERM as PID 1, which
			// would make every stop wait for the kill timeout.
			init := true
			hc.Init = &init
			// Loopback only, whatever the engine's default address.
			hc.PortBindings = network.PortMap{port: {{HostIP: netip.MustParseAddr("127.0.0.1")}}}
		}),
		testcontainers.WithWaitStrategy(wait.ForLog(s.ready).WithStartupTimeout(time.Minute)),
	)
	testcontainers.CleanupContainer(t, c)
	if err != nil {
		t.Fatalf("start %s %v: %v", s.image, s.cmd, err)
	}
	host, err := c.Host(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !isLoopback(host) {
		t.Fatalf("container host = %q, want loopback", host)
	}
	mapped, err := c.MappedPort(ctx, s.port)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("http://127.0.0.1:%d", mapped.Num())
}

// runContainers lists the containers of this run, running or not.
func runContainers(t *testing.T, p *testcontainers.DockerProvider, run string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := p.Client().ContainerList(ctx, client.ContainerListOptions{
		All: true, Filters: make(client.Filters).Add("label", runLabel+"="+run),
	})
	if err != nil {
		t.Fatalf("list containers: %v", err)
	}
	var ids []string
	for _, c := range res.Items {
		ids = append(ids, fmt.Sprintf("%s %s %s", c.ID[:12], c.Image, c.State))
	}
	return ids
}

// removeLeftovers removes every container of this run still there, so that
// a failed test never leaves one behind.
func removeLeftovers(t *testing.T, p *testcontainers.DockerProvider, run string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := p.Client().ContainerList(ctx, client.ContainerListOptions{
		All: true, Filters: make(client.Filters).Add("label", runLabel+"="+run),
	})
	if err != nil {
		t.Errorf("list containers: %v", err)
		return
	}
	for _, c := range res.Items {
		if _, err := p.Client().ContainerRemove(ctx, c.ID, client.ContainerRemoveOptions{Force: true}); err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("remove container %s: %v", c.ID[:12], err)
		}
	}
}
