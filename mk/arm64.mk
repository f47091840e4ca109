# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# arm64 (issue 19), included by the Makefile.  On an arm64 Debian host plain `make` builds
# for arm64 (ARCH follows $(CC)); on this x86 host `make arm64` cross-builds into
# build-arm64/ with Debian's cross toolchain (gcc-aarch64-linux-gnu) against the arm64
# libraries tools/arm64-sysroot unpacked into $(TMACG_CACHE)/arm64-sysroot/, outside build/
# so make clean keeps it (install-deps.sh --arm64 fetches them; nothing downloads here):
#   build-arm64/tmacg               static-pie, hardened as `make static`: runs under
#                                   qemu-aarch64 and in the guest's initramfs
#   build-arm64/tests/unit/test_*   dynamic (Debian ships no static cmocka): run by
#                                   tests/arm64-user with qemu-aarch64 -L
#   build-arm64-san/tests/unit/*    the same under ASan/UBSan (make arm64-san)
#   build-arm64/guest/*             the guests' static workloads (tests/guest-arm64/)
# `make test-arm64` runs the unit and replay/golden tests under qemu-aarch64 (plain and
# ASan/UBSan) and the arm64 kernels of the matrix under qemu-system-aarch64 (mk/guests.mk);
# `make test` runs it after the x86 tests.

comma := ,
# The sysroot lives in the cache outside build/ (tools/arm64-sysroot), which make clean keeps.
ARM64_SYSROOT := $(TMACG_CACHE)/arm64-sysroot
ifeq ($(shell uname -m),aarch64)
# An arm64 host: build-arm64/ is a native build against the installed libraries (the
# sysroot then serves only the guest test's kernel and busybox).
ARM64_CROSS ?=
ARM64_XCFLAGS :=
ARM64_NEED := true
else
ARM64_CROSS ?= aarch64-linux-gnu-
ARM64_LIBDIRS := $(ARM64_SYSROOT)/usr/lib/aarch64-linux-gnu $(ARM64_SYSROOT)/lib/aarch64-linux-gnu
# -isystem: the sysroot holds only the libraries' headers; libc's come with the cross gcc.
ARM64_XCFLAGS := -isystem $(ARM64_SYSROOT)/usr/include $(addprefix -L,$(ARM64_LIBDIRS)) \
	$(addprefix -Wl$(comma)-rpath-link$(comma),$(ARM64_LIBDIRS))
ARM64_NEED := [ -e $(ARM64_SYSROOT)/.unpacked ]
endif
# Hardened as `make static` is (STATIC_CFLAGS: the objects serve the static-pie tmacg
# and the dynamic unit tests alike).
ARM64_MAKE := $(MAKE) --no-print-directory SAN=0 OUT=build-arm64 CC=$(ARM64_CROSS)gcc \
	XCFLAGS="$(ARM64_XCFLAGS) $(STATIC_CFLAGS)"
# The unit tests that run under qemu-aarch64: all but tests/arm64-user.skip's (it says why).
ARM64_UNIT_TESTS := $(filter-out $(shell sed -n 's/^\(test_[a-z0-9_]*\) .*/\1/p' \
	tests/arm64-user.skip),$(patsubst tests/unit/%.c,%,$(sort $(wildcard tests/unit/test_*.c))))
