#!/usr/bin/env bash
# A private Docker engine for the container tier of the tests
# (reference/codemodetest/containers_test.go).
#   scripts/dockerd.sh start    print `export DOCKER_HOST=…` for a reachable engine,
#                               starting one if none answers
#   scripts/dockerd.sh stop     stop the engine `start` started, restore the host
#   scripts/dockerd.sh status   say which engine answers
# start reuses an engine that already answers `docker info` (DOCKER_HOST or the
# default socket) and never stops it. Otherwise, as root, it installs docker.io
# with apt when dockerd is missing and starts dockerd with everything of its own
# under one temporary directory: data root, exec root, pid file, config file
# and unix socket. Published ports bind 127.0.0.1 only, and the engine neither
# writes firewall rules nor enables IP forwarding (--iptables=false
# --ip-forward=false): containers reach nothing beyond their host, and the host
# reaches them through docker-proxy on loopback. stop removes the engine's
# containers, kills the engine by its recorded PID, deletes the docker0 bridge
# if it created it, and puts ip_forward and the nft/iptables ruleset back as
# start found them. Nothing here matches processes by name.
set -euo pipefail
usage() {
  cat <<'EOF'
usage: scripts/dockerd.sh start|stop|status
  start    print `export DOCKER_HOST=…` (and CODEMODE_DOCKERD_PID when it started
           the engine) for an engine that answers; start one if none does
  stop     stop the engine that start started and restore the host
  status   report which engine answers
The state directory is $CODEMODE_DOCKERD_DIR, by default a directory of this
checkout's own under ${TMPDIR:-/tmp}.
EOF
}
cd "$(dirname "$0")/.."
repo="$(pwd -P)"
state="${CODEMODE_DOCKERD_DIR:-${TMPDIR:-/tmp}/codemodekit-dockerd-$(printf %s "${repo}" | cksum | cut -d' ' -f1)}"
sock="${state}/docker.sock"
own_host="unix://${sock}"
log() { echo "dockerd.sh: $*" >&2; }

# answers HOST: whether an engine answers `docker info` at HOST ("" for the
# client's default).
answers() {
  command -v docker >/dev/null 2>&1 || return 1
  if [[ -n "$1" ]]; then
    DOCKER_HOST="$1" timeout 10 docker info >/dev/null 2>&1
  else
    (unset DOCKER_HOST; timeout 10 docker info >/dev/null 2>&1)
  fi
}

# own_pid prints the PID of the engine start started, if it still runs.
own_pid() {
  local pid
  [[ -f "${state}/pid" ]] || return 1
  pid="$(cat "${state}/pid")"
  [[ "${pid}" =~ ^[0-9]+$ ]] && kill -0 "${pid}" 2>/dev/null || return 1
  echo "${pid}"
}

# save_ruleset FILE writes the firewall ruleset: nft's when nft exists, else
# iptables-save and ip6tables-save; nothing when neither is installed.
save_ruleset() {
  if command -v nft >/dev/null 2>&1; then
    nft list ruleset >"$1"
  elif command -v iptables-save >/dev/null 2>&1; then
    { iptables-save; ip6tables-save; } 2>/dev/null | grep -v '^#' | sed -E 's/\[[0-9]+:[0-9]+\]/[0:0]/' >"$1"
  else
    : >"$1"
  fi
}

# restore_ruleset puts back the ruleset saved at start when it changed.
restore_ruleset() {
  local before="${state}/ruleset.before" now="${state}/ruleset.now"
  [[ -f "${before}" ]] || return 0
  save_ruleset "${now}"
  if cmp -s "${before}" "${now}"; then
    return 0
  fi
  log "the firewall ruleset changed; restoring it"
  if command -v nft >/dev/null 2>&1 && [[ "$(cat "${state}/ruleset.tool" 2>/dev/null)" == nft ]]; then
    nft flush ruleset
    [[ -s "${before}" ]] && nft -f "${before}"
  elif command -v iptables-restore >/dev/null 2>&1; then
    local t
    for t in filter nat mangle raw; do
      iptables -t "${t}" -F 2>/dev/null || true
      iptables -t "${t}" -X 2>/dev/null || true
    done
    iptables -P FORWARD ACCEPT 2>/dev/null || true
    if [[ -s "${before}" ]]; then
      awk '/^\*/{p=/^\*(filter|nat|mangle|raw|security)$/} p' "${before}" | iptables-restore || true
    fi
  fi
}

