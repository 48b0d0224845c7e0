#!/usr/bin/env bash
# Runs govulncheck (pinned) over every Go module.
set -euo pipefail
usage() { echo "usage: scripts/vuln.sh"; }
[[ "${1:-}" == "--help" ]] && { usage; exit 0; }
cd "$(dirname "$0")/.."
GOVULNCHECK="golang.org/x/vuln/cmd/govulncheck@v1.9.0"
status=0
for m in features fixtures fakes conformance reference tools; do
  echo "== govulncheck ${m}"
  (cd "${m}" && GOWORK=off go run "${GOVULNCHECK}" ./...) || status=1
done
exit "${status}"
