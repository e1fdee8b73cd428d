#!/usr/bin/env bash
# CI: rafkit in real Chromium. Installs Debian's chromium (idempotent), builds the packages, then runs the
# browser harness (apps/browser-demo): OPFS conformance in a worker, the async class, File reads, Web Locks
# between workers and pages, JDK interop both ways, the demo. Ends with "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v chromium >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=600 chromium
fi
for tool in java javac; do
  command -v "$tool" >/dev/null 2>&1 || { echo "browser.sh: $tool (a JDK) is needed on PATH: interop and the demo's .class case" >&2; exit 1; }
done

export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
[ -d node_modules ] || pnpm install --frozen-lockfile
pnpm turbo run build --filter=@rafkit/browser-demo... --output-logs=errors-only
pnpm test:browser
