#!/usr/bin/env bash
# Runs a clustered reference gateway on this machine (SPEC.md Appendix G):
# one NATS JetStream server and N replicas of codemode-gateway sharing it,
# all on 127.0.0.1, until Ctrl-C, which stops every process it started by
# its PID.
#
#   scripts/gateway-cluster.sh [-n N] [-port P] [-nats-port Q] -config FILE -key FILE
#
# Replica k (from 1) is named replica-k and serves on port P+k-1 (default
# P 8101); the NATS server listens on Q (default 4222) and keeps its files
# under the state directory (FILE.cluster). The gateway and the NATS server
# (the version the reference module pins) are built into .cache/bin first.
set -euo pipefail

n=3 port=8101 nats_port=4222 config="" key=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    -n) n="$2"; shift 2 ;;
    -port) port="$2"; shift 2 ;;
    -nats-port) nats_port="$2"; shift 2 ;;
    -config) config="$2"; shift 2 ;;
    -key) key="$2"; shift 2 ;;
    *) echo "gateway-cluster: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [[ -z "$config" || -z "$key" ]]; then
  echo "usage: scripts/gateway-cluster.sh [-n N] [-port P] [-nats-port Q] -config FILE -key FILE" >&2
  exit 2
fi
config="$(cd "$(dirname "$config")" && pwd)/$(basename "$config")"
key="$(cd "$(dirname "$key")" && pwd)/$(basename "$key")"

root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$root/.cache/bin"
mkdir -p "$bin"
(cd "$root/reference" && GOWORK=off go build -o "$bin/nats-server" github.com/nats-io/nats-server/v2)
(cd "$root/reference" && go build -o "$bin/codemode-gateway" ./cmd/codemode-gateway)

state="$config.cluster"
mkdir -p "$state"
pids=()
stop() {
  trap - INT TERM EXIT
  # The replicas first (the last one out removes the stored runs), then NATS.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill -TERM "${pids[$i]}" 2>/dev/null || true
    wait "${pids[$i]}" 2>/dev/null || true
  done
}
trap stop INT TERM EXIT

"$bin/nats-server" -a 127.0.0.1 -p "$nats_port" -js -sd "$state/nats" >"$state/nats.log" 2>&1 &
nats_pid=$!
for _ in $(seq 100); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$nats_port") 2>/dev/null; then break; fi
  kill -0 "$nats_pid" 2>/dev/null || { echo "gateway-cluster: the NATS server exited (see $state/nats.log)" >&2; exit 1; }
  sleep 0.1
done
echo "NATS JetStream: nats://127.0.0.1:$nats_port (pid $nats_pid)"

pids=("$nats_pid")
for k in $(seq "$n"); do
  log="$state/replica-$k.log"
  "$bin/codemode-gateway" -config "$config" -state "$state/replica-$k" -port $((port + k - 1)) \
    -cluster "nats://127.0.0.1:$nats_port" -cluster-key "$key" -cluster-name "replica-$k" >"$log" 2>&1 &
  pid=$!
  pids+=("$pid")
  for _ in $(seq 600); do
    if line="$(grep -m1 '^listening on ' "$log")"; then break; fi
    kill -0 "$pid" 2>/dev/null || { echo "gateway-cluster: replica-$k exited (see $log)" >&2; exit 1; }
    sleep 0.1
  done
  echo "replica-$k: ${line:-not listening yet} (pid $pid)"
done
echo "logs: $state/*.log; Ctrl-C stops the cluster"
wait
