#!/usr/bin/env bash
# Runs every module's tests with the race detector, each with GOWORK=off so a
# missing requirement cannot hide behind the workspace.
set -euo pipefail
usage() { echo "usage: scripts/test.sh [module ...]"; }
[[ "${1:-}" == "--help" ]] && { usage; exit 0; }
cd "$(dirname "$0")/.."
modules=("$@")
[[ ${#modules[@]} -eq 0 ]] && modules=(features fixtures fakes conformance reference reference/quickjswasm tools)
for m in "${modules[@]}"; do
  echo "== go test -race ${m}"
  (cd "${m}" && GOWORK=off go test -race -count=1 -timeout 40m ./...)
done
