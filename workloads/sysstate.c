// SPDX-License-Identifier: GPL-2.0
/*
 * sysstate.c - the system changes some cases need, and their undoing: a hugetlb reservation
 * through nr_overcommit_hugepages (vm-scalability's setup_hugetlb) and a real block
 * filesystem for the truncate cases (LKP: a filesystem image in tmpfs on a loop device).
 * Every setup function undoes its own partial work when it fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "workloads/wl-int.h"

#define TMPFS_MAGIC	0x01021994

/*
 * nr_overcommit_hugepages is one global setting: two kprof runs that each save, set and
 * restore it would restore each other's value. A lock (flock, so a killed holder releases it)
 * makes concurrent hugetlb cases take turns.
 */
int wl_hugetlb_lock(struct wl_env *env, bool nonblock, char *err, size_t errlen)
{
	int ret = wl_state_dir(err, errlen);

	if (ret)
		return ret;
	/* in root's own directory, and never through a symlink */
	env->hp_lock = open(WL_HUGETLB_LOCK, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (env->hp_lock < 0)
		return err_set(err, errlen, -errno, "%s: %s", WL_HUGETLB_LOCK, strerror(errno));
	/* a signal while waiting (Ctrl-C) ends the wait: EINTR is an error like any other */
	if (flock(env->hp_lock, LOCK_EX | (nonblock ? LOCK_NB : 0))) {
		ret = -errno;
		close(env->hp_lock);
		env->hp_lock = -1;
		return err_set(err, errlen, ret, "%s: %s", WL_HUGETLB_LOCK, strerror(-ret));
	}
	return 0;
}

void wl_hugetlb_unlock(struct wl_env *env)
{
	if (env->hp_lock >= 0)
		close(env->hp_lock);	/* releases the flock */
	env->hp_lock = -1;
}

int wl_hugetlb_reserve(struct wl_env *env, long nr_pages, char *err, size_t errlen)
{
	uint64_t hp_kb = wl_meminfo_kb("Hugepagesize");
	long now;
	int ret;

	if (!hp_kb)
		return err_set(err, errlen, -EOPNOTSUPP,
			       "hugetlb: no Hugepagesize in /proc/meminfo (no hugetlbfs)");
	ret = wl_hugetlb_lock(env, false, err, errlen);
	if (ret)
		return ret;
	snprintf(env->hp_path, sizeof(env->hp_path),
		 "/sys/kernel/mm/hugepages/hugepages-%llukB/nr_overcommit_hugepages",
		 (unsigned long long)hp_kb);
	ret = wl_read_long(env->hp_path, &env->hp_old);
	if (ret) {
		wl_hugetlb_unlock(env);
		return err_set(err, errlen, ret, "%s: %s", env->hp_path, strerror(-ret));
	}
	env->hp_saved = true;
	/* on disk before the change: a kill -9 from here on is undone by the next run */
	ret = wl_state_sync(env, err, errlen);
	if (ret) {
		env->hp_saved = false;
		wl_hugetlb_unlock(env);
		return ret;
	}
	ret = wl_write_long(env->hp_path, nr_pages);
	if (!ret)
		ret = wl_read_long(env->hp_path, &now);
	if (!ret && now != nr_pages)
		ret = -ENOMEM;
	if (ret) {
		wl_hugetlb_restore(env, NULL, 0);
		return err_set(err, errlen, ret, "%s: cannot set %ld: %s%s", env->hp_path,
			       nr_pages, strerror(-ret),
			       ret == -EACCES || ret == -EPERM ? " (hugetlb cases need root)" : "");
	}
	return 0;
}

int wl_hugetlb_restore(struct wl_env *env, char *err, size_t errlen)
{
	int ret;

	if (!env->hp_saved) {
		wl_hugetlb_unlock(env);
		return 0;
	}
	ret = wl_write_long(env->hp_path, env->hp_old);
	wl_hugetlb_unlock(env);
	if (ret)
		return err_set(err, errlen, ret, "%s: cannot restore %ld: %s", env->hp_path,
			       env->hp_old, strerror(-ret));
	env->hp_saved = false;
	return wl_state_sync(env, err, errlen);
}

/* Attach @image to a free loop device that detaches itself when unmounted. fd / -errno. */
static int loop_attach(const char *image, char *dev, size_t devlen)
{
	struct loop_config cfg = { .info.lo_flags = LO_FLAGS_AUTOCLEAR };
	int ctl, img, loop = -1, nr, tries, ret = -EBUSY;

	img = open(image, O_RDWR | O_CLOEXEC);
	if (img < 0)
		return -errno;
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		ret = -errno;
		goto out;
	}
	cfg.fd = (uint32_t)img;
	for (tries = 0; tries < 16; tries++) {	/* another process may grab the same device */
		nr = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (nr < 0) {
			ret = -errno;
			break;
		}
		snprintf(dev, devlen, "/dev/loop%d", nr);
		loop = open(dev, O_RDWR | O_CLOEXEC);
		if (loop < 0) {
			ret = -errno;
			break;
		}
		if (!ioctl(loop, LOOP_CONFIGURE, &cfg)) {
			ret = loop;
			break;
		}
		ret = -errno;
		close(loop);
		loop = -1;
		if (ret != -EBUSY)
			break;
	}
	close(ctl);
out:
	close(img);
	return ret;
}

