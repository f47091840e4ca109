# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# tmacg build.  `make` builds build/tmacg, `make test` runs every test, `make install`
# installs it (PREFIX=/usr/local, DESTDIR), `V=1` shows the commands.  Sources are found by wildcard so a new module,
# unit test, fuzz target or model file needs no edit here:
#   user/*.c, user/*/*.c    -> linked into tmacg (user/main.c holds main)
#   user/model/builtin/<id>.tma -> compiled into the binary as built-in model <id>
#   user/model/builtin/<id>.cpu -> ... as built-in CPU description <id> (docs/cpu-format.md)
#   tests/unit/test_*.c     -> one cmocka program each, linked with all of user/
#   tests/unit/test_X.wrap  -> optional extra link flags (e.g. -Wl,--wrap=open)
#   tests/integration/test_*.c -> root integration tests (cmocka)
#   tests/lib/*.c           -> helpers linked into every test program
#   tests/fuzz/fuzz_*.c     -> libFuzzer targets (`make fuzz`)

SAN ?= 0
ifeq ($(SAN),1)
OUT ?= build-san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
else
OUT ?= build
SANFLAGS :=
endif

# What tools/arm64-sysroot and tools/guest-kernels fetch (the arm64 sysroot, the guests'
# kernels and busybox) is cached outside build/, so `make clean` keeps it: /var/cache/tmacg
# as root or where it exists, else ~/.cache/tmacg (tools/lib/private-apt.sh); TMACG_CACHE=DIR
# moves it.
TMACG_CACHE ?= $(shell sh -c '. tools/lib/private-apt.sh && tmacg_cache')
export TMACG_CACHE

CLANG ?= clang
BPFTOOL ?= $(shell command -v bpftool 2>/dev/null || echo /usr/sbin/bpftool)
# The BPF target's architecture (bpf_tracing.h) follows the compiler's: arm64 natively on an
# arm64 host or with the cross compiler (mk/arm64.mk), else x86.
ARCH := $(if $(filter aarch64-%,$(shell $(CC) -dumpmachine 2>/dev/null)),arm64,x86)

CFLAGS ?= -O2 -g
XCFLAGS ?=
WARN := -Wall -Wextra -Werror
# tmacg's own binary is optimised across files at link time (GCC, unsanitized builds): the
# per-cgroup path (the sums, the evaluator, the JSON writer) spans a dozen files: a live
# level-3 JSON process at 1,000 cgroups took a few % less CPU so (docs/benchmarks.md).
# user/'s objects are fat, GCC's IR beside their code: every other program links them with
# -fno-lto (GCC's linker plugin would optimise any link of IR), the code as it was compiled.
ifeq ($(SAN)$(findstring clang,$(CC)),0)
LTO_FLAGS := -flto=auto -ffat-lto-objects
NO_LTO := -fno-lto
endif
ALL_CFLAGS := -std=gnu11 -D_GNU_SOURCE -Iinclude -Iuser -I$(OUT) $(WARN) $(CFLAGS) $(SANFLAGS) $(XCFLAGS) -MMD -MP
LIBS := -lbpf -lelf -lz -lpfm -ljson-c -levent_core -lpthread -lm
LDFLAGS ?=
ALL_LDFLAGS := $(SANFLAGS) $(XCFLAGS) $(LDFLAGS)
# What links user/'s objects but tmacg (-fno-lto anywhere on a command line wins).
TEST_LDFLAGS := $(ALL_LDFLAGS) $(NO_LTO)

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

USER_SRCS := $(sort $(wildcard user/*.c user/*/*.c))
LIB_OBJS := $(patsubst user/%.c,$(OUT)/user/%.o,$(filter-out user/main.c,$(USER_SRCS))) \
	    $(OUT)/models_builtin.o $(OUT)/cpus_builtin.o $(OUT)/html_assets.o
