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
static int hugetlb_lock(struct wl_env *env, char *err, size_t errlen)
{
	env->hp_lock = open(WL_HUGETLB_LOCK, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (env->hp_lock < 0)
		return err_set(err, errlen, -errno, "%s: %s", WL_HUGETLB_LOCK, strerror(errno));
	/* a signal while waiting (Ctrl-C) ends the wait: EINTR is an error like any other */
	if (flock(env->hp_lock, LOCK_EX)) {
		int ret = -errno;

		close(env->hp_lock);
		env->hp_lock = -1;
		return err_set(err, errlen, ret, "%s: %s", WL_HUGETLB_LOCK, strerror(-ret));
	}
	return 0;
}

static void hugetlb_unlock(struct wl_env *env)
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
	ret = hugetlb_lock(env, err, errlen);
	if (ret)
		return ret;
	snprintf(env->hp_path, sizeof(env->hp_path),
		 "/sys/kernel/mm/hugepages/hugepages-%llukB/nr_overcommit_hugepages",
		 (unsigned long long)hp_kb);
	ret = wl_read_long(env->hp_path, &env->hp_old);
	if (ret) {
		hugetlb_unlock(env);
		return err_set(err, errlen, ret, "%s: %s", env->hp_path, strerror(-ret));
	}
	env->hp_saved = true;
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
		hugetlb_unlock(env);
		return 0;
	}
	ret = wl_write_long(env->hp_path, env->hp_old);
	hugetlb_unlock(env);
	if (ret)
		return err_set(err, errlen, ret, "%s: cannot restore %ld: %s", env->hp_path,
			       env->hp_old, strerror(-ret));
	env->hp_saved = false;
	return 0;
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
	snprintf(env->image, sizeof(env->image), "/dev/shm/kprof-truncate-XXXXXX");
	fd = mkostemp(env->image, O_CLOEXEC);
	if (fd < 0) {
		env->image[0] = '\0';
		return err_set(err, errlen, -errno, "truncate: /dev/shm: %s", strerror(errno));
	}
	/* sparse: only the metadata mkfs writes takes memory */
	if (ftruncate(fd, (off_t)(bytes * 2 + 256 * WL_MIB))) {
		close(fd);
		return err_set(err, errlen, -errno, "%s: %s", env->image, strerror(errno));
	}
	close(fd);
	return 0;
}

int wl_loopfs_setup(struct wl_env *env, uint64_t bytes, char *err, size_t errlen)
{
	char dev[32];
	int ret, loop;

	ret = image_create(env, bytes, err, errlen);
	if (ret)
		goto fail;
	{
		char *argv[] = { "mkfs.ext4", "-q", "-F", "-E", "nodiscard,lazy_itable_init=0",
				 env->image, NULL };

		ret = wl_spawn_wait(argv);
	}
	if (ret) {
		ret = err_set(err, errlen, ret == 127 ? -ENOENT : -EIO,
			      "truncate: mkfs.ext4 %s", ret == 127 ? "not found (install e2fsprogs)"
			      : "failed");
		goto fail;
	}
	snprintf(env->mnt, sizeof(env->mnt), "/tmp/kprof-truncate-XXXXXX");
	if (!mkdtemp(env->mnt)) {
		env->mnt[0] = '\0';
		ret = err_set(err, errlen, -errno, "truncate: mkdtemp: %s", strerror(errno));
		goto fail;
	}
	loop = loop_attach(env->image, dev, sizeof(dev));
	if (loop < 0) {
		ret = err_set(err, errlen, loop, "truncate: no loop device for %s: %s%s",
			      env->image, strerror(-loop),
			      loop == -EACCES || loop == -EPERM ? " (needs root)" : "");
		goto fail;
	}
	ret = mount(dev, env->mnt, "ext4", 0, NULL) ? -errno : 0;
	close(loop);		/* autoclear: the device goes away with the mount */
	if (ret) {
		ret = err_set(err, errlen, ret, "truncate: mount %s on %s: %s", dev, env->mnt,
			      strerror(-ret));
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
	return ret;
}
