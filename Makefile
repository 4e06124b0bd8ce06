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
#
# Sources are found per module (profiler/ symbolize/ output/ workloads/); each module is its own
# archive, and a unit test tests/unit/test-<module>-*.c links only what that module may use, so a
# layering violation is a link error.

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
		   -Wno-unused-parameter -fno-omit-frame-pointer $(SAN_FLAGS)
override CPPFLAGS += -D_GNU_SOURCE -I. -DKPROF_VERSION='"$(VERSION)"'
override LDFLAGS += $(SAN_FLAGS)

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

# ---- sources ------------------------------------------------------------------------------------
MODULES		:= output symbolize workloads profiler
output_SRCS	:= $(sort $(wildcard output/*.c))
symbolize_SRCS	:= $(sort $(wildcard symbolize/*.c))
workloads_SRCS	:= $(sort $(wildcard workloads/*.c))
profiler_SRCS	:= $(sort $(filter-out profiler/main.c,$(wildcard profiler/*.c)))

obj		= $(patsubst %.c,$(O)/%.o,$(1))
ARCHIVES	:= $(foreach m,$(MODULES),$(O)/$(m).a)
# Link order: users before what they use.
LINK_ALL	:= $(O)/profiler.a $(O)/output.a $(O)/symbolize.a $(O)/workloads.a \
		   $(PERF_LIBS) $(TEP_LIBS) $(DW_LIBS) -lm -lpthread

ALL_OBJS	:= $(foreach m,$(MODULES),$(call obj,$($(m)_SRCS))) $(call obj,profiler/main.c)

all: $(PROG_OUT)

# Only profiler/ sees libperf and libtraceevent; only symbolize/ sees libdw/libelf.
$(O)/profiler/%.o: CFLAGS += $(PERF_CFLAGS) $(TEP_CFLAGS)
$(O)/symbolize/%.o: CFLAGS += $(DW_CFLAGS)
$(call obj,$(profiler_SRCS) profiler/main.c): | $(LIBPERF_A)

$(O)/%.o: %.c
	$(call msg,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS) -MMD -MP -c $< -o $@

define module_archive
$(O)/$(1).a: $(call obj,$($(1)_SRCS))
	$$(call msg,AR,$$@)
	$(Q)rm -f $$@ && ar rcs $$@ $$^
endef
$(foreach m,$(MODULES),$(eval $(call module_archive,$(m))))

$(PROG_OUT): $(call obj,profiler/main.c) $(ARCHIVES) $(PERF_LIBS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $(EXTRA_LDFLAGS) -o $@ $(call obj,profiler/main.c) $(LINK_ALL)

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

# Each unit test links only the module it tests (and what that module may use).
$(O)/tests/unit/test-output-%.t:    LINK = $(O)/output.a -lm
$(O)/tests/unit/test-symbolize-%.t: LINK = $(O)/symbolize.a $(DW_LIBS)
$(O)/tests/unit/test-workloads-%.t: LINK = $(O)/workloads.a -lm -lpthread
$(O)/tests/unit/test-profiler-%.t:  LINK = $(LINK_ALL)
$(O)/tests/unit/test-profiler-%.o:  CFLAGS += $(PERF_CFLAGS) $(TEP_CFLAGS)
$(call obj,$(UNIT_SRCS)): | $(LIBPERF_A)

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

tests: $(PROG_OUT) $(UNIT_T) $(FIXTURES) $(FUZZ_REPLAY)

# The e2e scripts find everything through these variables.
TEST_ENV	= KPROF=$(abspath $(PROG_OUT)) KPROF_BUILD=$(abspath $(O)) KPROF_SRC=$(CURDIR) \
		  KPROF_SHARED=$(abspath ../shared)

test: tests check-layering
	$(TEST_ENV) prove $(PROVE_FLAGS) $(UNIT_T) $(E2E)

unit: $(UNIT_T)
	prove $(PROVE_FLAGS) $(UNIT_T)

e2e: tests
	$(TEST_ENV) prove $(PROVE_FLAGS) $(E2E)

# The threaded parts (the perf.data pipeline) under helgrind too: a data race is an error.
THREADED_T	:= $(O)/tests/unit/test-profiler-pipeline-queue.t $(O)/tests/unit/test-profiler-pipeline.t

test-mem: $(UNIT_T)
	@for t in $(UNIT_T); do \
		echo "== valgrind $$t"; \
		valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
			--error-exitcode=1 $$t >/dev/null || exit 1; \
	done
	@for t in $(THREADED_T); do \
		echo "== helgrind $$t"; \
		valgrind -q --tool=helgrind --error-exitcode=1 $$t >/dev/null || exit 1; \
	done

deps:
	@.ci/install-deps

check: deps
	@$(MAKE) --no-print-directory test

run: deps
	@$(MAKE) --no-print-directory all
	@./$(PROG) run anon-w-seq-mt

# Layering rules that the archives alone cannot catch: forbidden includes, and one global name
# defined in two modules (a static link silently picks one of them).
check-layering: $(ARCHIVES)
	@dups=$$(for a in $(ARCHIVES); do nm -g --defined-only $$a | awk 'NF == 3 {print $$3}' | sort -u; \
		done | sort | uniq -d); \
		[ -z "$$dups" ] || { echo "global symbols defined in two modules: $$dups" >&2; exit 1; }
	@! grep -rn --include='*.[ch]' -E '#include\s*<perf/' symbolize output workloads \
		$(wildcard tests/unit/test-output-* tests/unit/test-symbolize-* tests/unit/test-workloads-*) || \
		{ echo 'libperf included outside profiler/' >&2; exit 1; }
	@! grep -rn --include='*.[ch]' -E '#include\s*"profiler/' symbolize output workloads || \
		{ echo 'profiler/ included from a library module' >&2; exit 1; }

clean:
	rm -rf $(O) build-san build-fuzz $(PROG)

distclean: clean
	rm -rf build

.PHONY: all tests test unit e2e test-mem deps check run check-layering clean distclean fuzz \
	fuzz-build
.SECONDARY:
