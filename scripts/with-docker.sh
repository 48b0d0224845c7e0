#!/usr/bin/env bash
# Runs a command with a Docker engine for the container tier of the tests.
#   scripts/with-docker.sh CMD [ARG...]
# It starts an engine with scripts/dockerd.sh (or reuses one that answers),
# runs CMD with DOCKER_HOST set, and stops the engine it started when CMD ends,
# with CMD's exit status. When no engine can be had, CMD still runs: the
# container tests skip, except in CI (CI set), where they fail.
# testcontainers-go always runs with TESTCONTAINERS_RYUK_DISABLED=true (the
# Ryuk image cannot be pulled or built here; the tests remove their own
# containers) and TESTCONTAINERS_HOST_OVERRIDE=localhost (without it,
# testcontainers takes the default gateway for the Docker host on machines
# with /.dockerenv and sends traffic off the machine).
set -euo pipefail
usage() { echo "usage: scripts/with-docker.sh CMD [ARG...]"; }
[[ "${1:-}" == "--help" ]] && { usage; exit 0; }
[[ $# -eq 0 ]] && { usage >&2; exit 2; }
here="$(cd "$(dirname "$0")" && pwd -P)"

export TESTCONTAINERS_RYUK_DISABLED=true
export TESTCONTAINERS_HOST_OVERRIDE=localhost

# Nested under another with-docker.sh: its engine is ours to use, not to stop.
if [[ -n "${CODEMODE_WITH_DOCKER:-}" ]]; then
  exec "$@"
fi
export CODEMODE_WITH_DOCKER=1

unset CODEMODE_DOCKERD_PID
if env="$("${here}/dockerd.sh" start)"; then
  eval "${env}"
else
  echo "with-docker.sh: no Docker engine; the container tests skip (and fail in CI)" >&2
fi

stop_engine() {
  if [[ -n "${CODEMODE_DOCKERD_PID:-}" ]]; then
    "${here}/dockerd.sh" stop || echo "with-docker.sh: stopping the engine failed" >&2
    CODEMODE_DOCKERD_PID=""
  fi
}
trap stop_engine EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

status=0
"$@" || status=$?
stop_engine
exit "${status}"
