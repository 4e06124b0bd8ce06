// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline-kernel.c - the kernel side of profile_load() (see pipeline-int.h): the kernel's
 * symbols load in a thread of their own, and the resolving thread names the kernel frames of
 * each batch with them once they are there (pipeline-early.c: until then it names the batches'
 * user frames ahead, so that neither thread waits for kallsyms).
 *
 * A batch is walked in order: kernel MMAPs (pid -1: the kernel map and modules) change this
 * side's session where they stand, and every kernel frame of a stack becomes a pointer to its
 * struct nframe. That is exactly what resolving each frame in the resolving thread did, since
 * kernel names depend on nothing else.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "profiler/lib/lib.h"
#include "profiler/profile/pipeline-int.h"

#define KFRAME_SLOTS		(1u << 14)

bool pipe_exec_map(const struct pipe_record *rec, const char *body, struct pipe_map *m)
{
	uint32_t prot;

	if (rec->rec_type == PERF_RECORD_MMAP2) {
		memcpy(&prot, body + 56, 4);
		if (!(prot & PROT_EXEC))
			return false;
	} else if (rec->rec_type != PERF_RECORD_MMAP || (rec->misc & PERF_RECORD_MISC_MMAP_DATA)) {
		return false;
	}
	return pipe_any_map(rec, body, m);
}

bool pipe_any_map(const struct pipe_record *rec, const char *body, struct pipe_map *m)
{
	size_t name_at = rec->rec_type == PERF_RECORD_MMAP2 ? 64 : 32;
	uint64_t v[3];

	if (rec->rec_type != PERF_RECORD_MMAP && rec->rec_type != PERF_RECORD_MMAP2)
		return false;
	memcpy(&m->pid, body, 4);
	memcpy(v, body + 8, sizeof(v));
	m->start = v[0];
	m->len = v[1];
	m->pgoff = v[2];
	m->filename = body + name_at;
	m->build_id = NULL;
	m->build_id_len = 0;
	/* MMAP2: u8 build_id_size, u8, u16 reserved, 20 id bytes where maj/min/ino were */
	if (rec->rec_type == PERF_RECORD_MMAP2 && (rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) &&
	    (uint8_t)body[32] && (uint8_t)body[32] <= 20) {
		m->build_id = (const uint8_t *)body + 36;
		m->build_id_len = (uint8_t)body[32];
	}
	return true;
}

/* A BUILD_ID entry of a kernel module: the kernel's, not "[kernel.kallsyms]" nor the vdso. */
static bool is_module_build_id(const struct pd_build_id *b)
{
	return b->pid == -1 && b->kernel && b->filename && strncmp(b->filename, "[kernel.", 8) &&
	       strncmp(b->filename, "[guest.kernel.", 14) && strcmp(b->filename, "[vdso]");
}

int kernel_module_build_ids(struct sym_session *s, const struct pd_build_id *ids, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (is_module_build_id(&ids[i]) &&
		    sym_session_set_module_build_id(s, ids[i].filename, ids[i].id, ids[i].size) ==
		    -ENOMEM)
			return -ENOMEM;
	return 0;
}

void kernel_build_id_opts(struct sym_opts *so, const struct pd_file_info *in, const char *path,
			  struct pd_build_id *mmap_id)
{
	for (size_t i = 0; i < in->nr_build_ids; i++) {
		const struct pd_build_id *b = &in->build_ids[i];

		if (b->pid == -1 && b->kernel && !strcmp(b->filename, "[kernel.kallsyms]")) {
			so->kernel_build_id = b->id;
			so->kernel_build_id_len = b->size;
		}
	}
	if (pd_file_kernel_mmap_build_id(path, mmap_id) > 0) {
		so->kernel_build_id = mmap_id->id;
		so->kernel_build_id_len = mmap_id->size;
	}
}

void kernel_build_id_missing(const struct sym_session *s, const struct sym_opts *so,
			     char out[41])
{
	struct sym_stats st;

	out[0] = '\0';
	sym_session_stats(s, &st);
	for (size_t i = 0; st.kernel_build_id_missing && i < so->kernel_build_id_len && i < 20; i++)
		snprintf(out + 2 * i, 3, "%02x", so->kernel_build_id[i]);
}

