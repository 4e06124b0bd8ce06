// SPDX-License-Identifier: GPL-2.0
/*
 * run-guardian.c - a `kprof run` killed with SIGKILL has its system changes (LKP's sysctls, a
 * hugetlb reservation, truncate's loop mount) undone at once, not at the next `kprof run`.
 *
 * The guardian is this program again (the file /proc/self/exe names, so that its comm is
 * kprof's) with the caller's argv, e.g. `kprof -q recover --wait-fd 3 --pid P`: it holds the
 * read end of a pipe whose only writer is this process and reads it until end-of-file, which
 * comes when this process has exited, however it exited. It then undoes the state files of
 * dead kprofs (workload_recover(): their flock can be taken). A clean exit has undone
 * everything already, so the guardian finds nothing to do.
 *
 * Why a double fork: the batch becomes the subreaper of its workload and reaps with
 * waitpid(-1) until no child is left (run.c: reap_group()); a guardian among its children
 * would make it wait for a process that waits for it. The middle process exits at once, so
 * the guardian is an orphan before the batch is a subreaper (run_batch_run()), and belongs to
 * init (or to whoever is the subreaper above kprof) from the start.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "profiler/lib/lib.h"
#include "profiler/run/run.h"

extern char **environ;

/* In the guardian: the pipe at @wait_fd, nothing else of ours, then exec; never returns. */
static void guardian_exec(const char *exe, int rd, int wait_fd, char *const argv[])
{
	int null = open("/dev/null", O_RDWR);

	/* nothing of the terminal's or a pipeline's stdin/stdout; stderr stays for its warning */
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		if (null > 2)
			close(null);
	}
	if (rd == wait_fd)
		fcntl(rd, F_SETFD, 0);
	else if (dup2(rd, wait_fd) < 0)
		_exit(127);
	/* no other descriptor (a state file's flock above all) may live on in the guardian */
	if (close_range((unsigned int)wait_fd + 1, ~0U, 0))
		for (int fd = wait_fd + 1; fd < 65536; fd++)
			close(fd);
	execve(exe, argv, environ);
	_exit(127);
}

int run_guardian_start(char *const argv[], int wait_fd, char *err, size_t errlen)
{
	char exe[PATH_MAX];
	ssize_t n;
	int p[2], status, ret = 0;
	pid_t mid;

	if (wait_fd < 3)
		return err_set(err, errlen, -EINVAL, "guardian: descriptor %d is stdio", wait_fd);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return err_set(err, errlen, -errno, "guardian: /proc/self/exe: %s", strerror(errno));
	exe[n] = '\0';
	if (pipe2(p, O_CLOEXEC))
		return err_set(err, errlen, -errno, "guardian: pipe: %s", strerror(errno));
	fflush(NULL);
	mid = fork();
	if (mid == 0) {
		pid_t guardian;

		close(p[1]);
		guardian = fork();
		if (guardian == 0)
			guardian_exec(exe, p[0], wait_fd, argv);
		_exit(guardian < 0);
	}
	close(p[0]);
	if (mid < 0)
		ret = err_set(err, errlen, -errno, "guardian: fork: %s", strerror(errno));
	while (mid > 0 && waitpid(mid, &status, 0) < 0)
		if (errno != EINTR) {
			ret = err_set(err, errlen, -errno, "guardian: wait: %s", strerror(errno));
			break;
		}
	if (!ret && (!WIFEXITED(status) || WEXITSTATUS(status)))
		ret = err_set(err, errlen, -ECHILD, "guardian: its fork failed");
	if (ret)
		close(p[1]);
	return ret;	/* p[1] stays open (close-on-exec) until this process exits */
}
