# Code Mode Kit. The two entry points:
#   make conformance   the main job: the conformance suite against the embedded reference
#   make test          the docs check and every module's tests with -race (the
#                      container tier under a Docker engine scripts/with-docker.sh
#                      provides); the reference's tests run the whole suite against
#                      it in process (guests in workers and in process), over the
#                      driver and over the gateway, and conform's test runs the main
#                      job's command on one feature
# Both install what they need: the pinned quickjs-wasi wasm and the real MCP
# servers through npm lockfiles, the go-sdk example server at a pinned version.

GO      ?= go
MODULES := features fixtures conformance/wire fakes conformance reference reference/quickjswasm reference/codemodetest tools
WASM    := reference/node_modules/quickjs-wasi/quickjs.wasm
EMBEDDED_WASM := reference/quickjswasm/blob/quickjs.wasm
REPORT  ?= reports/reference
MCP_DIR := fixtures/mcp
MCP_NPM := $(MCP_DIR)/node_modules/.package-lock.json
GOSDK_VERSION := v1.8.0
GOSDK_HELLO   := $(MCP_DIR)/bin/.go-sdk-hello-$(GOSDK_VERSION)

.PHONY: all conformance test deps vet fmt-check clean help

# help lists the targets with their one-line descriptions (the "## " text
# after each target's prerequisites).
help: ## list the targets
	@grep -E '^[a-z][a-z0-9-]*:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z0-9-]+):.*## (.*)/\1\t\2/' | expand -t 24

all: test

deps: $(WASM) $(EMBEDDED_WASM) mcp-fixtures ## install the pinned quickjs-wasi wasm and the real MCP servers (npm lockfiles)

$(WASM): reference/package.json reference/package-lock.json
	cd reference && npm ci --ignore-scripts --no-audit --no-fund
	@test -f $@
	@touch $@

# The binary the reference embeds (reference/quickjswasm), generated from
# the same pinned npm package and never committed (make wasm).
$(EMBEDDED_WASM): $(WASM)
	cd tools && $(GO) run ./cmd/genwasm
	@test -f $@

# mcp-fixtures installs the real MCP servers of the @real-mcp scenarios
# (fixtures/mcp/README.md): the pinned npm servers and the go-sdk hello example.
.PHONY: mcp-fixtures
mcp-fixtures: $(MCP_NPM) $(GOSDK_HELLO) ## install the real MCP servers of the @real-mcp scenarios

$(MCP_NPM): $(MCP_DIR)/package.json $(MCP_DIR)/package-lock.json
	cd $(MCP_DIR) && npm ci --ignore-scripts --no-audit --no-fund
	@test -f $@
	@touch $@

$(GOSDK_HELLO):
	GOBIN=$(CURDIR)/$(MCP_DIR)/bin $(GO) install github.com/modelcontextprotocol/go-sdk/examples/server/hello@$(GOSDK_VERSION)
	@touch $@

# CONFORMANCE_CONCURRENCY scenarios run at once. Most of a scenario's time
# is a guest's deadline or a tool's delay, so 4 on 2 cores takes about 55 s
# against 86 s at 2; a @timing scenario that misses its deadline under that
# load runs once more, alone (CM-1.24).
CONFORMANCE_CONCURRENCY ?= 4
conformance: deps ## the main job: the suite against the embedded reference (reports/reference)
	cd tools && $(GO) run ./cmd/conform --concurrency $(CONFORMANCE_CONCURRENCY) --report ../$(REPORT)

# conformance-isolations runs the suite the two ways make test leaves out:
# through `codemode serve-driver` with guests in worker processes (its
# default; make test drives it with --isolation in-process) and over the
# wire to the reference gateway with guests in process (make test runs the
# gateway with workers). As in make test, guests in process meet the
# scenarios of CM-17.15 (one long built-in call) with StrictPreemption
# only. About 15 minutes on 2 cores. CONFORM_FLAGS='--shard K/N --seed S'
# with SHARD_SUFFIX=-shard-K runs one part of each (the nightly workflow
# runs them as a matrix of shards and merges the parts).
.PHONY: conformance-isolations
conformance-isolations: deps ## the suite through the driver and over the gateway, the ways make test leaves out
	mkdir -p reports/bin
	cd reference && $(GO) build -o ../reports/bin/codemode ./cmd/codemode
	cd tools && $(GO) run ./cmd/conform --driver '../reports/bin/codemode serve-driver --isolation process' --report ../reports/driver-process$(SHARD_SUFFIX) $(CONFORM_FLAGS)
	cd tools && $(GO) run ./cmd/conform --target gateway --isolation in-process --tags '~@CM-17.15' --report ../reports/gateway-in-process$(SHARD_SUFFIX) $(CONFORM_FLAGS)
	cd tools && $(GO) run ./cmd/conform --target gateway --isolation in-process --strict-preemption --tags '@CM-17.15' --report ../reports/gateway-in-process-strict$(SHARD_SUFFIX) $(CONFORM_FLAGS)