static int image_create(struct wl_env *env, uint64_t bytes, char *err, size_t errlen)
{
	struct statfs sfs;
	int fd;

	if (statfs("/dev/shm", &sfs) || sfs.f_type != TMPFS_MAGIC)
		return err_set(err, errlen, -ENOENT, "truncate: /dev/shm is not a tmpfs for the "
			       "filesystem image");
	snprintf(env->image, sizeof(env->image), WL_TRUNCATE_IMAGE_PREFIX "XXXXXX");
	fd = mkostemp(env->image, O_CLOEXEC);
	if (fd < 0) {
		env->image[0] = '\0';
		return err_set(err, errlen, -errno, "truncate: /dev/shm: %s", strerror(errno));
	}
	if (wl_state_sync(env, err, errlen)) {
		close(fd);
		return -EIO;
	}
	/* sparse: only the metadata mkfs writes takes memory */
	if (ftruncate(fd, (off_t)(bytes * 2 + 256 * WL_MIB))) {
		close(fd);
		return err_set(err, errlen, -errno, "%s: %s", env->image, strerror(errno));
	}
	close(fd);
	return 0;
}

int wl_loopfs_setup(struct wl_env *env, uint64_t bytes, enum wl_fs fs, char *err,
		    size_t errlen)
{
	/* create_sparse_root's mkfs (xfs: LKP's default; -K: no discard of the tmpfs image) */
	char *ext4[] = { "mkfs.ext4", "-q", "-F", "-E", "nodiscard,lazy_itable_init=0",
			 env->image, NULL };
	char *xfs[] = { "mkfs.xfs", "-q", "-f", "-K", env->image, NULL };
	const char *pkg = fs == WL_FS_XFS ? "xfsprogs" : "e2fsprogs";
	char **mkfs = fs == WL_FS_XFS ? xfs : ext4;
	char dev[32];
	int ret, loop;

	ret = image_create(env, bytes, err, errlen);
	if (ret)
		goto fail;
	ret = wl_spawn_wait(mkfs);
	if (ret) {
		ret = err_set(err, errlen, ret == 127 ? -ENOENT : -EIO, "truncate: %s %s%s%s",
			      mkfs[0], ret == 127 ? "not found (install " : "failed",
			      ret == 127 ? pkg : "", ret == 127 ? ")" : "");
		goto fail;
	}
	snprintf(env->mnt, sizeof(env->mnt), WL_TRUNCATE_MNT_PREFIX "XXXXXX");
	if (!mkdtemp(env->mnt)) {
		env->mnt[0] = '\0';
		ret = err_set(err, errlen, -errno, "truncate: mkdtemp: %s", strerror(errno));
		goto fail;
	}
	ret = wl_state_sync(env, err, errlen);	/* before the mount */
	if (ret)
		goto fail;
	loop = loop_attach(env->image, dev, sizeof(dev));
	if (loop < 0) {
		ret = err_set(err, errlen, loop, "truncate: no loop device for %s: %s%s",
			      env->image, strerror(-loop),
			      loop == -EACCES || loop == -EPERM ? " (needs root)" : "");
		goto fail;
	}
	ret = mount(dev, env->mnt, wl_fs_name(fs), 0, NULL) ? -errno : 0;
	close(loop);		/* autoclear: the device goes away with the mount */
	if (ret) {
		ret = err_set(err, errlen, ret, "truncate: mount -t %s %s on %s: %s%s",
			      wl_fs_name(fs), dev, env->mnt, strerror(-ret),
			      ret == -ENODEV ? " (this kernel has no such filesystem)" : "");
		goto fail;
	}
	env->mounted = true;
	return 0;
fail:
	wl_loopfs_teardown(env, NULL, 0);
	return ret;
}