/* User files' and the vdso's recorded build-ids (modules': kernel_module_build_ids above). */
int user_build_ids(struct sym_session *s, const struct pd_build_id *ids, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		const struct pd_build_id *b = &ids[i];

		if (!b->kernel && (b->filename[0] == '/' || !strcmp(b->filename, "[vdso]")) &&
		    sym_session_set_build_id(s, b->filename, b->id, b->size) == -ENOMEM)
			return -ENOMEM;
	}
	return 0;
}

static void *load(void *arg)
{
	struct kernel_side *k = arg;

	struct sym_session *sym = sym_session_new(&k->opts);
	int ret = sym ? kernel_module_build_ids(sym, k->ids, k->nr_ids) :
		  errno ? -errno : -ENOMEM;

	pthread_mutex_lock(&k->lock);
	k->sym = sym;
	k->ret = ret;
	k->loaded = true;
	pthread_cond_broadcast(&k->loaded_cond);
	pthread_mutex_unlock(&k->lock);
	return NULL;
}

/* load() on a thread of its own, named for top -H and perf */
static void *load_thread(void *arg)
{
	thread_name("kprof-kallsyms");
	return load(arg);
}

int kernel_side_start(struct kernel_side *k, const struct sym_opts *o,
		      const struct pd_build_id *ids, size_t nr_ids)
{
	memset(k, 0, sizeof(*k));
	k->opts = *o;
	k->ids = ids;
	k->nr_ids = nr_ids;
	k->cache = zalloc_table(KFRAME_SLOTS, sizeof(*k->cache));
	if (!k->cache || pthread_mutex_init(&k->lock, NULL)) {
		free(k->cache);
		k->cache = NULL;
		return -ENOMEM;
	}
	if (pthread_cond_init(&k->loaded_cond, NULL)) {
		pthread_mutex_destroy(&k->lock);
		free(k->cache);
		k->cache = NULL;
		return -ENOMEM;
	}
	k->lock_inited = true;
	k->started = !pthread_create(&k->thread, NULL, load_thread, k);
	if (!k->started) {
		load(k);
		k->joined = true;
	}
	return 0;
}

int kernel_side_wait(struct kernel_side *k, char *err, size_t errlen)
{
	const struct sym_opts *so = &k->opts;

	if (!k->joined) {
		pthread_join(k->thread, NULL);
		k->joined = true;
	}
	if (!k->ret)
		return 0;
	if (k->ret == -ESTALE)
		return err_set(err, errlen, k->ret, "vmlinux %s is not the recorded kernel (its "
			       "build-id differs)", so->vmlinux);
	return err_set(err, errlen, k->ret, "cannot use the kernel symbols of %s: %s",
		       so->vmlinux ? so->vmlinux : so->kallsyms ? so->kallsyms : "this machine",
		       k->ret == -ENODATA && !so->vmlinux ? "no kernel symbol with an address in "
		       "it (empty, or not a kallsyms text)" : strerror(-k->ret));
}

int kernel_side_ready(struct kernel_side *k, bool wait)
{
	bool loaded;
	int ret;

	pthread_mutex_lock(&k->lock);
	while (wait && !k->loaded)
		pthread_cond_wait(&k->loaded_cond, &k->lock);
	loaded = k->loaded;
	ret = k->ret;
	pthread_mutex_unlock(&k->lock);
	return !loaded ? 0 : ret ? ret : 1;
}

const char *kernel_side_source(const struct kernel_side *k)
{
	return k->joined && k->sym ? sym_session_kernel_source(k->sym) : NULL;
}

