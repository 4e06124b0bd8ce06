# kprof — perf-counter profiling front end.
#
#   make              build ./kprof (libperf is built once from Debian's linux-source-6.1)
#   make run          install deps, build, profile the default workload, print the result
#   make check        install deps, build, run every test (TAP, via prove)
#   make check SANITIZE=1   the same with ASan+UBSan, in build-san/
#   make test-mem     the unit tests under valgrind (memcheck; helgrind for the threaded ones)
#   make fuzz FUZZ_SECONDS=N   build the libFuzzer harnesses (clang, in build-fuzz/) and run
#                     each for N seconds (tests/fuzz/README.md)
#   make V=1          show the commands
#   make LTO=0        kprof without link-time optimisation of its profile-reading modules
#
# Sources are found per module (profiler/{lib,perfdata,script,record,profile,run,cli}/ symbolize/
# output/ workloads/); each module is its own archive, and a unit test tests/unit/test-<module>-*.c
# links only what that module may use, so a layering violation is a link error; check-layering
# (run before every link of kprof) also rejects forbidden includes and symbols.

PROG		:= kprof
VERSION		:= 0.1.0
CC		?= cc
PKG_CONFIG	?= pkg-config

ifeq ($(SANITIZE),1)
O		?= build-san
SAN_FLAGS	:= -fsanitize=address,undefined -fno-sanitize-recover=all
PROG_OUT	:= $(O)/$(PROG)
else ifeq ($(SANITIZE),fuzz)
# libFuzzer harnesses (tests/fuzz/): clang, everything instrumented for coverage, ASan+UBSan.
O		?= build-fuzz
CC		:= clang
SAN_FLAGS	:= -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
# gcc's noipa (workloads/) is unknown to clang: harmless for fuzzing
SAN_FLAGS	+= -Wno-unknown-attributes
PROG_OUT	:= $(O)/$(PROG)
else
O		?= build
SAN_FLAGS	:=
PROG_OUT	:= $(PROG)
endif

CFLAGS		?= -O2 -g
override CFLAGS += -std=gnu11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
		   -fno-omit-frame-pointer $(SAN_FLAGS)
# The modules that read and name a profile (LTO_MODULES) are linked into kprof with link-time
# optimisation (gcc; LTO=0 turns it off): report's and collapse's hot paths call across their
# archives per record, per frame and per stack, and such a call costs about what the work does
# (4.3% fewer instructions on the make -B bench recording). Their objects are fat, so the unit
# tests and the layering check's nm use them as they are. Not the others: the code that runs
# and records workloads keeps its frames, which its profiles' call chains (keys) show. Not with
# the sanitizers or clang.
LTO		?= 1
LTO_MODULES	:= perfdata profile symbolize output
ifeq ($(SANITIZE)$(LTO)$(findstring clang,$(shell $(CC) --version 2>/dev/null)),1)
LTO_FLAGS	:= -flto=auto
endif
override CPPFLAGS += -D_GNU_SOURCE -I. -DKPROF_VERSION='"$(VERSION)"'
override LDFLAGS += $(SAN_FLAGS)

# make knows files, not flags: the compiler and flags this build was made with are kept in
# $(O)/build-flags, rewritten only when they change, and every object and link depends on it,
# so `make LTO=0` after `make` (or a new CFLAGS) rebuilds instead of mixing old objects in.
BUILD_FLAGS	:= $(CC) $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS) $(LDFLAGS) $(EXTRA_LDFLAGS) $(LTO_FLAGS)

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

# ---- dependencies -------------------------------------------------------------------------------
DW_CFLAGS	:= $(shell $(PKG_CONFIG) --cflags libdw libelf 2>/dev/null)
DW_LIBS		:= $(shell $(PKG_CONFIG) --libs libdw libelf 2>/dev/null) -liberty
TEP_CFLAGS	:= $(shell $(PKG_CONFIG) --cflags libtraceevent 2>/dev/null)
TEP_LIBS	:= $(shell $(PKG_CONFIG) --libs libtraceevent 2>/dev/null)
# perf record -z writes zstd-compressed records
ZSTD_CFLAGS	:= $(shell $(PKG_CONFIG) --cflags libzstd 2>/dev/null)
ZSTD_LIBS	:= $(shell $(PKG_CONFIG) --libs libzstd 2>/dev/null || echo -lzstd)