# The module tests run with a Docker engine for the container tier of the
# real MCP servers (reference/codemodetest/containers_test.go):
# scripts/with-docker.sh reuses an engine that answers or starts a private
# one (installing docker.io as root), and stops what it started.
test: deps vet fmt-check check-docs ## the docs check and every module's tests with -race (starts a Docker engine)
	scripts/with-docker.sh scripts/test.sh $(MODULES)

vet: ## go vet every module
	@for m in $(MODULES); do (cd $$m && GOWORK=off $(GO) vet ./...) || exit 1; done

fmt-check: ## fail on files gofmt would change
	@out=$$(gofmt -l $(MODULES)); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

clean: ## remove the reports and the installed wasm
	rm -rf reports reference/node_modules

# fuzz runs every go test -fuzz target of every module for FUZZTIME each
# (default 10s) and prints each target's executions and a summary table
# (scripts/fuzz.sh; FUZZ_MATCH selects targets, FUZZ_SUMMARY writes the
# table to a file). A crasher fails it and stays under testdata/fuzz/.
FUZZTIME ?= 10s
.PHONY: fuzz
fuzz: deps ## run every fuzz target for FUZZTIME
	FUZZTIME=$(FUZZTIME) scripts/fuzz.sh

# bench measures the reference against OpenClaw's runtime, side by side
# (tools/cmd/cmbench: the reference in process against a Node harness that
# runs quickjs-wasi the way OpenClaw does) and rewrites BENCHMARKS.md and
# docs/bench/*.png at the root; it takes a few minutes and is not part of
# make test. BENCHMARKS.md names the reference/ tree it measured:
# `cd tools && go run ./cmd/cmbench -root .. -check` warns (exit 1) when
# that is not HEAD's, and make bench regenerates it. It also compares the
# same trivial exec turn through the reference gateway and through
# OpenClaw 2026.8.1-beta.1's (installed from npm on first use, run in a
# loopback-only network namespace: unshare -n); -gateway 0 skips that.
# BENCH_FLAGS passes flags, for example
# BENCH_FLAGS='-workloads trivial -iterations 5 -gateway 0'.
BENCH_FLAGS ?=
.PHONY: bench
bench: deps ## the benchmarks, side by side (reference/BENCHMARKS.md)
	cd tools && $(GO) run ./cmd/cmbench -root .. $(BENCH_FLAGS)

# mutate measures the suite's strength by mutation testing
# (tools/cmd/mutate): gremlins (pinned in the command) finds the mutants of
# the reference's internal packages, a seeded sample is taken, and the
# in-process suite runs against each mutant (a build overlay). It writes the
# score and the surviving mutants to docs/mutation.md; survivors that no
# behaviour can tell from the original go in docs/mutation-equivalent.txt
# with the reason. Slow: a build and up to a suite run per mutant. Not part
# of make test. MUTATE_FLAGS passes flags, for example
# MUTATE_FLAGS='-size 150 -seed 1 -packages cell,config'; a sample can be
# judged in parts with -budget 60m, then -resume (reports/mutation.json),
# -rejudge judges the survivors again once scenarios were added, and -report
# writes the score again after equivalents were recorded.
MUTATE_FLAGS ?=
.PHONY: mutate
mutate: deps ## mutation score of a seeded sample (MUTATE_FLAGS; docs/mutation.md)
	cd tools && $(GO) run ./cmd/mutate $(MUTATE_FLAGS)

