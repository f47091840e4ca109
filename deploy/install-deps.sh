#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Installs the Debian packages tmacg needs, only those missing.
#   deploy/install-deps.sh          what building and running tmacg needs (make, make run)
#   deploy/install-deps.sh --test   that, and what its tests need (make test, .ci/run)
#   --list                          prints what it would install, installs nothing
# Idempotent: a second run installs nothing and exits 0.
set -eu

tests=0 list=0
for arg in "$@"; do
	case "$arg" in
	--test) tests=1 ;;
	--list) list=1 ;;
	*)
		echo "usage: $0 [--test] [--list]" >&2
		exit 2
		;;
	esac
done

# libevent: --listen's HTTP server (evhttp; static archives for `make static`).
PKGS="make gcc clang llvm bpftool libbpf-dev libelf-dev zlib1g-dev libpfm4-dev \
libjson-c-dev pkg-config libevent-dev"
# Test-only: cmocka (the test programs), the sanitizer and fuzzer runtimes, perf and
# jq (the bench's comparisons), tmux (the live view's tests), python3 (the importer's
# tests), groff-base (the manual page's check), clang-format-19 (the house format,
# .clang-format), and Debian's prometheus for promtool and the server the metrics and
# dashboard tests run.  On a systemd host Debian also starts that server on :9090
# (systemctl disable --now prometheus): the reason it is not installed to build or run
# tmacg.  buildah builds the image offline (make image) and podman runs it under the
# DaemonSet's capabilities (tests/integration/test_container), with runc, which runs
# on hosts mounting cgroup v1 and v2 together where crun refuses.
TEST_PKGS="libcmocka-dev libclang-rt-14-dev jq linux-perf iproute2 python3 prometheus tmux \
groff-base clang-format-19 buildah podman runc"
[ "$tests" -eq 1 ] && PKGS="$PKGS $TEST_PKGS"
if [ "$list" -eq 1 ]; then
	echo "$PKGS" | tr ' ' '\n'
	[ "$tests" -eq 1 ] && printf 'nodejs\nnpm\nnpm ci --prefix tests/deploy\n'
	exit 0
fi

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
# Node.js and npm validate the Kubernetes manifests offline (tests only).  Some
# images ship them outside Debian's packages (with npm bundled), so ask for the
# commands.
if [ "$tests" -eq 1 ]; then
	command -v node >/dev/null 2>&1 || missing="$missing nodejs"
	command -v npm >/dev/null 2>&1 || missing="$missing npm"
fi
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

[ "$tests" -eq 1 ] || exit 0

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
