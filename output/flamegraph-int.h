/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flamegraph-int.h - the frame tree shared by the flame graph builder and the SVG writer
 * (output/ internal).
 */
#ifndef KPROF_FLAMEGRAPH_INT_H
#define KPROF_FLAMEGRAPH_INT_H

#include <stdint.h>

#include "output/output.h"

#define FLAME_NONE	0u	/* no child / no sibling: node 0 is the root, never a child */

struct flame_node {
	const char	*name;		/* interned, owned by the tree */
	uint32_t	parent;
	uint32_t	first_child;	/* FLAME_NONE or a node index; children unordered */
	uint32_t	next_sibling;
	unsigned int	flags;		/* enum flame_frame_flags: the union over its stacks */
	double		total[2];	/* inclusive count per enum flame_side */
	double		self[2];
};

struct flame_str;

struct flame_tree {
	struct flame_node	*nodes;		/* nodes[0] is the root "all" */
	size_t			nr, alloc;
	uint32_t		*child_slots;	/* (parent, name, flags) -> node, open addressing */
	size_t			nr_child_slots;
	struct flame_str	*strs;		/* interned names, open addressing */
	size_t			nr_strs, nr_str_slots;
	bool			reverse;
	const char		**scratch;	/* names of one stack, for --reverse */
	unsigned int		*scratch_flags;
	size_t			scratch_alloc;
	uint32_t		*path;		/* nodes of the last stack added, root first */
	size_t			path_nr, path_alloc;
};

/* XML 1.0 text of @s: &<>"' escaped, control bytes and invalid UTF-8 as U+FFFD, '\t' as ' '.
 * At most @max_chars characters (SIZE_MAX: all); when cut, the text ends in "..". */
void flame_xml_put(FILE *fp, const char *s, size_t max_chars);
/* Number of characters (UTF-8 code points, invalid bytes counting one each) in @s. */
size_t flame_utf8_chars(const char *s);

/* The interactive part of the SVG: output/flamegraph.js, embedded by flamegraph-js.c. */
extern const char flame_js[];

#endif
