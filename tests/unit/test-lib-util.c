// SPDX-License-Identifier: GPL-2.0
/*
 * lib/: whole-file reads (limits, errors, /proc), growable arrays, zeroed tables, err_set and
 * atomic output files (the file appears whole, or not at all).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "profiler/lib/lib.h"
#include "tests/tap.h"

static int write_hello(FILE *fp, void *arg)
{
	fputs((const char *)arg, fp);
	return 0;
}

static int write_fails(FILE *fp, void *arg)
{
	(void)arg;
	fputs("half", fp);
	return -EIO;
}

/* What a thread of thread_create_elsewhere() saw when it started. */
struct seen {
	int		cpu;
	cpu_set_t	allowed, started_on;
	bool		ran, elsewhere;
};

static void *note_start(void *arg)
{
	struct seen *s = arg;

	s->cpu = sched_getcpu();
	(void)sched_getaffinity(0, sizeof(s->allowed), &s->allowed);
	s->elsewhere = thread_started_on(&s->started_on);
	s->ran = true;
	return arg;
}

/* The creator busy for 5 ms, as when it folds its half, before it waits for the thread. */
static void spin_5ms(void)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 5000000L);
}

static void test_thread_elsewhere(void)
{
	cpu_set_t mine, one;
	struct seen s;
	pthread_t t;
	void *ret;
	int elsewhere = 0, kept_off = 0, rounds = 50;

	if (sched_getaffinity(0, sizeof(mine), &mine) || CPU_COUNT(&mine) < 2) {
		skip(5, "needs a process allowed two CPUs or more");
	} else {
		for (int i = 0; i < rounds; i++) {
			int cpu = sched_getcpu();
			cpu_set_t want = mine;

			memset(&s, 0, sizeof(s));
			if (thread_create_elsewhere(&t, note_start, &s))
				break;
			spin_5ms();
			if (pthread_join(t, &ret))
				break;
			CPU_CLR(cpu, &want);
			elsewhere += s.ran && ret == &s && s.cpu != cpu &&
				     CPU_EQUAL(&s.allowed, &mine);
			kept_off += s.elsewhere && CPU_EQUAL(&s.started_on, &want);
		}
		/*
		 * The caller could move between its sched_getcpu() and the thread's (a few us): not
		 * three times in 50. Without the affinity, this VM's scheduler put 0-4 of 20 on the
		 * creator's CPU.
		 */
		ok(kept_off >= rounds - 2, "%d of %d threads started allowed every CPU of their "
		   "creator's but the one it ran on", kept_off, rounds);
		ok(elsewhere >= rounds - 2, "%d of %d threads ran on another CPU than their "
		   "creator's, then allowed its CPUs", elsewhere, rounds);
		/* a caller allowed one CPU only: the thread too, and it runs */
		CPU_ZERO(&one);
		CPU_SET(sched_getcpu(), &one);
		ok(!sched_setaffinity(0, sizeof(one), &one), "caller kept to one CPU");
		memset(&s, 0, sizeof(s));
		ok(!thread_create_elsewhere(&t, note_start, &s) && !pthread_join(t, NULL) &&
		   s.ran && CPU_EQUAL(&s.allowed, &one), "... its thread runs there, allowed that "
		   "CPU alone");
		ok(!thread_started_on(&one), "the creator is not such a thread");
		(void)sched_setaffinity(0, sizeof(mine), &mine);
	}
}

