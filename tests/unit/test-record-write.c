// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data writer (perf-write.c, synth.c) read back by the project's reader
 * (perf-read.c): attrs, ids, names, feature sections, synthesized and sample records.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "profiler/record/record.h"
#include "tests/tap.h"

#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

/* A SAMPLE of event id @id: ip, pid/tid, time, cpu, period and a 3-entry call chain. */
static void add_sample(struct pd_writer *w, uint64_t id, uint64_t time)
{
	uint64_t rec[16] = { 0 };
	struct perf_event_header *h = (void *)rec;
	size_t n = 1;

	rec[n++] = id;
	rec[n++] = 0x401000;			/* ip */
	rec[n++] = 42 | (43ULL << 32);		/* pid, tid */
	rec[n++] = time;
	rec[n++] = 1;				/* cpu 1 */
	rec[n++] = 250000;			/* period */
	rec[n++] = 3;				/* callchain nr */
	rec[n++] = (uint64_t)PERF_CONTEXT_USER;
	rec[n++] = 0x401000;
	rec[n++] = 0x402000;
	h->type = PERF_RECORD_SAMPLE;
	h->misc = PERF_RECORD_MISC_USER;
	h->size = n * 8;
	pd_writer_add(w, rec);
}

/* The kallsyms snapshot: /proc/kallsyms copied whole; a full device says so. */
static void test_kallsyms_snapshot(void)
{
	char dir[] = "/tmp/kprof-test-snapshot-XXXXXX", path[64];
	FILE *fp;
	size_t lines = 0;
	char line[512];

	if (!mkdtemp(dir)) {
		ok(0, "temporary directory");
		return;
	}
	snprintf(path, sizeof(path), "%s/k", dir);
	is_int(synth_kallsyms_snapshot(path), 0, "snapshot written");
	fp = fopen(path, "r");
	while (fp && fgets(line, sizeof(line), fp))
		lines++;
	if (fp)
		fclose(fp);
	ok(lines > 0, "... with kallsyms' lines (%zu)", lines);
	unlink(path);
	rmdir(dir);
	if (access("/dev/full", W_OK))
		skip(1, "no /dev/full");
	else
		is_int(synth_kallsyms_snapshot("/dev/full"), -ENOSPC, "a full device: -ENOSPC");
}

int main(void)
{
	char path[] = "/tmp/kprof-test-perf-write-XXXXXX", err[256] = "";
	struct perf_event_attr a0 = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
				      .sample_type = ST, .sample_id_all = 1, .freq = 1,
				      .sample_freq = 4000, .read_format = PERF_FORMAT_ID };
	struct perf_event_attr a1 = a0;
	uint64_t ids0[] = { 11, 12 }, ids1[] = { 21, 22 };
	struct pd_write_event evs[] = {
		{ "cpu-clock", &a0, ids0, 2 }, { "page-faults", &a1, ids1, 2 },
	};
	char *argv[] = { "record", "-e", "cpu-clock", NULL };
	struct pd_write_meta m = { .argc = 3, .argv = argv };
	struct pd_writer *w;
	struct pd_reader *r;
	struct pd_record rec;
	size_t samples[2] = { 0 }, comms = 0, mmaps = 0;
	struct utsname u;
	int fd = mkstemp(path), ret;

	a1.config = PERF_COUNT_SW_PAGE_FAULTS;
	close(fd);
	is_int(pd_writer_open(path, evs, 2, &w), 0, "writer opens");
	is_int(synth_task(w, synth_id_hdr_size(ST), getpid(), false), 0, "this process synthesized");
	add_sample(w, 12, 2000);
	add_sample(w, 21, 1000);
	add_sample(w, 11, 3000);
	pd_writer_add(w, &(struct perf_event_header){ .type = PERF_RECORD_FINISHED_ROUND,
							.size = 8 });
	is_int(pd_writer_close(w, &m), 0, "writer closes");
	ok(access(path, F_OK) == 0, "the file is in place");

	is_int(pd_reader_open(path, &r, err, sizeof(err)), 0, "reader opens it (%s)", err);
	is_int(pd_reader_nr_attrs(r), 2, "two attrs");
	is_str(pd_reader_attr(r, 0)->name, "cpu-clock", "EVENT_DESC name 0");
	is_str(pd_reader_attr(r, 1)->name, "page-faults", "EVENT_DESC name 1");
	is_int(pd_reader_attr(r, 1)->nr_ids, 2, "ids of attr 1");
	uname(&u);
	is_str(pd_reader_info(r)->hostname, u.nodename, "HOSTNAME");
	is_str(pd_reader_info(r)->osrelease, u.release, "OSRELEASE");
	is_str(pd_reader_info(r)->arch, u.machine, "ARCH");
	ok(pd_reader_info(r)->cmdline &&
	   strstr(pd_reader_info(r)->cmdline, "record -e cpu-clock"), "CMDLINE (%s)",
	   pd_reader_info(r)->cmdline);
	is_int(pd_reader_info(r)->nr_cpus_online, (int)sysconf(_SC_NPROCESSORS_ONLN), "NRCPUS");
	while ((ret = pd_reader_next(r, &rec, err, sizeof(err))) == 1) {
		struct pd_sample s;

		if (rec.hdr.type == PERF_RECORD_COMM)
			comms++;
		if (rec.hdr.type == PERF_RECORD_MMAP2)
			mmaps++;
		if (rec.hdr.type != PERF_RECORD_SAMPLE)
			continue;
		samples[rec.attr->idx]++;
		if (!pd_sample_decode(rec.body, rec.body_len, &rec.attr->attr, &s) &&
		    rec.attr->idx == 1) {
			is_u64(s.time, 1000, "page-faults sample time");
			is_int(s.pid, 42, "pid");
			is_int(s.tid, 43, "tid");
			is_int(s.cpu, 1, "cpu");
			is_u64(s.callchain_nr, 3, "call chain");
		}
	}
	is_int(ret, 0, "clean end of data (%s)", err);
	is_int(samples[0], 2, "two cpu-clock samples (ids 11, 12)");
	is_int(samples[1], 1, "one page-faults sample (id 21)");
	ok(comms >= 1, "synthesized COMM read back (%zu)", comms);
	ok(mmaps >= 1, "synthesized MMAP2 of executable maps read back (%zu)", mmaps);
	is_u64(pd_reader_stats(r)->unknown_id, 0, "every sample id maps to an attr");
	pd_reader_close(r);
	unlink(path);
	test_kallsyms_snapshot();
	return done_testing();
}
