// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - small helpers for the workloads: single-write log lines, /proc and /sys
 * access, spawning a helper program.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "workloads/wl-int.h"

void wl_die_with_parent(void)
{
	pid_t parent = getppid();

	/* a worker that cannot die with its parent must not run (it would outlive a kill -9) */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)	/* or it died before */
		_exit(1);
}

int wl_write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int log_vline(FILE *log, const char *prefix, const char *fmt, va_list ap)
{
	char line[512];
	int n, m;

	n = snprintf(line, sizeof(line), "%s", prefix);
	m = vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	if (m < 0)
		return -EINVAL;
	n += m;
	if ((size_t)n >= sizeof(line) - 1)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	/* stdio may hold earlier text of this process: keep the order */
	if (fflush(log))
		return -errno;
	return wl_write_all(fileno(log), line, (size_t)n);
}

int wl_log_line(FILE *log, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = log_vline(log, "", fmt, ap);
	va_end(ap);
	return ret;
}

int wl_log_test(FILE *log, const char *fmt, ...)
{
	char stamp[64];
	time_t now = time(NULL);
	struct tm tm;
	va_list ap;
	int ret;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S  ", &tm);
	va_start(ap, fmt);
	ret = log_vline(log, stamp, fmt, ap);
	va_end(ap);
	return ret;
}

uint64_t wl_now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (uint64_t)tv.tv_sec * 1000000 + (uint64_t)tv.tv_usec;
}

long wl_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? n : 1;
}

uint64_t wl_meminfo_kb(const char *field)
{
	char line[256];
	size_t flen = strlen(field);
	unsigned long long v = 0;
	FILE *fp = fopen("/proc/meminfo", "re");

	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp)) {
		if (!strncmp(line, field, flen) && line[flen] == ':') {
			v = strtoull(line + flen + 1, NULL, 10);
			break;
		}
	}
	fclose(fp);
	return v;
}

int wl_read_long(const char *path, long *v)
{
	char buf[64];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EINVAL;
	buf[n] = '\0';
	*v = strtol(buf, NULL, 10);
	return 0;
}

int wl_write_long(const char *path, long v)
{
	char buf[32];
	int ret = 0, fd = open(path, O_WRONLY | O_CLOEXEC);
	int n = snprintf(buf, sizeof(buf), "%ld\n", v);
	ssize_t w;

	if (fd < 0)
		return -errno;
	w = write(fd, buf, (size_t)n);
	if (w != n)
		ret = w < 0 ? -errno : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int wl_spawn_wait(char *const argv[])
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);

		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFEXITED(status))
		return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	return WEXITSTATUS(status);
}