# libperf is not packaged: build it from Debian's kernel source tarball, once, into build/ksrc
# (shared by the normal and the sanitizer build).
KSRC_TAR	?= /usr/src/linux-source-6.1.tar.xz
KSRC_NAME	:= $(notdir $(KSRC_TAR:.tar.xz=))
KSRC		?= build/ksrc
KTOOLS		:= $(KSRC)/tools
LIBPERF_A	:= $(KTOOLS)/lib/perf/libperf.a
LIBAPI_A	:= $(KTOOLS)/lib/api/libapi.a
PERF_CFLAGS	:= -I$(KTOOLS)/lib/perf/include -I$(KTOOLS)/include
PERF_LIBS	:= $(LIBPERF_A) $(LIBAPI_A)

# pprof's profile.proto, from Debian's golang-github-google-pprof-dev, compiled by protoc-c at
# build time into $(O)/gen (profiler/export/ encodes with libprotobuf-c and gzips with zlib).
PPROF_PROTO	?= /usr/share/gocode/src/github.com/google/pprof/proto/profile.proto
PB_GEN		:= $(O)/gen

# ---- sources ------------------------------------------------------------------------------------
# Modules, each an archive $(O)/<m>.a with one public header <dir>/<m>.h and private *-int.h
# headers. <m>_DEPS lists what a module may use (include and link), transitively closed; data
# flows one way: cli -> run -> profile -> record -> {script, perfdata, symbolize, output} -> lib,
# cli -> export -> output,
# and run uses workloads. check-layering enforces it; the unit tests link only these archives.
PMODULES	:= lib perfdata script record profile run cli
MODULES		:= lib output symbolize workloads export perfdata script record profile run cli
lib_DIR		:= profiler/lib
output_DIR	:= output
export_DIR	:= profiler/export
symbolize_DIR	:= symbolize
workloads_DIR	:= workloads
$(foreach m,$(PMODULES),$(eval $(m)_DIR := profiler/$(m)))

lib_DEPS	:=
output_DEPS	:= lib
symbolize_DEPS	:= lib
workloads_DEPS	:= lib
export_DEPS	:= output lib
perfdata_DEPS	:= lib
script_DEPS	:= perfdata output lib
record_DEPS	:= perfdata output lib
profile_DEPS	:= record script perfdata symbolize output lib
run_DEPS	:= profile record workloads script perfdata symbolize output lib
cli_DEPS	:= run profile record workloads export script perfdata symbolize output lib