int wl_loopfs_teardown(struct wl_env *env, char *err, size_t errlen)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	int ret = 0, tries;

	if (env->mounted) {
		for (tries = 0; umount2(env->mnt, 0); tries++) {
			if (errno != EBUSY || tries == 20) {
				/* still busy after 2 s: detach it, it goes once unused */
				if (umount2(env->mnt, MNT_DETACH))
					ret = err_set(err, errlen, -errno, "umount %s: %s",
						      env->mnt, strerror(errno));
				break;
			}
			nanosleep(&ts, NULL);
		}
		env->mounted = false;
	}
	if (env->mnt[0]) {
		if (rmdir(env->mnt) && !ret)
			ret = err_set(err, errlen, -errno, "rmdir %s: %s", env->mnt,
				      strerror(errno));
		env->mnt[0] = '\0';
	}
	if (env->image[0]) {
		if (unlink(env->image) && !ret)
			ret = err_set(err, errlen, -errno, "unlink %s: %s", env->image,
				      strerror(errno));
		env->image[0] = '\0';
	}
	if (!ret)
		ret = wl_state_sync(env, err, errlen);
	return ret;
}

/*
 * LKP's programs/vm-scalability/run sets three sysctls before any case. They are global, and
 * several kprof runs (other checkouts, other users' sudo) may overlap: the first run saves the
 * values and sets LKP's, the last one restores them.
 *
 * Everything lives in root's own WL_STATE_DIR (0700, checked), never in a world-writable
 * directory: the saved values are what root writes back into /proc/sys, so nobody else may
 * plant them. WL_SYSCTL_SAVED holds the system's values ("PATH VALUE" lines). A run that holds
 * the sysctls says so with a "sysctl" line in its own state file, which it flocks for its whole
 * life (state.c): the holders are the state files with that line that are still locked, so a
 * kprof killed with SIGKILL stops holding the moment it dies, and pid reuse cannot fool this.
 * WL_SYSCTL_LOCK serialises the decisions (who is first, who is last).
 */
#define WL_SYSCTL_LOCK	WL_STATE_DIR "/sysctl.lock"
#define WL_SYSCTL_SAVED	WL_STATE_DIR "/sysctl.saved"

static const struct { const char *path; long value; } lkp_sysctls[WL_NR_SYSCTL] = {
	{ "/proc/sys/vm/overcommit_memory", 1 },	/* always overcommit */
	{ "/proc/sys/vm/max_map_count", 1L << 30 },
	{ "/proc/sys/kernel/threads-max", 1L << 20 },
};

/* The saved values; false when there are none (or not all three, by our table's paths). */
static bool saved_read(long saved[WL_NR_SYSCTL])
{
	FILE *fp = fopen(WL_SYSCTL_SAVED, "re");
	char path[128];
	long v;
	int found = 0;

	if (!fp)
		return false;
	while (fscanf(fp, "%127s %ld", path, &v) == 2)
		for (int i = 0; i < WL_NR_SYSCTL; i++)
			if (!strcmp(path, lkp_sysctls[i].path) && !(found & (1 << i))) {
				saved[i] = v;
				found |= 1 << i;
			}
	fclose(fp);
	return found == (1 << WL_NR_SYSCTL) - 1;
}