/* The nframe of kernel address @addr under the current kernel maps, as a chain word. */
static int kframe_word(struct kernel_side *k, uint64_t *word)
{
	uint64_t addr = *word, h = addr * 0x9e3779b97f4a7c15ULL;
	struct kframe_slot *s = &k->cache[h >> (64 - 14)];
	struct sym_result res;

	if (!s->f || s->addr != addr) {
		s->f = nframe_new(&k->chunks);
		if (!s->f)
			return -ENOMEM;
		sym_session_resolve(k->sym, -1, addr, true, &res);
		*s->f = (struct nframe){
			.addr = addr, .sym = res.sym, .dso = res.dso, .sym_id = res.sym ? res.sym_id : 0,
		};
		s->addr = addr;
	}
	*word = (uint64_t)(uintptr_t)s->f;
	return 0;
}

/* Whether the chain starts with the sample's ip (a chain with an unknown context: no). */
static bool chain_starts_with_ip(const struct pipe_stack *st, const uint64_t *chain)
{
	bool seen = false;
	uint64_t first = 0;

	for (uint32_t i = 0; i < st->nr; i++) {
		if (chain[i] >= (uint64_t)PERF_CONTEXT_MAX) {
			if (!pipe_context_cpumode(chain[i]))
				return false;
		} else if (!seen) {
			seen = true;
			first = chain[i];
		}
	}
	return seen && first == st->ip;
}

/*
 * The kernel frames of a stack to nframes, walking the chain as the resolving side's stack_ids()
 * does, and whether the chain starts with the sample's ip (decided before either is replaced).
 * A kernel ip that is not the chain's first entry is named first, as perf resolves the sample's
 * ip before its chain (machine__resolve): what perf meets first matters (kmod.c).
 */
int kernel_side_name_stack(void *arg, struct pipe_stack *st, uint64_t *chain)
{
	struct kernel_side *k = arg;
	unsigned int cpumode = PERF_RECORD_MISC_USER;
	int ret = 0;

	if (!k->keep_ip_first)
		st->ip_first = chain_starts_with_ip(st, chain);
	if (!st->ip_first && st->misc == PERF_RECORD_MISC_KERNEL)
		ret = kframe_word(k, &st->ip);
	for (uint32_t i = 0; i < st->nr && !ret; i++) {
		if (chain[i] >= (uint64_t)PERF_CONTEXT_MAX) {
			cpumode = pipe_context_cpumode(chain[i]);
			if (!cpumode)
				break;
			continue;
		}
		if (cpumode == PERF_RECORD_MISC_KERNEL)
			ret = kframe_word(k, &chain[i]);
	}
	return ret;
}

/* A kernel MMAP where it stands in the batch: later kernel addresses are named under it. */
int kernel_side_map(void *arg, const struct pipe_record *rec, const char *body)
{
	struct kernel_side *k = arg;
	struct pipe_map m;
	char name[256];

	if (!pipe_exec_map(rec, body, &m) || m.pid != -1)
		return 0;
	/*
	 * A module's build-id in its MMAP2 (perf record --buildid-mmap), as perf takes it: given
	 * under the module's short name, which an MMAP does not make the name shown.
	 */
	if (m.build_id_len && strncmp(m.filename, "[kernel.", 8) &&
	    kmod_short_name(m.filename, name, sizeof(name)) &&
	    sym_session_set_module_build_id(k->sym, name, m.build_id, m.build_id_len) == -ENOMEM)
		return -ENOMEM;
	if (sym_session_add_map(k->sym, -1, m.start, m.len, m.pgoff, m.filename) == -ENOMEM)
		return -ENOMEM;
	explicit_bzero(k->cache, KFRAME_SLOTS * sizeof(*k->cache));
	return 0;
}

int kernel_side_name(struct kernel_side *k, uint64_t *w, size_t nr, bool keep_ip_first)
{
	k->keep_ip_first = keep_ip_first;
	return pipe_batch_walk(w, nr, kernel_side_name_stack, kernel_side_map, k);
}

void kernel_side_release(struct kernel_side *k)
{
	if (k->started && !k->joined)
		pthread_join(k->thread, NULL);
	sym_session_free(k->sym);
	nframe_chunks_free(&k->chunks);
	free(k->cache);
	if (k->lock_inited) {
		pthread_cond_destroy(&k->loaded_cond);
		pthread_mutex_destroy(&k->lock);
	}
	memset(k, 0, sizeof(*k));
}
