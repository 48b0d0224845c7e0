#!/usr/bin/env bash
# Runs every module's tests with the race detector, each with GOWORK=off so a
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

heartbeat=""
stop_heartbeat() { [[ -n "${heartbeat}" ]] && kill "${heartbeat}" 2>/dev/null; heartbeat=""; }
trap stop_heartbeat EXIT
for m in "${modules[@]}"; do
  echo "== go test -race ${m}"
  started=$(date +%s)
  ( while sleep 30; do echo "   ... ${m}: still running after $(( $(date +%s) - started ))s"; done ) &
  heartbeat=$!
  status=0
  (cd "${m}" && GOWORK=off "${gotestsum}" --format testname --junitfile "${root}/reports/junit/${m//\//-}.xml" \
    -- -race -count=1 -timeout 40m ./...) || status=$?
  stop_heartbeat
  if [[ ${status} -ne 0 ]]; then
    exit "${status}"
  fi
done