# status regenerates docs/conformance-status.md from the run reports under
# reports/ (make conformance, conformance-isolations, conformance-merge)
# and the committed baselines; a test checks its baselines section.
.PHONY: status
status: ## regenerate docs/conformance-status.md from reports/*/report.json and the baselines
	cd tools && $(GO) run ./cmd/conform status --out ../docs/conformance-status.md $(addprefix ../,$(wildcard reports/*/report.json))

# wasm regenerates the embedded reference/quickjswasm/quickjs.wasm from the
# npm package reference/package-lock.json pins (tools/cmd/genwasm: npm pack,
# the lockfile's integrity hash, quickjswasm.SHA256); WASM_FLAGS=-check
# compares instead of writing.
.PHONY: wasm
wasm: ## regenerate the embedded quickjs.wasm from the pinned npm package
	cd tools && $(GO) run ./cmd/genwasm $(WASM_FLAGS)

# conformance-openclaw runs the suite against the published OpenClaw
# (conformance/openclaw): it installs OPENCLAW_VERSION with its Node build
# from the npm registry into the cache on first use
# (scripts/openclaw-install.sh, pinned by fixtures/openclaw/<version>/),
# then runs OpenClaw in a loopback-only network namespace (unshare -n).
# Slow (a gateway start is 10 s to a minute, a scenario several seconds)
# and not part of make test. OPENCLAW_FLAGS narrows it, for example
# OPENCLAW_FLAGS='--profile core --path 04-model-visible-tools.feature'.
# OPENCLAW_VERSION picks a pinned release: 2026.8.1-beta.1 (Era B) or
# 2026.9.6 (Era C); each has its baseline in conformance/baselines/.
# OPENCLAW_FLAGS='--shard K/N --seed S' runs one part of a split run, and
# conformance-merge MERGE_DIRS='reports/a reports/b ...' combines the parts'
# reports (the openclaw workflow runs a release as 8 shards, balanced by
# fixtures/openclaw/<version>/durations.json: conform durations writes it
# from a merged report, conform plan shows the split it gives).
OPENCLAW_VERSION ?= 2026.8.1-beta.1
OPENCLAW_FLAGS ?=
OPENCLAW_REPORT ?= reports/openclaw-$(OPENCLAW_VERSION)
.PHONY: conformance-openclaw
conformance-openclaw: mcp-fixtures ## the suite against OPENCLAW_VERSION of the published OpenClaw (with the real MCP servers its @real-mcp scenarios run)
	cd tools && $(GO) run ./cmd/conform --target openclaw --openclaw-version $(OPENCLAW_VERSION) --report ../$(OPENCLAW_REPORT) $(OPENCLAW_FLAGS)

# conformance-merge merges the reports of a split run's shards, each a
# directory of MERGE_DIRS (relative to the repository), into REPORT.
MERGE_DIRS ?=
.PHONY: conformance-merge
conformance-merge: ## merge the shard reports of MERGE_DIRS into REPORT
	cd tools && $(GO) run ./cmd/conform merge --report ../$(REPORT) $(addprefix ../,$(MERGE_DIRS))

# smoke-openclaw is the OpenClaw smoke test that CI runs after make test
# (.ci/run); make test does not need it. It installs OpenClaw
# 2026.8.1-beta.1 with its Node build from the npm registry into the cache
# (scripts/openclaw-install.sh: about 820 MB, 62 s from an empty npm cache
# on the reference machine) and runs one scenario against it
# (conformance/openclaw TestSmoke, 04-model-visible-tools.feature:98, about
# 35 s with the gateway's start) in a loopback-only network namespace.
.PHONY: smoke-openclaw
smoke-openclaw: ## one scenario against the published OpenClaw (CI runs it after make test)
	scripts/openclaw-install.sh 2026.8.1-beta.1
	cd conformance && CODEMODEKIT_OPENCLAW=1 $(GO) test -count 1 -timeout 5m -run '^TestSmoke$$' -v ./openclaw/

# check-docs is the documentation check (tools/cmd/checkdocs): every SPEC
# clause has a scenario or a written exclusion, the configuration table
# matches the reference, js/ts/go/json blocks parse, relative links resolve,
# and docs/traceability.md is current. CHECKDOCS_FLAGS=-update rewrites it.
CHECKDOCS_FLAGS ?=
.PHONY: check-docs
check-docs: ## the docs check: SPEC clauses, scenarios, traceability, links
	cd tools && $(GO) run ./cmd/checkdocs -root .. $(CHECKDOCS_FLAGS)