MAIN_OBJ := $(OUT)/user/main.o
MODEL_FILES := $(sort $(wildcard user/model/builtin/*.tma))
CPU_FILES := $(sort $(wildcard user/model/builtin/*.cpu))
HTML_ASSET_FILES := $(sort $(wildcard user/output/html/*.css user/output/html/*.js))
TESTLIB_OBJS := $(patsubst tests/lib/%.c,$(OUT)/tests/lib/%.o,$(wildcard tests/lib/*.c))
UNIT_BINS := $(patsubst tests/unit/%.c,$(OUT)/tests/unit/%,$(sort $(wildcard tests/unit/test_*.c)))
INTEG_BINS := $(patsubst tests/integration/%.c,$(OUT)/tests/integration/%,\
	$(sort $(wildcard tests/integration/test_*.c)))
INTEG_HELPERS := $(patsubst tests/integration/helpers/%.c,$(OUT)/tests/integration/helpers/%,\
	$(sort $(wildcard tests/integration/helpers/*.c)))
SOAK_BIN := $(OUT)/tests/soak/soak
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(OUT)/tests/fuzz/%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
# Tests and tmacg link the archive, so a program pulls in only the modules it uses.
LIB_A := $(OUT)/libtmacg.a
BPF_OBJ := $(OUT)/bpf/tmacg.bpf.o
SKEL := $(OUT)/tmacg.skel.h

.DELETE_ON_ERROR:
# Test helpers are built by pattern rules: keep them between runs.
.SECONDARY: $(TESTLIB_OBJS)
.PHONY: all static clean test unit-tests integration-tests test-bins fuzz fuzz-bins hwtest bench soak \
	bench-bins bench-output \
	vmlinux run install uninstall install-deps install-test-deps format format-check
.PHONY: import import-check image report-screenshot

all: $(OUT)/tmacg

$(OUT)/tmacg: $(MAIN_OBJ) $(LIB_A)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) $(LTO_FLAGS) $^ $(LIBS) -o $@

# The image's binary (deploy/Containerfile, `make image`), in build-static/: static and still
# position-independent (ASLR), stack protector, fortified libc calls, relocations
# read-only and bound at start.  tests/unit/test_image checks each property.
# The linker warns that libevent's evutil_getaddrinfo needs glibc's NSS at run
# time: tmacg never resolves a name (--listen takes addresses, peers are numeric).
STATIC_CFLAGS := -fPIE -fstack-protector-strong -D_FORTIFY_SOURCE=2
STATIC_LDFLAGS := -static-pie -Wl,-z,relro,-z,now
static:
	$(Q)$(MAKE) --no-print-directory SAN=0 OUT=build-static XCFLAGS="$(STATIC_CFLAGS)" \
		LDFLAGS="$(STATIC_LDFLAGS)" build-static/tmacg

$(LIB_A): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

# BPF objects (tmacg's, the bench's floor program): CO-RE against the
# checked-in vmlinux.h, then `bpftool gen object` to link it (it also strips
# DWARF, shrinking the skeleton).
# -Wno-unused-parameter: libbpf's BPF_PROG() hands every body a ctx it may not use.
$(OUT)/%.bpf.o: %.bpf.c include/tmacg.h vmlinux/vmlinux.h
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Iinclude -Ivmlinux \
		$(WARN) -Wno-unused-parameter -c $< -o $(@:.bpf.o=.tmp.bpf.o)
	$(Q)$(BPFTOOL) gen object $@ $(@:.bpf.o=.tmp.bpf.o)

$(SKEL): $(BPF_OBJ)
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name tmacg_bpf > $@

# Only the collector includes the skeleton: a BPF edit rebuilds it alone.
$(OUT)/user/collect/collector.o: $(SKEL)

$(OUT)/user/%.o: user/%.c | $(OUT)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) $(LTO_FLAGS) -c $< -o $@

# Built-in models and CPU descriptions: each user/model/builtin/<id>.tma and
# <id>.cpu becomes a NUL-terminated byte array, so the binary needs no files at
# run time: tables of struct embedded_file (user/model/embedded.h).  An id's '-'
# (neoverse-n1) and '.' (report.css, EXT empty) are '_' in the array's C name.
# $(call embed_files,ARRAY,EXT,FILES)
define embed_files
	$(call msg,GEN,$@)
	$(Q){ echo '/* generated from user/model/builtin by the Makefile */'; \
	  echo '#include "model/embedded.h"'; \
	  for f in $(3); do id=$$(basename $$f $(2)); cid=$$(echo $$id | tr '@.-' '___'); \
	    echo "static const char $(1)_$${cid}_text[] = {"; \
	    od -An -v -tx1 $$f | sed -e 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	    echo '0x00 };'; done; \
	  echo 'const struct embedded_file $(1)[] = {'; \
	  for f in $(3); do id=$$(basename $$f $(2)); cid=$$(echo $$id | tr '@.-' '___'); \
	    echo "	{ \"$$id\", \"$$f\", $(1)_$${cid}_text, sizeof($(1)_$${cid}_text) - 1 },"; done; \
	  echo '	{ 0, 0, 0, 0 }'; echo '};'; } > $@
endef

$(OUT)/models_builtin.c: $(MODEL_FILES) Makefile | $(OUT)
	$(call embed_files,model_builtins,.tma,$(MODEL_FILES))

$(OUT)/cpus_builtin.c: $(CPU_FILES) Makefile | $(OUT)
	$(call embed_files,cpu_builtins,.cpu,$(CPU_FILES))

# The HTML report's style sheet and script (user/output/html/), by file name: "report.js".
$(OUT)/html_assets.c: $(HTML_ASSET_FILES) Makefile | $(OUT)
	$(call embed_files,html_assets,,$(HTML_ASSET_FILES))

$(OUT)/html_assets.o: $(OUT)/html_assets.c user/model/embedded.h
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(OUT)/models_builtin.o: $(OUT)/models_builtin.c user/model/embedded.h
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(OUT)/cpus_builtin.o: $(OUT)/cpus_builtin.c user/model/embedded.h
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(OUT)/tests/lib/%.o: tests/lib/%.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/lib -c $< -o $@

$(OUT)/tests/unit/%: tests/unit/%.c $(LIB_A) $(TESTLIB_OBJS)
	$(call msg,TEST-CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/lib $< $(TESTLIB_OBJS) $(LIB_A) $(TEST_LDFLAGS) \
		$(shell cat tests/unit/$*.wrap 2>/dev/null) -lcmocka $(LIBS) -o $@

$(OUT)/tests/integration/%: tests/integration/%.c $(LIB_A) $(TESTLIB_OBJS)
	$(call msg,TEST-CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/lib $< $(TESTLIB_OBJS) $(LIB_A) $(TEST_LDFLAGS) \
		-lcmocka -lpthread $(LIBS) -o $@

$(OUT)/tests/soak/%: tests/soak/%.c $(LIB_A) $(TESTLIB_OBJS)
	$(call msg,TEST-CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/lib $< $(TESTLIB_OBJS) $(LIB_A) $(TEST_LDFLAGS) \
		-lcmocka -lpthread -lm $(LIBS) -o $@

$(OUT)/tests/integration/helpers/%: tests/integration/helpers/%.c
	$(call msg,TEST-CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) $< $(ALL_LDFLAGS) -lpthread -lm -o $@

$(OUT):
	$(Q)mkdir -p $@

test-bins: $(OUT)/tmacg $(UNIT_BINS) $(INTEG_BINS) $(INTEG_HELPERS)

# `make test` is the one command that runs everything CI runs: unit tests in a
# plain and a sanitizer build, then the root integration tests.  It first installs
# what the tests need and the machine lacks (nothing when all is there).  The arm64
# tests (mk/arm64.mk, with the arm64 kernels of the matrix) and the amd64 kernels of the
# matrix (mk/guests.mk, docs/kernels.md) run before tests/run, whose summary stays the
# last line; a failure there still fails make test, and what failed is printed again at
# the very end (tests/failure-digest), where a log cut to its tail still shows it.
test: install-test-deps
	$(Q)$(MAKE) --no-print-directory import-check
	$(Q)$(MAKE) --no-print-directory test-bins
	$(Q)$(MAKE) --no-print-directory SAN=1 test-bins
	$(Q)$(MAKE) --no-print-directory static
	$(Q)arm=0; tests/failure-digest $(OUT)/logs/test-arm64.log \
		$(MAKE) --no-print-directory test-arm64 || arm=$$?; \
	guests=0; tests/failure-digest $(OUT)/logs/test-guests-amd64.log \
		$(MAKE) --no-print-directory test-guests-amd64 || guests=$$?; \
	tests/run build build-san && { [ $$arm -eq 0 ] || \
		{ echo "make test: the arm64 tests failed:" >&2; \
		cat $(OUT)/logs/test-arm64.log.failures >&2; exit 1; }; } && \
		{ [ $$guests -eq 0 ] || \
		{ echo "make test: the amd64 kernel matrix failed:" >&2; \
		cat $(OUT)/logs/test-guests-amd64.log.failures >&2; exit 1; }; }

unit-tests: test-bins static
	$(Q)TMACG_ONLY=unit tests/run $(OUT)

integration-tests: test-bins
	$(Q)TMACG_ONLY=integration tests/run $(OUT)

# Issue 10's soak (root, ~70 s): hostile cgroups churned under tmacg; not in `make test`.
soak: $(OUT)/tmacg $(SOAK_BIN) $(INTEG_HELPERS)
	$(Q)tests/soak/run $(OUT)

# libFuzzer targets, built with clang in their own tree; FUZZ_SECONDS each.
FUZZ_SECONDS ?= 60
fuzz:
	$(Q)$(MAKE) --no-print-directory OUT=build-fuzz CC=$(CLANG) \
		XCFLAGS="-fsanitize=fuzzer-no-link,address,undefined" fuzz-bins
	$(Q)for f in $(patsubst tests/fuzz/%.c,build-fuzz/tests/fuzz/%,$(wildcard tests/fuzz/fuzz_*.c)); do \
		name=$$(basename $$f); corpus=build-fuzz/corpus/$$name; mkdir -p $$corpus; \
		seeds=tests/fuzz/corpus/$$name; [ -d $$seeds ] || seeds=; \
		echo "fuzzing $$name for $(FUZZ_SECONDS)s"; \
		$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 $$corpus $$seeds || exit 1; \
	done

fuzz-bins: $(FUZZ_BINS)

$(OUT)/tests/fuzz/%: tests/fuzz/%.c $(LIB_A)
	$(call msg,FUZZ-CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer $< $(LIB_A) $(LIBS) -o $@

# The models and CPU descriptions generated from Intel's perfmon data (tools/perfmon/) and
# Arm's Telemetry Solution specifications (tools/arm-telemetry/).
# import-check runs the importers' tests, then regenerates everything into a temporary
# directory and diffs (no network, nothing outside the repository).
import:
	$(Q)tools/perfmon-import
	$(Q)tools/arm-telemetry-import

import-check:
	$(Q)PYTHONDONTWRITEBYTECODE=1 python3 -m unittest discover -s tests/tools -q
	$(Q)tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	cp user/model/builtin/icx@4.5.tma user/model/builtin/spr@5.01.tma "$$tmp"/ && \
	tools/perfmon-import --out "$$tmp" && tools/arm-telemetry-import --out "$$tmp" && \
	for f in "$$tmp"/*.tma "$$tmp"/*.cpu; do \
		diff -u "user/model/builtin/$$(basename $$f)" "$$f" || \
		{ echo "import-check: $$(basename $$f) differs from what tools/perfmon-import or tools/arm-telemetry-import generates: run make import" >&2; exit 1; }; \
	done && echo "import-check: generated models and CPU descriptions are up to date"

# docs/report.png, the README's picture of --format html: a golden recording's report
# drawn by headless chromium (tools/report-screenshot; chromium: install-deps.sh --test).
report-screenshot: $(OUT)/tmacg
	$(Q)tools/report-screenshot $(OUT)/tmacg docs/report.png

hwtest: $(OUT)/tmacg
	$(Q)TMACG=$(abspath $(OUT)/tmacg) tests/hw/run

# The bench's helpers: C programs under tests/bench/ and the floor BPF program
# (reads the counters and nothing else) that tmacg's BPF time is held against.
BENCH_BINS := $(patsubst tests/bench/%.c,$(OUT)/tests/bench/%,\
	$(filter-out %.bpf.c,$(sort $(wildcard tests/bench/*.c))))
BENCH_SKEL := $(OUT)/tests/bench/floor.skel.h

$(BENCH_SKEL): $(OUT)/tests/bench/floor.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name floor_bpf > $@

$(OUT)/tests/bench/%: tests/bench/%.c $(LIB_A) $(BENCH_SKEL) $(SKEL)
	$(call msg,BENCH-CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -I$(OUT)/tests/bench -Itests/lib $< $(filter %.o,$^) $(LIB_A) \
		$(TEST_LDFLAGS) -lpthread $(LIBS) -o $@

# The output-path bench writes the lines --pmu software writes: the documented counts.
$(OUT)/tests/bench/outpath: $(OUT)/tests/lib/software_counts.o
# The BPF-time bench drives the perf events and the collector by hand.
$(OUT)/tests/bench/bpftime: $(OUT)/tests/lib/pmu_drive.o

bench-bins: $(OUT)/tmacg $(BENCH_BINS)

# Root, a few minutes: overhead and scale against perf, table on stdout and
# $(OUT)/bench.json.  Repeat counts: see tests/bench/run.  The static tmacg runs in
# the bighost section's guests (BENCH_SECTIONS=bighost: that section alone, no root).
bench: bench-bins static
	$(Q)TMACG=$(abspath $(OUT)/tmacg) OUT=$(abspath $(OUT)) tests/bench/run

# The output path alone (JSON lines, /metrics text), seconds, no root:
# the "output" section of `make bench`.
bench-output: $(OUT)/tests/bench/outpath
	$(Q)TMACG=$(abspath $(OUT)/tmacg) OUT=$(abspath $(OUT)) BENCH_SECTIONS=output tests/bench/run

# Installs what a fresh Debian machine lacks to build tmacg (and nothing the tests
# alone need: no server, no npm), builds, and runs tmacg here: with the hardware
# PMU when there is one, else on software events.
run: install-deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)if [ -e /sys/bus/event_source/devices/cpu/type ] || \
	       [ -e /sys/bus/event_source/devices/cpu_core/type ]; then \
		$(OUT)/tmacg --count 3; \
	else \
		echo "tmacg: no hardware PMU here (virtual machine?): showing the pipeline on software events"; \
		$(OUT)/tmacg --pmu software --count 3; \
	fi

# `make install` as a distribution package lays it out (PREFIX, DESTDIR for staging):
# the binary in sbin (it needs root or CAP_BPF+CAP_PERFMON), its manual page in section 8
# (docs/tmacg.8) and its bash completion.  tests/lint/make-install stages one in a
# temporary DESTDIR and checks every file.
PREFIX ?= /usr/local
DESTDIR ?=
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
INSTALL ?= install

install: $(OUT)/tmacg
	$(Q)$(INSTALL) -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(BASHCOMPDIR)
	$(Q)$(INSTALL) -m 0755 $(OUT)/tmacg $(DESTDIR)$(SBINDIR)/tmacg
	$(Q)$(INSTALL) -m 0644 docs/tmacg.8 $(DESTDIR)$(MANDIR)/man8/tmacg.8
	$(Q)$(INSTALL) -m 0644 deploy/bash-completion/tmacg $(DESTDIR)$(BASHCOMPDIR)/tmacg

uninstall:
	$(Q)rm -f $(DESTDIR)$(SBINDIR)/tmacg $(DESTDIR)$(MANDIR)/man8/tmacg.8 \
		$(DESTDIR)$(BASHCOMPDIR)/tmacg

# `make image`: the container image as an OCI archive, built offline by buildah
# from `make static` FROM scratch (deploy/Containerfile, deploy/build-image).
# IMAGE_PLATFORM picks the image's os/arch and IMAGE_BIN the static binary built
# for it: another architecture sets both (and STRIP for its toolchain).
# tests/unit/test_image_run runs the archive under the DaemonSet's capabilities.
TMACG_VERSION := $(shell sed -n 's/^\#define TMACG_VERSION "\(.*\)"/\1/p' user/util/version.h)
IMAGE_PLATFORM ?= linux/amd64
IMAGE_BIN ?= build-static/tmacg
IMAGE_ARCHIVE ?= build-image/tmacg-$(TMACG_VERSION)-$(subst /,-,$(IMAGE_PLATFORM)).oci.tar

image: static
	$(Q)deploy/build-image $(IMAGE_PLATFORM) $(IMAGE_BIN) $(IMAGE_ARCHIVE) tmacg:$(TMACG_VERSION)

install-deps:
	$(Q)deploy/install-deps.sh

install-test-deps:
	$(Q)deploy/install-deps.sh --test

vmlinux:
	$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > vmlinux/vmlinux.h

# The house format (.clang-format, written for clang-format 19).
CLANG_FORMAT ?= clang-format-19
FORMAT_FILES = $(wildcard bpf/*.c include/*.h user/*.[ch] user/*/*.[ch] tests/*/*.[ch])

format:
	$(CLANG_FORMAT) -i $(FORMAT_FILES)

format-check:
	$(Q)$(CLANG_FORMAT) --dry-run -Werror $(FORMAT_FILES)

clean:
	rm -rf build build-san build-fuzz build-static build-arm64 build-arm64-san build-image

include mk/arm64.mk
include mk/guests.mk

-include $(wildcard $(OUT)/user/*.d $(OUT)/user/*/*.d $(OUT)/tests/*/*.d $(OUT)/*.d)
