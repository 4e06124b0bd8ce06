// SPDX-License-Identifier: GPL-2.0
/*
 * demangle.c - C++ (and Rust, D) names demangled as perf 6.1 does: libiberty's cplus_demangle
 * with no options, so "ns::fn" rather than "ns::fn(int)".
 *
 * A large C++ binary has hundreds of thousands of symbols and a profile hits a few hundred of
 * them, so symbol tables keep the mangled names and demangle a name when it is first handed out
 * (or when perf's duplicate choice needs it): see sym_entry.mangled.
 */
#include <libiberty/demangle.h>
#include <stdlib.h>

#include "symbolize/symbolize-int.h"

bool sym_maybe_mangled(const char *name)
{
	/*
	 * With no options (auto style) cplus_demangle tries Rust ("_R", legacy "_ZN"), the GNU v3
	 * ABI ("_Z", "_GLOBAL_" constructors) and D ("_D"); anything else it returns as NULL.
	 */
	return name[0] == '_' &&
	       (name[1] == 'Z' || name[1] == 'R' || name[1] == 'D' || name[1] == 'G');
}

char *sym_demangle(const char *name)
{
	return sym_maybe_mangled(name) ? cplus_demangle(name, DMGL_NO_OPTS) : NULL;
}
