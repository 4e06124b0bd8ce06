#!/usr/bin/env bash
# check-layering.sh - fail when a module includes or links what it may not (run by make before
# kprof is linked; the rules are the Makefile's <module>_DEPS).
#
# Environment (set by the Makefile): MODULES, DIR_<m> (the module's directory), DEPS_<m> (what it
# may use), ARCHIVE_DIR (where <m>.a are).
#
# Rules:
#   1. a file of module m (and its unit tests tests/unit/test-m-*.c) includes "d/..." of a module
#      directory d only when d is m's or one of DEPS_m's;
#   2. a private header (*-int.h) is included only from its own module (and its unit tests);
#   3. libperf (<perf/...>) only in record/, libtraceevent (<event-parse.h>) only in record/ and
#      the CLI, libdw/libelf only in symbolize/;
#   4. an undefined symbol of m.a that another module's archive defines is defined in m's DEPS;
#   5. no global symbol is defined in two archives;
#   6. only the CLI prints errors (pr_err) and exits (exit()): below it an error is returned as
#      -errno with its reason in an error buffer. Warnings and progress go through lib's log,
#      whose sink the CLI owns; forked children end with _exit().
set -euo pipefail

fail=0
bad() { echo "check-layering: $*" >&2; fail=1; }

declare -A DIR DEPS
for m in $MODULES; do
	v="DIR_$m"; DIR[$m]=${!v}
	v="DEPS_$m"; DEPS[$m]=" ${!v} "
done

# The module a path belongs to (longest directory prefix) in $owner, or nothing.
owner_of() {
	local p=$1 m len=0
	owner=
	for m in $MODULES; do
		if [[ $p == "${DIR[$m]}"/* ]] && (( ${#DIR[$m]} > len )); then
			owner=$m
			len=${#DIR[$m]}
		fi
	done
}

allowed() {	# allowed USER USED
	[[ $1 == "$2" || ${DEPS[$1]} == *" $2 "* ]]
}

for m in $MODULES; do
	files=$(find "${DIR[$m]}" -maxdepth 1 -name '*.[ch]' | sort)
	tests=$(find tests/unit -maxdepth 1 -name "test-$m-*.c" | sort)
	for f in $files $tests; do
		# rules 1 and 2
		while IFS= read -r inc; do
			owner_of "$inc"
			used=$owner
			if [[ -z $used ]]; then
				[[ $inc == profiler/* ]] && bad "$f: includes \"$inc\", which is in no module"
				continue
			fi
			allowed "$m" "$used" ||
				bad "$f: module $m includes \"$inc\" of module $used (allowed:${DEPS[$m]})"
			[[ $inc == *-int.h && $used != "$m" ]] &&
				bad "$f: includes \"$inc\", a private header of module $used"
		done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
		# rule 3
		if [[ $m != record ]] && grep -qE '^\s*#\s*include\s*<perf/' "$f"; then
			bad "$f: libperf is included outside record/"
		fi
		if [[ $m != record && $m != cli ]] && grep -qE '^\s*#\s*include\s*<(traceevent/)?event-parse\.h>' "$f"; then
			bad "$f: libtraceevent is included outside record/ and the CLI"
		fi
		if [[ $m != symbolize ]] &&
		   grep -qE '^\s*#\s*include\s*<(elfutils/|libelf\.h|gelf\.h|dwarf\.h)' "$f"; then
			bad "$f: libdw/libelf is included outside symbolize/"
		fi
		# rule 6 (the module's own files; tests and the lib's log itself aside)
		if [[ $m != cli && $f != tests/* && $f != */lib/log.c ]] &&
		   grep -nE '(^|[^_a-z])(pr_err|exit)\(' "$f" |
		   grep -vE '^[0-9]+:\s*(\*|//|#\s*define)|forked child' | grep -q .; then
			bad "$f: prints an error or exits outside the CLI (return -errno and a reason)"
		fi
	done
done

# rules 4 and 5: who defines what
declare -A definer
for m in $MODULES; do
	while read -r sym; do
		if [[ -n ${definer[$sym]:-} && ${definer[$sym]} != "$m" ]]; then
			bad "global symbol $sym is defined in both ${definer[$sym]} and $m"
		fi
		definer[$sym]=$m
	done < <(nm -g --defined-only "$ARCHIVE_DIR/$m.a" | awk 'NF == 3 && $2 ~ /[A-Z]/ {print $3}' | sort -u)
done
for m in $MODULES; do
	while read -r sym; do
		d=${definer[$sym]:-}
		[[ -z $d ]] && continue		# a system library's
		allowed "$m" "$d" || bad "module $m uses $sym of module $d (allowed:${DEPS[$m]})"
	done < <(nm -g --undefined-only "$ARCHIVE_DIR/$m.a" | awk 'NF >= 2 && $1 == "U" {print $2}' | sort -u)
done

exit $fail
