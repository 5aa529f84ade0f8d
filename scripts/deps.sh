#!/usr/bin/env bash
# Installs everything cuzk's build and tests need on Debian 12: the Debian
# packages (apt-get; runs `apt-get update` itself when something is missing)
# and the npm packages of the test oracles (npm ci from package-lock.json).
# Idempotent: a second run with everything present does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

pkgs=(build-essential cmake pkg-config clang libclang-rt-14-dev llvm valgrind git ca-certificates
      libgrpc-dev libnghttp2-dev protobuf-c-compiler libprotobuf-c-dev python3-grpcio python3-grpc-tools
      python3-h2 curl)
# Node.js for the oracles: keep an existing node (>= 18), else Debian's.
if ! command -v node >/dev/null 2>&1; then
    pkgs+=(nodejs npm)
elif ! command -v npm >/dev/null 2>&1; then
    pkgs+=(npm)
fi

missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "deps: installing ${missing[*]}"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# npm oracles (@noble/curves, ...): reinstall only when the lockfile changed.
if [ -f package-lock.json ]; then
    stamp=node_modules/.cuzk-lock.sha256
    want=$(sha256sum package-lock.json | cut -d' ' -f1)
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
        echo "deps: npm ci"
        npm ci --no-audit --no-fund --loglevel=error
        echo "$want" > "$stamp"
    fi
fi
echo "deps: ok"
