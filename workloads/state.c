// SPDX-License-Identifier: GPL-2.0
/*
 * state.c - what a workload changed on the system, on disk, so that a kprof killed with SIGKILL
 * (no cleanup ran) is cleaned up after by the next one (workload_recover()).
 *
 * Each controller with changes owns WL_STATE_DIR/<pid>.state and holds an flock on it for its
 * whole life: the kernel drops the lock when the process dies however it dies, so a state file
 * that can be locked belongs to a dead kprof (pid reuse cannot fool this). The file is rewritten
 * from the wl_env before each change is made and after each is undone, one line per change:
 *
 *	hugetlb PATH OLD	nr_overcommit_hugepages at PATH was OLD before we wrote it
 *	mount DIR		DIR may hold our loop mount (the loop device autoclears on umount)
 *	image PATH		our filesystem image in /dev/shm
 *	sysctl			we hold LKP's sysctls (sysstate.c: the last holder restores them)
 *
 * WL_STATE_DIR is root's alone (mode 0700, checked): only root makes these changes, and no other
 * user can plant a file or a symlink in it. The hugetlb lock lives there too.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workloads/wl-int.h"

/* The state directory, created 0700 when missing; refused unless a real root-owned 0700 dir. */
int wl_state_dir(char *err, size_t errlen)
{
	struct stat st;

	if (mkdir(WL_STATE_DIR, 0700) && errno != EEXIST)
		return err_set(err, errlen, -errno, "%s: %s", WL_STATE_DIR, strerror(errno));
	if (lstat(WL_STATE_DIR, &st))
		return err_set(err, errlen, -errno, "%s: %s", WL_STATE_DIR, strerror(errno));
	if (!S_ISDIR(st.st_mode) || st.st_uid != 0 || (st.st_mode & 077))
		return err_set(err, errlen, -EPERM, "%s: not a directory of root's alone (mode "
			       "0700): refusing to use it", WL_STATE_DIR);
	return 0;
}

static int state_open(struct wl_env *env, char *err, size_t errlen)
{
	int ret = wl_state_dir(err, errlen);

	if (ret)
		return ret;
	snprintf(env->state_path, sizeof(env->state_path), "%s/%d.state", WL_STATE_DIR,
		 (int)getpid());
	/* a stale file of a dead process with our pid: ours now */
	env->state_fd = open(env->state_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (env->state_fd < 0 || flock(env->state_fd, LOCK_EX | LOCK_NB)) {
		ret = -errno;
		if (env->state_fd >= 0)
			close(env->state_fd);
		env->state_fd = -1;
		return err_set(err, errlen, ret, "%s: %s", env->state_path, strerror(-ret));
	}
	return 0;
}

int wl_state_sync(struct wl_env *env, char *err, size_t errlen)
{
	char buf[1024];
	int n = 0, ret;

	if (env->hp_saved)
		n += snprintf(buf + n, sizeof(buf) - n, "hugetlb %s %ld\n", env->hp_path,
			      env->hp_old);
	if (env->mnt[0])
		n += snprintf(buf + n, sizeof(buf) - n, "mount %s\n", env->mnt);
	if (env->image[0])
		n += snprintf(buf + n, sizeof(buf) - n, "image %s\n", env->image);
	if (env->sysctl_held)
		n += snprintf(buf + n, sizeof(buf) - n, "sysctl\n");
	if (!n) {	/* nothing left to undo */
		if (env->state_fd >= 0) {
			unlink(env->state_path);
			close(env->state_fd);
			env->state_fd = -1;
		}
		return 0;
	}
	if (env->state_fd < 0 && (ret = state_open(env, err, errlen)))
		return ret;
	if (ftruncate(env->state_fd, 0) || lseek(env->state_fd, 0, SEEK_SET) ||
	    wl_write_all(env->state_fd, buf, (size_t)n) ||
	    fdatasync(env->state_fd))
		return err_set(err, errlen, -errno, "%s: %s", env->state_path, strerror(errno));
	return 0;
}

/* Whether the state file text @buf has a line that is exactly @line. */
static bool has_line(const char *buf, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, line, n) && (p[n] == '\n' || !p[n]))
			return true;
	return false;
}

