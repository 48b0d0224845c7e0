#!/usr/bin/env bash
# Runs every fuzz target of every module for a fixed time each.
#   scripts/fuzz.sh [fuzztime]     default 60s per target
# A crasher fails the run; go test leaves the input under testdata/fuzz/ so
# that it becomes a regression case once committed.
set -euo pipefail
usage() { echo "usage: scripts/fuzz.sh [fuzztime, e.g. 60s]"; }
[[ "${1:-}" == "--help" ]] && { usage; exit 0; }
cd "$(dirname "$0")/.."
fuzztime="${1:-60s}"
status=0
for m in features fixtures fakes conformance reference tools; do
  # Packages with fuzz targets, and their targets.
  while IFS= read -r file; do
    dir="$(dirname "${file}")"
    for target in $(grep -oE '^func (Fuzz[A-Za-z0-9_]+)' "${m}/${file}" | awk '{print $2}'); do
      echo "== ${m}/${dir#./} ${target} (${fuzztime})"
      if ! (cd "${m}" && GOWORK=off go test -run '^$' -fuzz "^${target}\$" -fuzztime "${fuzztime}" "${dir}"); then
        status=1
      fi
    done
  done < <(cd "${m}" && grep -rlE '^func Fuzz' --include='*_test.go' . | grep -v node_modules | sort)
done
exit "${status}"