start() {
  # An engine the caller points at is the caller's, even one started by an
  # earlier `eval "$(scripts/dockerd.sh start)"`: it is not stopped.
  if [[ -n "${DOCKER_HOST:-}" ]] && answers "${DOCKER_HOST}"; then
    log "using the engine at DOCKER_HOST=${DOCKER_HOST}; it is not stopped"
    printf 'export DOCKER_HOST=%q\n' "${DOCKER_HOST}"
    return 0
  fi
  local pid
  if pid="$(own_pid)" && answers "${own_host}"; then
    log "an engine this script started earlier (PID ${pid}) still runs; reusing it, to be stopped"
    printf 'export DOCKER_HOST=%q\nexport CODEMODE_DOCKERD_PID=%q\n' "${own_host}" "${pid}"
    return 0
  fi
  if [[ -z "${DOCKER_HOST:-}" ]] && answers ""; then
    log "using the engine at the default socket; it is not stopped"
    return 0
  fi
  if [[ "$(id -u)" != 0 ]]; then
    log "no Docker engine answers and this is not root: cannot start one"
    return 1
  fi
  if [[ -f "${state}/pid" ]]; then
    log "cleaning up after an engine that did not stop"
    stop
  fi
  local t0=${SECONDS}
  if ! command -v dockerd >/dev/null 2>&1; then
    if ! command -v apt-get >/dev/null 2>&1; then
      log "dockerd is missing and there is no apt-get to install docker.io"
      return 1
    fi
    # nftables too: nft saves and restores the whole ruleset exactly.
    log "installing docker.io and nftables with apt"
    local aptlog
    aptlog="$(mktemp)"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io nftables; } >"${aptlog}" 2>&1; then
      tail -n 30 "${aptlog}" >&2
      rm -f "${aptlog}"
      log "apt-get install docker.io failed"
      return 1
    fi
    rm -f "${aptlog}"
    log "installed docker.io in $((SECONDS - t0)) s"
  fi

  mkdir -p "${state}/data" "${state}/exec"
  chmod 700 "${state}"
  cat /proc/sys/net/ipv4/ip_forward >"${state}/ip_forward.before"
  if ip link show docker0 >/dev/null 2>&1; then echo present; else echo absent; fi >"${state}/docker0.before"
  if [[ -e /etc/docker/key.json ]]; then echo present; else echo absent; fi >"${state}/key.before"
  if [[ -e /run/docker ]]; then echo present; else echo absent; fi >"${state}/rundir.before"
  if command -v nft >/dev/null 2>&1; then echo nft; else echo iptables; fi >"${state}/ruleset.tool"
  save_ruleset "${state}/ruleset.before"
  echo '{}' >"${state}/daemon.json"

  # setsid: a Ctrl-C at the terminal reaches the caller, whose trap stops the
  # engine in order, not dockerd directly.
  setsid dockerd \
    --config-file "${state}/daemon.json" \
    --data-root "${state}/data" \
    --exec-root "${state}/exec" \
    --pidfile "${state}/dockerd.pid" \
    --host "${own_host}" \
    --ip 127.0.0.1 \
    --iptables=false \
    --ip-forward=false \
    </dev/null >"${state}/dockerd.log" 2>&1 &
  pid=$!
  echo "${pid}" >"${state}/pid"
  local deadline=$((SECONDS + 60))
  until answers "${own_host}"; do
    if ! kill -0 "${pid}" 2>/dev/null || ((SECONDS >= deadline)); then
      log "dockerd did not come up; its log ends with:"
      tail -n 20 "${state}/dockerd.log" >&2 || true
      stop
      return 1
    fi
    sleep 0.2
  done
  log "started dockerd (PID ${pid}) at ${own_host} in $((SECONDS - t0)) s"
  printf 'export DOCKER_HOST=%q\nexport CODEMODE_DOCKERD_PID=%q\n' "${own_host}" "${pid}"
}