$(foreach m,$(MODULES),$(eval $(m)_SRCS := $(sort $(wildcard $($(m)_DIR)/*.c))))
cli_SRCS	:= $(filter-out profiler/cli/main.c,$(cli_SRCS))

# The workload programs `kprof run` execs (docs/run.md), next to the build's objects: small
# executables of libc and workloads.a only, so the profiled processes are the benchmark's own
# (comm usemem, singleuser; fork_test forks a process as small as AIM's: libc only, no libm).
WL_BIN_SRCS	:= $(sort $(wildcard workloads/bin/*.c))
# The usemem engine is built as upstream's is, without frame pointers (LKP's usemem has none):
# its hot loop is a call per 8-byte access, where a frame costs 10-25% of the throughput.
$(O)/workloads/usemem.o: CFLAGS += -fomit-frame-pointer
# singleuser is linked position-dependent, as LKP's AIM9 binary is (brk_test and page_test's
# truncated sbrk pointer needs its heap below 2 GiB): a PIE's exit also runs __cxa_finalize
# (crtbeginS.o, which unregisters atfork handlers) and has its GOT and .bss on pages of their
# own, so every fork_test child faulted 27 pages where the reference built like LKP's faults 23.
# Not under the sanitizers: ASan's shadow memory starts at 2 GiB, where such a heap cannot grow
# by brk_test's 4 GiB steps (sbrk fails: ENOMEM).
WL_LDFLAGS_singleuser := $(if $(SAN_FLAGS),,-no-pie)
BUILD_FLAGS	+= $(WL_LDFLAGS_singleuser)
WL_PROGS	:= $(patsubst workloads/bin/%.c,$(O)/%,$(WL_BIN_SRCS)) $(O)/true

obj		= $(patsubst %.c,$(O)/%.o,$(1))
ARCHIVES	:= $(foreach m,$(MODULES),$(O)/$(m).a)
# What linking module m needs: its archive, then its dependencies' (users before what they use),
# then the system libraries. Only record/ links libperf and libtraceevent (cli, profile's
# sched-*.c: libtraceevent),
# only symbolize/ libdw, only perfdata/ libzstd.
SYSLIBS_record	:= $(PERF_LIBS) $(TEP_LIBS)
SYSLIBS_cli	:= $(TEP_LIBS)
SYSLIBS_symbolize := $(DW_LIBS)
SYSLIBS_perfdata := $(ZSTD_LIBS)
SYSLIBS_export	:= -lprotobuf-c -lz
link_of		= $(foreach d,$(1) $($(1)_DEPS),$(O)/$(d).a) \
		  $(foreach d,$(1) $($(1)_DEPS),$(SYSLIBS_$(d))) -lm -lpthread
LINK_ALL	:= $(call link_of,cli)

ALL_OBJS	:= $(foreach m,$(MODULES),$(call obj,$($(m)_SRCS))) $(call obj,profiler/cli/main.c) \
		   $(call obj,$(wildcard workloads/bin/*.c))

all: $(PROG_OUT) $(WL_PROGS)

# Only record/ sees libperf; record/, the CLI and profile/sched-*.c see libtraceevent; only
# symbolize/ sees libdw.
$(O)/profiler/record/%.o: CFLAGS += $(PERF_CFLAGS) $(TEP_CFLAGS)
$(O)/profiler/cli/%.o: CFLAGS += $(TEP_CFLAGS)
$(O)/profiler/profile/sched-%.o: CFLAGS += $(TEP_CFLAGS)
$(O)/profiler/perfdata/%.o: CFLAGS += $(ZSTD_CFLAGS)
$(O)/symbolize/%.o: CFLAGS += $(DW_CFLAGS)
$(call obj,$(record_SRCS)): | $(LIBPERF_A)

$(PB_GEN)/profile.pb-c.c $(PB_GEN)/profile.pb-c.h &: $(PPROF_PROTO)
	$(call msg,PROTOC,$@)
	@test -r $(PPROF_PROTO) || { echo "missing $(PPROF_PROTO): run .ci/install-deps" >&2; exit 1; }
	@mkdir -p $(PB_GEN)
	$(Q)protoc-c --c_out=$(PB_GEN) -I$(dir $(PPROF_PROTO)) $(notdir $(PPROF_PROTO))
# Generated code: compiled without -Werror's extra warnings, it is not ours to fix.
$(PB_GEN)/profile.pb-c.o: $(PB_GEN)/profile.pb-c.c
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) -O2 -g $(SAN_FLAGS) -I$(PB_GEN) -c $< -o $@
$(call obj,$(export_SRCS)): CFLAGS += -I$(PB_GEN)
$(call obj,$(export_SRCS)): | $(PB_GEN)/profile.pb-c.h
$(O)/export.a: $(PB_GEN)/profile.pb-c.o

$(O)/build-flags: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' "$(subst ",\",$(BUILD_FLAGS))" | cmp -s - $@ || \
		printf '%s\n' "$(subst ",\",$(BUILD_FLAGS))" >$@

$(O)/%.o: %.c $(O)/build-flags
	$(call msg,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS) -MMD -MP -c $< -o $@

ifneq ($(LTO_FLAGS),)
$(call obj,$(foreach m,$(LTO_MODULES),$($(m)_SRCS))): CFLAGS += $(LTO_FLAGS) -ffat-lto-objects
# A top-level asm (the embedded script's .incbin) does not survive LTO's partitioning.
$(O)/output/flamegraph-js.o: CFLAGS += -fno-lto
endif

define module_archive
$(O)/$(1).a: $(call obj,$($(1)_SRCS))
	$$(call msg,AR,$$@)
	$(Q)rm -f $$@ && ar rcs $$@ $$^
endef
$(foreach m,$(MODULES),$(eval $(call module_archive,$(m))))

# The binary is not linked before the layering check passed.
$(PROG_OUT): $(call obj,profiler/cli/main.c) $(ARCHIVES) $(PERF_LIBS) $(O)/layering.ok \
		$(O)/build-flags
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $(LTO_FLAGS) $(EXTRA_LDFLAGS) -o $@ $(call obj,profiler/cli/main.c) \
		$(LINK_ALL)


$(filter-out $(O)/true,$(WL_PROGS)): $(O)/%: $(O)/workloads/bin/%.o $(O)/workloads.a $(O)/lib.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $(WL_LDFLAGS_$(@F)) -Wl,--as-needed -o $@ $< $(O)/workloads.a \
		$(O)/lib.a -lpthread

# AIM9's exec_test runs ./true, a shell script
$(O)/true:
	$(call msg,GEN,$@)
	@mkdir -p $(@D)
	$(Q)printf '#!/bin/sh\n' > $@.tmp && chmod 755 $@.tmp && mv $@.tmp $@

$(LIBPERF_A) $(LIBAPI_A) &:
	$(call msg,LIBPERF,$(KTOOLS))
	@test -r $(KSRC_TAR) || { echo "missing $(KSRC_TAR): run .ci/install-deps" >&2; exit 1; }
	$(Q)rm -rf $(KSRC) && mkdir -p $(KSRC)
	$(Q)tar -xJf $(KSRC_TAR) -C $(KSRC) --strip-components=1 $(KSRC_NAME)/tools
	$(Q)$(MAKE) -s -C $(KTOOLS)/lib/perf libs >/dev/null

-include $(ALL_OBJS:.o=.d)

# ---- tests --------------------------------------------------------------------------------------
TAP_OBJ		:= $(O)/tests/tap.o
UNIT_SRCS	:= $(sort $(wildcard tests/unit/test-*.c))
UNIT_T		:= $(patsubst tests/unit/%.c,$(O)/tests/unit/%.t,$(UNIT_SRCS))
E2E		:= $(sort $(wildcard tests/e2e/t[0-9]*.sh))
FIXTURE_SRCS	:= $(sort $(wildcard tests/fixtures/*.c))
FIXTURES	:= $(patsubst tests/fixtures/%.c,$(O)/tests/fixtures/%,$(FIXTURE_SRCS))

# Each unit test tests/unit/test-<module>-*.c links only that module and what it may use.
$(foreach m,$(MODULES),$(eval $(O)/tests/unit/test-$(m)-%.t: LINK = $(call link_of,$(m))))
$(O)/tests/unit/test-record-%.o:  CFLAGS += $(PERF_CFLAGS) $(TEP_CFLAGS)
$(O)/tests/unit/test-symbolize-%.o:  CFLAGS += $(DW_CFLAGS)
$(O)/tests/unit/test-perfdata-%.o:  CFLAGS += $(ZSTD_CFLAGS)
$(O)/tests/unit/test-export-%.o:  CFLAGS += -I$(PB_GEN)
$(O)/tests/unit/test-export-%.o:  | $(PB_GEN)/profile.pb-c.h

$(O)/tests/unit/%.t: $(O)/tests/unit/%.o $(TAP_OBJ) $(ARCHIVES) $(PERF_LIBS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(TAP_OBJ) $(LINK)

# Fixture programs: frame pointers, symbols, no optimisation, so their frames are predictable.
FIXTURE_CFLAGS	:= -O0 -g -fno-omit-frame-pointer -fno-inline
$(O)/tests/fixtures/%: tests/fixtures/%.c
	$(call msg,FIXTURE,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(FIXTURE_CFLAGS) -o $@ $< -lpthread
-include $(wildcard tests/fixtures/*.mk)

-include $(patsubst %.o,%.d,$(call obj,$(UNIT_SRCS)) $(TAP_OBJ))

# Fuzz harnesses: each links with libFuzzer (SANITIZE=fuzz, `make fuzz`) and, in every build,
# with replay.c, which runs the committed seeds and regression inputs (t6010-fuzz-replay).
FUZZ_NAMES	:= $(patsubst tests/fuzz/fuzz-%.c,%,$(sort $(wildcard tests/fuzz/fuzz-*.c)))
FUZZ_REPLAY	:= $(patsubst %,$(O)/tests/fuzz/replay-%,$(FUZZ_NAMES))
FUZZERS		:= $(patsubst %,$(O)/tests/fuzz/fuzz-%,$(FUZZ_NAMES))
FUZZ_SECONDS	?= 60
$(O)/tests/fuzz/%.o: CFLAGS += $(PERF_CFLAGS) $(TEP_CFLAGS) $(DW_CFLAGS)
$(patsubst %,$(O)/tests/fuzz/fuzz-%.o,$(FUZZ_NAMES)): | $(LIBPERF_A)
$(O)/tests/fuzz/replay-%: $(O)/tests/fuzz/fuzz-%.o $(O)/tests/fuzz/replay.o $(ARCHIVES) $(PERF_LIBS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(O)/tests/fuzz/replay.o $(LINK_ALL)
$(O)/tests/fuzz/fuzz-%: $(O)/tests/fuzz/fuzz-%.o $(ARCHIVES) $(PERF_LIBS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $< $(LINK_ALL)
-include $(wildcard $(O)/tests/fuzz/*.d)

fuzz-build: $(FUZZERS)
fuzz:
	@$(MAKE) --no-print-directory SANITIZE=fuzz fuzz-build
	tests/fuzz/run build-fuzz $(FUZZ_SECONDS) $(FUZZ_NAMES)

tests: $(PROG_OUT) $(WL_PROGS) $(UNIT_T) $(FIXTURES) $(FUZZ_REPLAY)

# The e2e scripts find everything through these variables.
TEST_ENV	= KPROF=$(abspath $(PROG_OUT)) KPROF_BUILD=$(abspath $(O)) KPROF_SRC=$(CURDIR) \
		  KPROF_SHARED=$(abspath ../shared) LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp

# A failed check's output is printed again after the summary (KPROF_FAILURES, see lib.sh).
FAILURES	= $(abspath $(O))/test-failures.log
test: tests check-layering
	@rm -f $(FAILURES)
	@$(TEST_ENV) KPROF_FAILURES=$(FAILURES) prove $(PROVE_FLAGS) $(UNIT_T) $(E2E) || \
		{ echo "== the failed checks' output ($(FAILURES)):"; cat $(FAILURES) 2>/dev/null; exit 1; }

unit: $(UNIT_T)
	prove $(PROVE_FLAGS) $(UNIT_T)

e2e: tests
	$(TEST_ENV) prove $(PROVE_FLAGS) $(E2E)

# The threaded parts (the perf.data pipeline, the folded writer, lib's threads) under helgrind
# too: a data race is an error.
THREADED_T	:= $(O)/tests/unit/test-profile-pipeline-queue.t $(O)/tests/unit/test-profile-pipeline.t \
		   $(O)/tests/unit/test-profile-pipeline-kernel.t $(O)/tests/unit/test-profile-pipeline-early.t \
		   $(O)/tests/unit/test-symbolize-prefetch.t $(O)/tests/unit/test-output-folded.t \
		   $(O)/tests/unit/test-lib-util.t

test-mem: $(UNIT_T)
	@for t in $(UNIT_T); do \
		echo "== valgrind $$t"; \
		valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
			--error-exitcode=1 $$t >/dev/null || exit 1; \
	done
	@for t in $(THREADED_T); do \
		echo "== helgrind $$t"; \
		valgrind -q --tool=helgrind --suppressions=tests/helgrind.supp --error-exitcode=1 \
			$$t >/dev/null || exit 1; \
	done

deps:
	@.ci/install-deps

check: deps
	@$(MAKE) --no-print-directory test

run: deps
	@$(MAKE) --no-print-directory all
	@./$(PROG) run anon-w-seq-mt

# The layering (see MODULES above): a module including another's header, or needing a symbol
# that another module defines, when that module is not in its _DEPS, fails the build; so does one
# global name defined in two modules (a static link silently picks one) and libperf included
# outside record/. tests/check-layering.sh does the work; the rules are the _DEPS above.
LAYERING_ENV	= $(foreach m,$(MODULES),DIR_$(m)='$($(m)_DIR)' DEPS_$(m)='$($(m)_DEPS)') \
		  MODULES='$(MODULES)' ARCHIVE_DIR='$(O)'
$(O)/layering.ok: $(ARCHIVES) tests/check-layering.sh $(shell find $(foreach m,$(MODULES),$($(m)_DIR)) -name '*.[ch]')
	$(call msg,LAYERING,$(MODULES))
	$(Q)$(LAYERING_ENV) tests/check-layering.sh
	@touch $@

check-layering:
	@rm -f $(O)/layering.ok
	@$(MAKE) --no-print-directory $(O)/layering.ok

clean:
	rm -rf $(O) build-san build-fuzz $(PROG)

distclean: clean
	rm -rf build

FORCE:
.PHONY: FORCE all tests test unit e2e test-mem deps check run check-layering clean distclean fuzz \
	fuzz-build
.SECONDARY:
