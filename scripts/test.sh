#!/usr/bin/env bash
# Runs every module's tests with the race detector (but the whole-suite runs
# over the wire, below), each with GOWORK=off so a
# missing requirement cannot hide behind the workspace, through gotestsum
# (pinned; installed into .cache/bin on first use): one line per test as it
# ends, the output of the tests that fail, and a JUnit file per module in
# reports/junit/. A line every 30 s says which module is still running, so a
# long test is never silence.
set -euo pipefail
usage() { echo "usage: scripts/test.sh [module ...]"; }
[[ "${1:-}" == "--help" ]] && { usage; exit 0; }
cd "$(dirname "$0")/.."
root="$(pwd -P)"
modules=("$@")
[[ ${#modules[@]} -eq 0 ]] && modules=(features fixtures conformance/wire fakes conformance reference reference/quickjswasm reference/codemodetest tools)

GOTESTSUM_VERSION=v1.13.0
gotestsum="${root}/.cache/bin/gotestsum-${GOTESTSUM_VERSION}"
if [[ ! -x "${gotestsum}" ]]; then
  mkdir -p "${root}/.cache/bin"
  GOBIN="${root}/.cache/bin" GOWORK=off go install "gotest.tools/gotestsum@${GOTESTSUM_VERSION}"
  mv "${root}/.cache/bin/gotestsum" "${gotestsum}"
fi
mkdir -p "${root}/reports/junit"

# The whole-suite module (reference/codemodetest, the long pole) starts
# first and runs beside the others, as its tests ran beside the runtime's
# when they were one module: its lines carry its name. The rest run one
# module after another and stop at the first failure. Then, beside the
# whole-suite module still running, its suites over the wire (the gateway,
# the driver, and the cluster profile on three replicas): without -race,
# under which they skip, since the race
# detector sees only the test process and these suites spend it on
# processes built without it (reference/codemodetest/wire_test.go).
long="reference/codemodetest"
wire_tests='^(TestConformanceGateway|TestConformanceDriver|TestConformanceCluster)$'

# test_module runs one module's tests: with -race, or with the go test
# flags given after the module.
test_module() {
  local m="$1"
  shift
  local junit="${m//\//-}"
  local flags=(-race -count=1 -timeout 40m ./...)
  if [[ $# -gt 0 ]]; then
    junit="${junit}-wire"
    flags=("$@")
  fi
  (cd "${m}" && GOWORK=off "${gotestsum}" --format testname --junitfile "${root}/reports/junit/${junit}.xml" \
    -- "${flags[@]}")
}

# Background jobs get process groups of their own (set -m), so that stopping
# one stops its go test and test binaries too.
set -m
pids=()
stop_all() { for p in "${pids[@]}"; do kill -- "-${p}" 2>/dev/null || true; done; }
trap stop_all EXIT
started=$(date +%s)
( while sleep 30; do echo "   ... still running after $(( $(date +%s) - started ))s"; done ) &
pids+=($!)

long_pid=""
long_rc="$(mktemp)"
for m in "${modules[@]}"; do
  if [[ "${m}" == "${long}" ]]; then
    echo "== go test -race ${m} (beside the others)"
    ( if test_module "${m}" 2>&1 | sed -u "s#^#[${m}] #"; then echo 0 > "${long_rc}"; else echo 1 > "${long_rc}"; fi ) &
    long_pid=$!
    pids+=("${long_pid}")
  fi
done
for m in "${modules[@]}"; do
  [[ "${m}" == "${long}" ]] && continue
  echo "== go test -race ${m}"
  test_module "${m}"
  if [[ "${m}" == "reference" ]]; then
    # A JetStream cluster in one process elects its leaders too slowly
    # under the race detector, so its tests skip there and run here.
    echo "== go test reference/internal/cluster -run threeServers (without -race)"
    test_module "${m}" -count=1 -timeout 10m -run threeServers ./internal/cluster/
  fi
done
if [[ -n "${long_pid}" ]]; then
  echo "== go test ${long} -run '${wire_tests}' (without -race, beside the rest of ${long})"
  # One suite at a time (-parallel 1): both beside the race run overload
  # two cores, and its memory-heavy guests then miss their deadlines.
  test_module "${long}" -count=1 -timeout 40m -parallel 1 -run "${wire_tests}" . 2>&1 | sed -u "s#^#[${long} wire] #"
  echo "== waiting for ${long}"
  wait "${long_pid}" || true
  status="$(cat "${long_rc}")"
  rm -f "${long_rc}"
  if [[ "${status}" != "0" ]]; then
    echo "== ${long} failed"
    exit 1
  fi
fi
echo "== every module passed in $(( $(date +%s) - started ))s"