ARM64_GUEST_BINS := $(patsubst tests/guest-arm64/%.c,build-arm64/guest/%,\
	$(wildcard tests/guest-arm64/*.c)) \
	$(patsubst tests/guest-arm64/%.S,build-arm64/guest/%,$(wildcard tests/guest-arm64/*.S))

.PHONY: arm64 arm64-sysroot-check arm64-unit-bins arm64-guest-bins test-arm64 test-arm64-user test-arm64-guest

arm64-sysroot-check:
	$(Q)$(ARM64_NEED) || { echo "make arm64: no arm64 libraries in" \
		"$(ARM64_SYSROOT): run deploy/install-deps.sh --arm64 (it fetches them with" \
		"apt-get download)" >&2; exit 1; }
	$(Q)command -v $(ARM64_CROSS)gcc >/dev/null || { echo "make arm64: no" \
		"$(ARM64_CROSS)gcc: run deploy/install-deps.sh --arm64" >&2; exit 1; }

arm64: arm64-sysroot-check
	+$(Q)$(ARM64_MAKE) LDFLAGS="$(STATIC_LDFLAGS)" build-arm64/tmacg
	+$(Q)$(ARM64_MAKE) arm64-unit-bins
	+$(Q)$(ARM64_MAKE) arm64-guest-bins

arm64-unit-bins: $(addprefix $(OUT)/tests/unit/,$(ARM64_UNIT_TESTS))

arm64-guest-bins: $(ARM64_GUEST_BINS)

# The guest's workloads: static, no library but libc.
$(OUT)/guest/%: tests/guest-arm64/%.S
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -static -nostdlib $< -o $@

$(OUT)/guest/%: tests/guest-arm64/%.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 -D_GNU_SOURCE -O2 $(WARN) -static -pthread $< -o $@

# The same unit tests under ASan/UBSan (build-arm64-san/), as `make SAN=1 test-bins` on x86:
# qemu-aarch64 runs ASan's shadow memory and UBSan's checks; not LeakSanitizer, which
# tests/arm64-user turns off under qemu-user (tests/arm64-user.skip says why).
ARM64_SAN_MAKE := $(MAKE) --no-print-directory SAN=1 OUT=build-arm64-san CC=$(ARM64_CROSS)gcc \
	XCFLAGS="$(ARM64_XCFLAGS)"
.PHONY: arm64-san
arm64-san: arm64-sysroot-check
	+$(Q)$(ARM64_SAN_MAKE) arm64-unit-bins

test-arm64-user: arm64 arm64-san
	$(Q)tests/arm64-user build-arm64
	$(Q)tests/arm64-user build-arm64-san

# The kernel matrix's arm64 kernels (tests/guest/matrix, docs/kernels.md) on QEMU's -cpu max
# (no model of its own: generic), each with every scenario group; then 6.1 on -cpu
# neoverse-n1 (detected by MIDR_EL1: the N1 model; QEMU counts its stall events as 0), the
# hardware scenarios only.
test-arm64-guest: arm64
	$(Q)rc=0; tests/guest/matrix arm64 || rc=1; \
	GUEST_CPU=neoverse-n1 GUEST_RUN=pmu tests/guest/run arm64 6.1 || rc=1; exit $$rc

# One part after the other, whatever -j says (make -j2 test ran the guests beside the
# qemu-user tests): a guest's 2 vCPUs are 2 TCG threads that keep both cores busy, and the
# guests' scenarios and the HTTP server's tests under qemu-user are timed.  Every part
# runs; any failure fails test-arm64.
test-arm64:
	$(Q)rc=0; $(MAKE) --no-print-directory test-arm64-user || rc=1; \
	$(MAKE) --no-print-directory test-arm64-image || rc=1; \
	$(MAKE) --no-print-directory test-arm64-guest || rc=1; exit $$rc

# The image for linux/arm64 (make image builds linux/amd64's): the same Containerfile
# around the static arm64 binary, stripped by the cross toolchain's strip.  buildah runs
# nothing inside a FROM scratch image, so no arm64 emulation is needed to build it.
ARM64_IMAGE := build-image/tmacg-$(TMACG_VERSION)-linux-arm64.oci.tar
.PHONY: image-arm64 test-arm64-image
image-arm64: arm64
	$(Q)STRIP=$(ARM64_CROSS)strip deploy/build-image linux/arm64 build-arm64/tmacg \
		$(ARM64_IMAGE) tmacg:$(TMACG_VERSION)

# The arm64 binary hardened as make static's (test_image, x86's build, reads any ELF), and
# where buildah exists (the --test set installs it): the arm64 image built and checked.
test-arm64-image: arm64 $(OUT)/tests/unit/test_image
	$(Q)TMACG_STATIC=build-arm64/tmacg $(OUT)/tests/unit/test_image
	$(Q)if command -v buildah >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory image-arm64 && tests/image-arm64-check $(ARM64_IMAGE); \
	else echo "image-arm64: SKIPPED: no buildah (deploy/install-deps.sh --test installs it)"; fi