static int saved_write(const long saved[WL_NR_SYSCTL])
{
	char buf[512];
	int n = 0, fd, ret = 0;

	for (int i = 0; i < WL_NR_SYSCTL; i++)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%s %ld\n", lkp_sysctls[i].path,
			      saved[i]);
	fd = open(WL_SYSCTL_SAVED ".tmp", O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return -errno;
	if (wl_write_all(fd, buf, (size_t)n) || fdatasync(fd))
		ret = -errno;
	close(fd);
	if (!ret && rename(WL_SYSCTL_SAVED ".tmp", WL_SYSCTL_SAVED))
		ret = -errno;
	return ret;
}

/* Write the saved values back and forget them. 0 / -errno with the reason in @err. */
static int saved_restore(char *err, size_t errlen)
{
	long saved[WL_NR_SYSCTL];
	int ret = 0;

	if (!saved_read(saved))
		return 0;
	for (int i = 0; i < WL_NR_SYSCTL; i++) {
		int r = wl_write_long(lkp_sysctls[i].path, saved[i]);

		if (r && !ret)
			ret = err_set(err, errlen, r, "%s: cannot restore %ld: %s",
				      lkp_sysctls[i].path, saved[i], strerror(-r));
	}
	if (!ret && unlink(WL_SYSCTL_SAVED) && errno != ENOENT)
		ret = err_set(err, errlen, -errno, "%s: %s", WL_SYSCTL_SAVED, strerror(errno));
	return ret;
}

static int sysctl_lock(char *err, size_t errlen)
{
	int ret = wl_state_dir(err, errlen), fd;

	if (ret)
		return ret;
	fd = open(WL_SYSCTL_LOCK, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0 && flock(fd, LOCK_EX)) {
		ret = -errno;
		close(fd);
		return err_set(err, errlen, ret, "%s: %s", WL_SYSCTL_LOCK, strerror(-ret));
	}
	return fd < 0 ? err_set(err, errlen, -errno, "%s: %s", WL_SYSCTL_LOCK, strerror(errno)) :
			fd;
}

int wl_sysctl_apply(struct wl_env *env, char *err, size_t errlen)
{
	long saved[WL_NR_SYSCTL];
	int ret = 0, lock;

	for (int i = 0; i < WL_NR_SYSCTL; i++)
		if (access(lkp_sysctls[i].path, W_OK))
			return err_set(err, errlen, 0, "not root: LKP's vm-scalability sysctls "
				       "(overcommit_memory=1, max_map_count, threads-max) not set");
	lock = sysctl_lock(err, errlen);
	if (lock < 0)
		return lock;
	if (!wl_sysctl_holders(NULL)) {
		/*
		 * The first: the values now are the system's, unless a holder died before
		 * restoring (its saved values are still there, and they are the system's).
		 */
		if (!saved_read(saved)) {
			for (int i = 0; !ret && i < WL_NR_SYSCTL; i++)
				ret = wl_read_long(lkp_sysctls[i].path, &saved[i]);
			if (!ret)
				ret = saved_write(saved);
		}
		for (int i = 0; !ret && i < WL_NR_SYSCTL; i++)
			ret = wl_write_long(lkp_sysctls[i].path, lkp_sysctls[i].value);
	}
	if (!ret) {
		env->sysctl_held = true;
		ret = wl_state_sync(env, err, errlen);
		if (ret)
			env->sysctl_held = false;
	} else {
		err_set(err, errlen, ret, "LKP's sysctls: %s", strerror(-ret));
	}
	close(lock);
	return ret;
}

int wl_sysctl_restore(struct wl_env *env, char *err, size_t errlen)
{
	int ret, lock;

	if (!env->sysctl_held)
		return 0;
	lock = sysctl_lock(err, errlen);
	if (lock < 0)
		return lock;
	env->sysctl_held = false;
	ret = wl_state_sync(env, err, errlen);
	if (!ret && !wl_sysctl_holders(NULL))
		ret = saved_restore(err, errlen);	/* the last one */
	close(lock);
	return ret;
}

int wl_sysctl_recover(const char *dead, char *err, size_t errlen)
{
	int ret = 0, lock = sysctl_lock(err, errlen);

	if (lock < 0)
		return lock;
	if (!wl_sysctl_holders(dead))
		ret = saved_restore(err, errlen);
	close(lock);
	return ret;
}
