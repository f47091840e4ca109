#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Installs the Debian packages tmacg builds and tests with, only those missing.
# Idempotent: a second run installs nothing and exits 0.
set -eu

# libevent: --listen's HTTP server (evhttp; static archives for `make static`).
# prometheus: promtool and the server for the metrics and dashboard tests; on a
# systemd host Debian also starts it on :9090 (systemctl disable --now prometheus).
PKGS="make gcc clang llvm libclang-rt-14-dev bpftool libbpf-dev libelf-dev zlib1g-dev \
libpfm4-dev libjson-c-dev libcmocka-dev pkg-config jq linux-perf iproute2 python3 \
libevent-dev prometheus tmux"
# The house format (.clang-format) is written for clang-format 19.
PKGS="$PKGS clang-format-19"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
# Node.js and npm validate the Kubernetes manifests offline.  Some images ship
# them outside Debian's packages (with npm bundled), so ask for the commands.
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
if [ -n "$missing" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "install-deps: missing packages:$missing; run as root (sudo $0)" >&2
		exit 1
	fi
	echo "install-deps: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# The manifest validator's npm packages, exactly as locked.  `npm ci` wipes and
# reinstalls node_modules, so it runs only when they are missing or the lock
# changed since the last install (a hash of the lock it installed from is
# kept in node_modules).
deploy_tests="$(cd "$(dirname "$0")/.." && pwd)/tests/deploy"
stamp="$deploy_tests/node_modules/.tmacg-lock.sha256"
want=$(sha256sum "$deploy_tests/package-lock.json" | cut -d' ' -f1)
if [ ! -d "$deploy_tests/node_modules" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	echo "install-deps: npm ci --prefix tests/deploy"
	npm ci --prefix "$deploy_tests" --no-audit --no-fund --loglevel=error >/dev/null
	echo "$want" >"$stamp"
fi