stop() {
  if [[ ! -d "${state}" ]]; then
    log "no engine was started by this script"
    return 0
  fi
  local pid
  if pid="$(own_pid)"; then
    if answers "${own_host}"; then
      local ids
      ids="$(DOCKER_HOST="${own_host}" docker ps -aq 2>/dev/null || true)"
      if [[ -n "${ids}" ]]; then
        log "removing leftover containers: ${ids//$'\n'/ }"
        # shellcheck disable=SC2086
        DOCKER_HOST="${own_host}" timeout 60 docker rm -f ${ids} >/dev/null 2>&1 || true
      fi
    fi
    kill -TERM "${pid}" 2>/dev/null || true
    local deadline=$((SECONDS + 30))
    while kill -0 "${pid}" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
    if kill -0 "${pid}" 2>/dev/null; then
      log "dockerd (PID ${pid}) ignored SIGTERM for 30 s; killing it"
      kill -KILL "${pid}" 2>/dev/null || true
      sleep 0.5
    fi
    log "stopped dockerd (PID ${pid})"
  fi
  # The containerd dockerd started stops with it; if dockerd was killed, stop
  # it by the PID it recorded.
  local cpidf="${state}/exec/containerd/containerd.pid" cpid
  if [[ -f "${cpidf}" ]]; then
    cpid="$(cat "${cpidf}")"
    if [[ "${cpid}" =~ ^[0-9]+$ ]] && kill -0 "${cpid}" 2>/dev/null \
      && tr '\0' ' ' <"/proc/${cpid}/cmdline" 2>/dev/null | grep -qF "${state}"; then
      kill -TERM "${cpid}" 2>/dev/null || true
      sleep 1
      kill -0 "${cpid}" 2>/dev/null && kill -KILL "${cpid}" 2>/dev/null || true
    fi
  fi
  # Mounts left under the state directory (only after a killed engine).
  local m
  while read -r m; do
    umount -l "${m}" 2>/dev/null || true
  done < <(awk -v s="${state}/" 'index($2, s) == 1 {print $2}' /proc/mounts | sort -r)

  if [[ "$(cat "${state}/docker0.before" 2>/dev/null)" == absent ]] && ip link show docker0 >/dev/null 2>&1; then
    ip link del docker0 || log "could not delete the docker0 bridge"
  fi
  local before
  before="$(cat "${state}/ip_forward.before" 2>/dev/null || true)"
  if [[ -n "${before}" && "$(cat /proc/sys/net/ipv4/ip_forward)" != "${before}" ]]; then
    echo "${before}" >/proc/sys/net/ipv4/ip_forward
  fi
  restore_ruleset
  # dockerd's identity key and plugin directory, when it made them.
  if [[ "$(cat "${state}/key.before" 2>/dev/null)" == absent ]]; then
    rm -f /etc/docker/key.json
  fi
  if [[ "$(cat "${state}/rundir.before" 2>/dev/null)" == absent ]]; then
    rmdir /run/docker/plugins /run/docker 2>/dev/null || true
  fi
  rm -rf "${state}"
}

status() {
  local pid
  if pid="$(own_pid)"; then
    if answers "${own_host}"; then
      echo "running: dockerd PID ${pid} at ${own_host} (started by this script)"
      return 0
    fi
    echo "starting or broken: dockerd PID ${pid} at ${own_host} does not answer"
    return 1
  fi
  if [[ -n "${DOCKER_HOST:-}" ]] && answers "${DOCKER_HOST}"; then
    echo "external: the engine at DOCKER_HOST=${DOCKER_HOST} answers"
    return 0
  fi
  if [[ -z "${DOCKER_HOST:-}" ]] && answers ""; then
    echo "external: the engine at the default socket answers"
    return 0
  fi
  echo "none: no Docker engine answers"
  [[ -d "${state}" ]] && echo "state left at ${state}: run scripts/dockerd.sh stop"
  return 1
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  --help | -h) usage ;;
  *) usage >&2; exit 2 ;;
esac