int main(void)
{
	char dir[] = "/tmp/kprof-test-lib-XXXXXX", path[256], big[200000], err[64] = "", *buf;
	size_t len, alloc = 0;
	uint64_t *a = NULL, *t;
	int fd;

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/f", dir);

	/* read_whole_file: larger than the first buffer, NUL-terminated, limits */
	memset(big, 'x', sizeof(big));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ok(fd >= 0 && write(fd, big, sizeof(big)) == (ssize_t)sizeof(big), "test file written");
	close(fd);
	is_int(read_whole_file(path, 0, &buf, &len), 0, "whole file read");
	ok(len == sizeof(big) && buf[len] == '\0' && !memcmp(buf, big, len), "all bytes, then NUL");
	free(buf);
	is_int(read_whole_file(path, sizeof(big), &buf, &len), 0, "exactly the limit is fine");
	free(buf);
	is_int(read_whole_file(path, 1000, &buf, &len), -EFBIG, "beyond the limit: -EFBIG");
	is_int(read_whole_file(dir, 0, &buf, &len), -EISDIR, "a directory: -EISDIR");
	snprintf(path, sizeof(path), "%s/none", dir);
	is_int(read_whole_file(path, 0, &buf, &len), -ENOENT, "missing: -ENOENT");
	is_int(read_whole_file("/proc/self/stat", 0, &buf, &len), 0, "/proc file (size 0 in stat)");
	ok(len > 0 && strlen(buf) == len, "... has its contents");
	free(buf);

	/* open_regular: what a recording names may be a FIFO (whose open() waits for a writer) */
	snprintf(path, sizeof(path), "%s/f", dir);
	fd = open_regular(path);
	ok(fd >= 0, "a regular file opens");
	if (fd >= 0)
		close(fd);
	is_int(read_whole_regular_file("/proc/self/stat", 0, &buf, &len), 0, "so does /proc's");
	free(buf);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	ok(!mkfifo(path, 0600), "FIFO made");
	is_int(open_regular(path), -EINVAL, "a FIFO: -EINVAL, at once (no writer waited for)");
	is_int(read_whole_regular_file(path, 0, &buf, &len), -EINVAL, "... nor read");
	unlink(path);
	is_int(open_regular("/dev/zero"), -EINVAL, "a device: -EINVAL");
	is_int(open_regular(dir), -EINVAL, "a directory: -EINVAL");
	snprintf(path, sizeof(path), "%s/none", dir);
	is_int(open_regular(path), -ENOENT, "missing: -ENOENT");

	/* grow_array */
	a = grow_array(NULL, &alloc, 0, sizeof(*a));
	ok(a && alloc >= 1, "a NULL array gets room even for 0");
	t = grow_array(a, &alloc, 1000, sizeof(*a));
	ok(t && alloc >= 1000 && (alloc & (alloc - 1)) == 0, "grown to a power of two >= need");
	a = t;
	a[999] = 7;
	t = grow_array(a, &alloc, (size_t)-1 / 2, sizeof(*a));
	ok(!t && alloc >= 1000 && a[999] == 7, "overflow: NULL, the old array intact");
	free(a);

	/* zalloc_table */
	t = zalloc_table(4096, sizeof(*t));
	ok(t && t[0] == 0 && t[4095] == 0, "zeroed table");
	free(t);
	ok(!zalloc_table((size_t)-1 / 4, 8), "overflow: NULL");

	/* err_set */
	is_int(err_set(err, sizeof(err), -EINVAL, "%s: bad", "file"), -EINVAL, "err_set returns ret");
	is_str(err, "file: bad", "err_set formats");
	is_int(err_set(NULL, 0, -EIO, "x"), -EIO, "err_set with no buffer");

	/* write_file_atomic */
	snprintf(path, sizeof(path), "%s/out", dir);
	is_int(write_file_atomic(path, write_hello, "hello\n"), 0, "atomic write");
	is_int(read_whole_file(path, 0, &buf, &len), 0, "... read back");
	is_str(buf, "hello\n", "... whole");
	free(buf);
	is_int(write_file_atomic(path, write_fails, NULL), -EIO, "failing writer: its error");
	is_int(read_whole_file(path, 0, &buf, &len), 0, "the old file is still there");
	is_str(buf, "hello\n", "... untouched");
	free(buf);

	/* the temporary is never opened through a symlink planted for it (issue 12) */
	{
		char victim[300], tmp_link[300], *tmp = NULL;
		int vfd;

		snprintf(victim, sizeof(victim), "%s/victim", dir);
		snprintf(tmp_link, sizeof(tmp_link), "%s.tmp", path);
		vfd = open(victim, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		ok(vfd >= 0 && write(vfd, "precious", 8) == 8, "victim written");
		close(vfd);
		ok(!symlink(victim, tmp_link), "a symlink planted at OUT.tmp");
		is_int(write_file_atomic(path, write_hello, "new\n"), 0, "atomic write next to it");
		is_int(read_whole_file(victim, 0, &buf, &len), 0, "the victim is read back");
		is_str(buf, "precious", "... unchanged");
		free(buf);
		fd = atomic_tmp_create(path, &tmp);
		ok(fd >= 0 && tmp && !strncmp(tmp, path, strlen(path)) &&
		   !strncmp(tmp + strlen(path), ".tmp.", 5), "atomic_tmp_create: OUT.tmp.XXXXXX");
		ok(fd >= 0 && (fcntl(fd, F_GETFD) & FD_CLOEXEC), "... close-on-exec");
		if (fd >= 0)
			close(fd);
		if (tmp)
			unlink(tmp);
		free(tmp);
		unlink(tmp_link);
		unlink(victim);
	}

	/*
	 * A target that is not a regular file is written in place: a FIFO gets the bytes and stays
	 * a FIFO, a character device (a /dev/null of our own) keeps its type and mode, nothing is
	 * left next to them; a directory is an error. Renaming over them put a regular file where
	 * /dev/null was, on a machine where a test wrote its output there as root.
	 */
	{
		char fifo[300], null[300], got[16] = "", *tmp = (char *)"x";
		struct stat st;
		int rfd;

		snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
		ok(!mkfifo(fifo, 0600), "a FIFO");
		rfd = open(fifo, O_RDONLY | O_NONBLOCK);
		is_int(write_file_atomic(fifo, write_hello, "piped\n"), 0, "atomic write to a FIFO");
		ok(rfd >= 0 && read(rfd, got, sizeof(got) - 1) == 6 && !strcmp(got, "piped\n"),
		   "... the reader gets the bytes: %s", got);
		ok(!stat(fifo, &st) && S_ISFIFO(st.st_mode), "... and it is still a FIFO");
		fd = atomic_tmp_create(fifo, &tmp);
		ok(fd >= 0 && !tmp, "atomic_tmp_create: the FIFO itself, no temporary");
		if (fd >= 0)
			close(fd);
		if (rfd >= 0)
			close(rfd);
		unlink(fifo);

		snprintf(null, sizeof(null), "%s/null", dir);
		if (mknod(null, S_IFCHR | 0666, makedev(1, 3)) || chmod(null, 0666)) {
			skip(2, "mknod of a null device: %s (not root?)", strerror(errno));
		} else {
			is_int(write_file_atomic(null, write_hello, "gone\n"), 0,
			       "atomic write to a null device");
			memset(&st, 0, sizeof(st));
			stat(null, &st);
			ok(S_ISCHR(st.st_mode) && (st.st_mode & 07777) == 0666,
			   "... still a character device, mode 0666 (%o)", st.st_mode & 07777);
			unlink(null);
		}
		is_int(write_file_atomic(dir, write_hello, "x"), -EISDIR, "a directory: EISDIR");
	}

	/* read_whole_text_fd: a line longer than the cap is -EMSGSIZE, as soon as it is */
	{
		int p[2];
		static char line[5000];

		memset(line, 'z', sizeof(line));
		line[sizeof(line) - 1] = '\n';
		ok(!pipe(p) && write(p[1], line, sizeof(line)) == (ssize_t)sizeof(line), "pipe filled");
		close(p[1]);
		is_int(read_whole_text_fd(p[0], sizeof(line) - 1, &buf, &len), 0,
		       "a line of exactly the cap");
		ok(len == sizeof(line), "... read whole");
		free(buf);
		close(p[0]);
		ok(!pipe(p) && write(p[1], "ab\n", 3) == 3 && write(p[1], line, sizeof(line)) ==
		   (ssize_t)sizeof(line), "pipe filled");
		close(p[1]);
		is_int(read_whole_text_fd(p[0], 100, &buf, &len), -EMSGSIZE, "a longer line: -EMSGSIZE");
		close(p[0]);
		fd = open("/dev/zero", O_RDONLY);
		is_int(read_whole_text_fd(fd, 1 << 20, &buf, &len), -EMSGSIZE,
		       "/dev/zero ends at the cap, not at ENOMEM");
		close(fd);
	}

	/* kmod_short_name: perf's kmod_path__parse_name */
	{
		char name[16] = "untouched";

		ok(kmod_short_name("/lib/modules/6.1/kernel/fs/ext4/ext4.ko.xz", name, sizeof(name)),
		   "a compressed .ko is a module");
		is_str(name, "[ext4]", "... [ext4]");
		ok(kmod_short_name("/x/nf-conntrack.ko", name, sizeof(name)) &&
		   !strcmp(name, "[nf_conntrack]"), "'-' becomes '_'");
		ok(kmod_short_name("[kvm_intel]", name, sizeof(name)) &&
		   !strcmp(name, "[kvm_intel]"), "[name] stays");
		ok(kmod_short_name("/x/a_very_long_module_name.ko", name, sizeof(name)) &&
		   !strcmp(name, "[a_very_long_m]"), "cut to the buffer, brackets kept");
		strcpy(name, "untouched");
		ok(!kmod_short_name("/usr/lib/libc.so.6", name, sizeof(name)) &&
		   !strcmp(name, "untouched"), "another file is no module, the buffer untouched");
		ok(!kmod_short_name("/x/.ko", name, sizeof(name)), "a bare suffix is no module");
	}

	unlink(path);
	snprintf(path, sizeof(path), "%s/f", dir);
	unlink(path);
	ok(rmdir(dir) == 0, "no temporary file left behind");
	test_thread_elsewhere();
	return done_testing();
}