int wl_sysctl_holders(const char *skip)
{
	char own[32];
	DIR *d = opendir(WL_STATE_DIR);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	snprintf(own, sizeof(own), "%d.state", (int)getpid());
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		char buf[1024];
		ssize_t got;
		int fd;

		if (l < 7 || strcmp(de->d_name + l - 6, ".state") || !strcmp(de->d_name, own) ||
		    (skip && !strcmp(de->d_name, skip)))
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		/* a lock we can take: its kprof is dead, it holds nothing (recovery undoes it) */
		if (!flock(fd, LOCK_SH | LOCK_NB)) {
			close(fd);
			continue;
		}
		got = pread(fd, buf, sizeof(buf) - 1, 0);
		buf[got > 0 ? got : 0] = '\0';
		n += has_line(buf, "sysctl");
		close(fd);
	}
	closedir(d);
	return n;
}

/* ---- recovery ------------------------------------------------------------------------------ */

/* Append "; " and the formatted text (@fmt takes a string and a long) to @report. */
static void note(char *report, size_t len, const char *fmt, const char *a, long v)
{
	size_t at = strlen(report);

	if (at && at + 2 < len) {
		memcpy(report + at, "; ", 3);
		at += 2;
	}
	if (at < len)
		snprintf(report + at, len - at, fmt, a, v);
}

/* A name we create, prefix + mkstemp's 6 characters: nothing else is ever removed. */
static bool ours(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	return !strncmp(path, prefix, n) && strlen(path) == n + 6 && !strchr(path + n, '/');
}

static int undo_line(char *line, const char *name, char *report, size_t len)
{
	char what[16], path[256];
	long old;
	int n = sscanf(line, "%15s %255s %ld", what, path, &old);

	if (n >= 3 && !strcmp(what, "hugetlb") &&
	    !strncmp(path, "/sys/kernel/mm/hugepages/hugepages-", 35) && !strstr(path, "..")) {
		struct wl_env env = { .hp_lock = -1 };
		int ret;

		/* under the hugetlb lock, not waiting: a live case's value is not ours to change */
		ret = wl_hugetlb_lock(&env, false, NULL, 0);
		if (ret)
			return ret;
		ret = wl_write_long(path, old);
		wl_hugetlb_unlock(&env);
		if (!ret)
			note(report, len, "%s set back to %ld", path, old);
		return ret;
	}
	if (n >= 1 && !strcmp(what, "sysctl")) {
		int ret = wl_sysctl_recover(name, NULL, 0);

		if (!ret)
			note(report, len, "%sLKP's sysctls released", "", 0);
		return ret;
	}
	if (n >= 2 && !strcmp(what, "mount") && ours(path, WL_TRUNCATE_MNT_PREFIX)) {
		if (!umount2(path, MNT_DETACH))	/* the loop device autoclears with it */
			note(report, len, "%s unmounted", path, 0);
		if (rmdir(path) && errno != ENOENT)
			return -errno;
		return 0;
	}
	if (n >= 2 && !strcmp(what, "image") && ours(path, WL_TRUNCATE_IMAGE_PREFIX)) {
		if (!unlink(path))
			note(report, len, "%s removed", path, 0);
		else if (errno != ENOENT)
			return -errno;
		return 0;
	}
	return 0;	/* not ours to act on */
}

/* Undo one dead process's state file @name (locked by us, fd @fd). 0 when all undone. */
static int recover_file(int fd, const char *name, char *report, size_t len)
{
	char buf[1024], *line, *save;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	int ret = 0, r;

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		r = undo_line(line, name, report, len);
		ret = ret ?: r;
	}
	return ret;
}

int workload_state_inherit(const struct wl_env *env)
{
	/* the descriptor flag is this process's own: the controller keeps its O_CLOEXEC */
	if (!env || env->state_fd < 0)
		return 0;
	return fcntl(env->state_fd, F_SETFD, 0) ? -errno : 0;
}

bool workload_state_held(pid_t pid)
{
	char path[64];
	bool held;
	int fd;

	snprintf(path, sizeof(path), "%s/%d.state", WL_STATE_DIR, (int)pid);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return false;
	held = flock(fd, LOCK_SH | LOCK_NB) != 0;
	close(fd);
	return held;
}

int workload_recover(char *report, size_t len)
{
	DIR *d;
	struct dirent *de;
	int ret = 0;

	if (len)
		report[0] = '\0';
	if (geteuid())
		return 0;	/* only root changes the system */
	d = opendir(WL_STATE_DIR);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		int fd, r;

		if (l < 7 || strcmp(de->d_name + l - 6, ".state"))
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (flock(fd, LOCK_EX | LOCK_NB)) {	/* its kprof is alive */
			close(fd);
			continue;
		}
		r = recover_file(fd, de->d_name, report, len);
		if (!r)
			unlinkat(dirfd(d), de->d_name, 0);
		ret = ret ?: r;
		close(fd);
	}
	closedir(d);
	return ret;
}
