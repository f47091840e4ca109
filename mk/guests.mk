# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# The kernel matrix (issue 25, docs/kernels.md), included by the Makefile: Debian's 5.10,
# 6.1 and 6.12 kernels, amd64 and arm64, each booted once under QEMU (TCG) by
# tests/guest/matrix with tmacg measuring known workloads in the guest.  The kernels and
# busybox come from the cache tools/guest-kernels fills (deploy/install-deps.sh --test);
# nothing downloads here.
#   make test-guests          every kernel of both architectures
#   make test-guests-amd64    amd64's (tmacg from make static); `make test` runs it, and
#                             arm64's through test-arm64-guest (mk/arm64.mk)
.PHONY: test-guests test-guests-amd64

test-guests-amd64: static
	$(Q)tests/guest/matrix amd64

# Both, whatever the first gives.
test-guests:
	$(Q)rc=0; $(MAKE) --no-print-directory test-guests-amd64 || rc=1; \
	$(MAKE) --no-print-directory test-arm64-guest || rc=1; exit $$rc
