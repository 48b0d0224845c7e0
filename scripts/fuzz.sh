#!/usr/bin/env bash
# Runs every fuzz target of every module for a bounded time each and prints
# the executions of each target, then a summary table.
#   scripts/fuzz.sh [fuzztime]      time per target: the argument, else $FUZZTIME, else 10s
#   scripts/fuzz.sh --list          list the targets (module, package, target)
# Environment:
#   FUZZTIME      time per target (go test -fuzztime syntax: 10s, 2m, 5000x)
#   FUZZ_MATCH    run only targets whose name matches this extended regex
#   FUZZ_SUMMARY  also write the summary table (Markdown) to this file
# A crasher fails the run; go test leaves the input under
# <package>/testdata/fuzz/<target>/, where it becomes a regression case of
# the package's ordinary tests once committed.
set -euo pipefail
usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; }
cd "$(dirname "$0")/.."
list=0
case "${1:-}" in
  --help|-h) usage; exit 0 ;;
  --list) list=1; shift ;;
esac
fuzztime="${1:-${FUZZTIME:-10s}}"
match="${FUZZ_MATCH:-.}"

# targets prints "module package target" for every fuzz target, sorted.
targets() {
  for m in features fixtures fakes conformance reference tools; do
    (cd "${m}" && { grep -rlE '^func Fuzz' --include='*_test.go' . || true; } | { grep -v node_modules || true; } | sort) | while IFS= read -r file; do
      dir="$(dirname "${file}")"
      grep -oE '^func (Fuzz[A-Za-z0-9_]+)' "${m}/${file}" | awk '{print $2}' | while IFS= read -r t; do
        echo "${m} ${dir} ${t}"
      done
    done
  done
}

if [[ "${list}" == 1 ]]; then
  targets | awk -v re="${match}" '$3 ~ re' 
  exit 0
fi

status=0
rows=()
log="$(mktemp)"
trap 'rm -f "${log}"' EXIT
while read -r m dir t; do
  [[ "${t}" =~ ${match} ]] || continue
  pkg="${m}/${dir#./}"
  echo "== ${pkg} ${t} (${fuzztime})"
  start=$(date +%s)
  if (cd "${m}" && GOWORK=off go test -run '^$' -fuzz "^${t}\$" -fuzztime "${fuzztime}" "${dir}") >"${log}" 2>&1; then
    result=ok
  else
    result=FAIL
    status=1
  fi
  secs=$(( $(date +%s) - start ))
  # go test -fuzz reports "fuzz: elapsed: 10s, execs: 12345 (1234/sec), ..."
  # as it goes; the last such line holds the total.
  execs="$(grep -oE 'execs: [0-9]+' "${log}" | tail -1 | awk '{print $2}')"
  execs="${execs:-0}"
  if [[ "${result}" == FAIL ]]; then
    cat "${log}"
  else
    tail -n 2 "${log}"
  fi
  echo "-- ${pkg} ${t}: ${result}, ${execs} execs in ${secs}s"
  rows+=("| \`${pkg}\` | \`${t}\` | ${fuzztime} | ${execs} | ${result} |")
done < <(targets)

{
  echo
  echo "| package | target | fuzztime | execs | result |"
  echo "| --- | --- | --- | --- | --- |"
  printf '%s\n' "${rows[@]}"
} | tee "${FUZZ_SUMMARY:-/dev/null}"
exit "${status}"
