#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# Installs the Debian packages tmacg needs, only those missing.
#   deploy/install-deps.sh          what building and running tmacg needs (make, make run)
#   deploy/install-deps.sh --test   that, and what its tests need (make test, .ci/run)
#   deploy/install-deps.sh --arm64  what `make arm64` and the arm64 tests need (part of --test)
#   TMACG_CACHE=DIR                 where the fetched .debs, sysroot and kernels go
#                                   (default /var/cache/tmacg: `make clean` keeps them)
#   --list                          prints what it would install, installs nothing
# Idempotent: a second run installs nothing and exits 0.
set -eu

tests=0 list=0 arm64=0
for arg in "$@"; do
	case "$arg" in
	--test) tests=1 arm64=1 ;;
	--arm64) arm64=1 ;;
	--list) list=1 ;;
	*)
		echo "usage: $0 [--test] [--arm64] [--list]" >&2
		exit 2
		;;
	esac
done

# libevent: the event loop and socket buffers of --listen's HTTP server (libevent_core;
# static archives for `make static`).
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
# on hosts mounting cgroup v1 and v2 together where crun refuses.  chromium (headless)
# loads --format html's report in tests/unit/test_html_browser and `make report-screenshot`.
TEST_PKGS="libcmocka-dev libclang-rt-14-dev jq linux-perf iproute2 python3 prometheus tmux \
groff-base clang-format-19 buildah podman runc chromium"
# The kernel matrix (tests/guest/, docs/kernels.md): QEMU for the amd64 guests (TCG) and
# cpio for their initramfs; the kernels themselves and busybox are fetched with apt-get
# download by tools/guest-kernels, below.
TEST_PKGS="$TEST_PKGS qemu-system-x86 cpio"
[ "$tests" -eq 1 ] && PKGS="$PKGS $TEST_PKGS"

# --- arm64 (issue 19: make arm64, tests/arm64-user, tests/guest) ---------------------
# On an x86 host: Debian's cross compiler and arm64 libc, qemu-user to run the arm64 unit
# tests, qemu-system-arm (qemu-system-aarch64) and cpio for the guest test.  The arm64
# libraries and busybox are not installed: tools/arm64-sysroot fetches their .debs with
# apt-get download into the cache's arm64-sysroot (the :arm64 -dev packages would replace
# the amd64 ones); tools/guest-kernels fetches the arm64 kernels of the matrix.  On an arm64 host the native packages above build tmacg with `make`;
# the guest test still needs qemu-system-arm, cpio and the sysroot's kernel and busybox.
ARM64_PKGS="gcc-aarch64-linux-gnu libc6-dev-arm64-cross linux-libc-dev-arm64-cross \
qemu-user-static qemu-system-arm cpio"
[ "$(uname -m)" = aarch64 ] && ARM64_PKGS="qemu-system-arm cpio"
[ "$arm64" -eq 1 ] && PKGS="$PKGS $ARM64_PKGS"
# --- end arm64 ------------------------------------------------------------------------

if [ "$list" -eq 1 ]; then
	echo "$PKGS" | tr ' ' '\n'
	[ "$arm64" -eq 1 ] &&
		"$(dirname "$0")/../tools/arm64-sysroot" --list | sed 's/$/:arm64 (apt-get download)/'
	[ "$arm64" -eq 1 ] && "$(dirname "$0")/../tools/guest-kernels" --list |
		while read -r series arch suites; do
			[ "$tests" -eq 1 ] || [ "$arch" = arm64 ] &&
				echo "linux-image-$arch:$arch from $suites, $series (apt-get download)"
		done
	[ "$tests" -eq 1 ] && echo "busybox-static:amd64 (apt-get download)"
	[ "$tests" -eq 1 ] && printf 'nodejs\nnpm\nnpm ci --prefix tests/deploy\n'
	exit 0
fi

# A package counts only when installed for this machine's own architecture (or
# for all): with arm64 multiarch enabled, dpkg-query also lists a foreign
# libfoo-dev:arm64, which does not build an amd64 tmacg.
host_arch=$(dpkg --print-architecture)
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status} ${Architecture}\n' "$p" 2>/dev/null |
		grep -Eq "^install ok installed ($host_arch|all)\$" ||
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

# arm64: the sysroot of arm64 .debs; the guests' kernels, arm64's with --arm64, both
# architectures' with --test (idempotent; downloads only what is missing).
if [ "$arm64" -eq 1 ]; then
	"$(dirname "$0")/../tools/arm64-sysroot"
	if [ "$tests" -eq 1 ]; then
		"$(dirname "$0")/../tools/guest-kernels"
	else
		"$(dirname "$0")/../tools/guest-kernels" --arch arm64
	fi
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
