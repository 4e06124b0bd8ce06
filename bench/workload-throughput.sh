#!/usr/bin/env bash
# bench/workload-throughput.sh - kprof's workload programs against upstream-equivalent
# behaviour, case by case, interleaved; and what profiling costs a `kprof run`. Prints ratios;
# no thresholds (speed is not a test).
#
#   1. Every usemem case the cases' command lines use, on kprof's build/usemem and on a
#      reference usemem written here from upstream's behaviour (vm-scalability usemem.c: the
#      same mmap flags, start barrier, out-of-line do_access, runtime check, accounting),
#      built as upstream's Makefile builds it (gcc -O). Metric: LKP's throughput of one
#      iteration (the sum of the workers' KB/s).
#   2. AIM9 brk_test, page_test, fork_test, exec_test on kprof's build/singleuser against the
#      same loops built the way LKP builds s9110 (gcc -O -std=gnu89 -D_POSIX_SOURCE, sbrk and
#      brk undeclared; -no-pie so the truncated sbrk pointer stays valid, as it must in LKP's
#      binary) with AIM's #!/bin/sh ./true. Metric: ops/sec.
#   3. kprof run anon-w-seq-mt with and without system-wide profiling.
#
# Each round runs kprof, the reference and the reference again (A/A), each taking each position
# in turn, so drift hits all three. Reported: the ratio of the medians over rounds, the median and
# range of the per-round ratios, and the A/A ratio (reference again / reference): on a VM a
# sub-second case moves by 10-20% from run to run, and a kprof ratio is only as good as that
# noise floor. Use ROUNDS >= 9 for a verdict. The hugetlb cases
# need a hugetlb reservation and truncate a loop filesystem: `kprof run` covers those.
#
# Usage: bench/workload-throughput.sh [ROUNDS] [SIZE_MB]   (defaults 5, 256); KPROF=./kprof
#   ONLY="brk_test page_test"  measure only these cases/tests (and skip part 3)
#   AIM_TIME=10                seconds per AIM9 test (default 2; a verdict on aim9 wants 10)
set -euo pipefail

rounds=${1:-5}
size_mb=${2:-256}
KPROF=${KPROF:-$(cd "$(dirname "$0")/.." && pwd)/kprof}
BIN=$(dirname "$KPROF")
[ -x "$BIN/usemem" ] || BIN=$BIN/build
work=$(mktemp -d /tmp/kprof-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

cat >"$work/ref-usemem.c" <<'C'
/* reference: usemem as upstream behaves for the cases' options (independent code) */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static unsigned long bytes, runtime = 3600, nr_task, nr_thread, step = 8, opt_delay;
#define PFN_OF(a) ((a) >> 12)
static int prealloc, prefault, rnd, readonly, hugetlb;
static unsigned long *pre;
static unsigned long done_bytes;
static struct timeval start;
static int fd = -1, ready_p[2], wake_p[2];

static unsigned long usec(struct timeval *a, struct timeval *b)
{
	return (b->tv_sec - a->tv_sec) * 1000000UL + b->tv_usec - a->tv_usec;
}

/* a global function built with -O, as upstream's: gcc keeps the call (profiles show do_access) */
unsigned long do_access(unsigned long *p, unsigned long idx, int rd)
{
	volatile unsigned long *vp = p;

	if (rd)
		return vp[idx];
	vp[idx] = idx;
	return 0;
}

static int exceeded(void)
{
	struct timeval now;

	gettimeofday(&now, NULL);
	return now.tv_sec - start.tv_sec > (long)runtime;
}

/*
 * Upstream's loop carries, on every access, the checks of options these cases leave off: the
 * stride (-j, `step`), the verify of the previous pass's write (`rep`), the per-page delay
 * (`opt_delay`). They are kept here because they are part of what one access costs there.
 */

/* upstream calls it from three places, so gcc -O keeps it out of line; here it has one caller */
__attribute__((noinline)) static unsigned long do_rw_once(unsigned long *p, unsigned long b,
							  struct drand48_data *rd, int read,
							  int *rep, int reps)
{
	unsigned long m = b / 8, rw = 0, i, idx, addr, prev = 0;
	long r;

	for (i = 0; i < m; i += step / 8) {
		idx = i;
		if (rnd) {
			lrand48_r(rd, &r);
			idx = (unsigned long)((double)(m - 1) * r / (RAND_MAX + 1.0));
		}
		if (rep && *rep && !read && !rnd && p[idx] != idx)
			exit(1);
		do_access(p, idx, read);
		rw += 8;
		addr = (unsigned long)(p + idx);
		if (opt_delay && PFN_OF(addr) != PFN_OF(prev))
			prev = addr;
		if (!(i & 0xffff) && exceeded()) {
			if (rep)
				*rep = reps;
			break;
		}
	}
	return rw;
}

static unsigned long *allocate(unsigned long b)
{
	int flags = MAP_PRIVATE | (prefault ? MAP_POPULATE : 0);
	void *p;

	if (hugetlb)
		flags |= MAP_ANONYMOUS | MAP_HUGETLB | (21 << 26);
	p = mmap(NULL, b, readonly ? PROT_READ : PROT_READ | PROT_WRITE, flags,
		 hugetlb ? -1 : fd, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	return p;
}

static void *do_units(void *arg)
{
	struct drand48_data rd;
	struct pollfd pfd = { .fd = wake_p[0], .events = POLLIN };
	unsigned long *p, ub;
	struct timeval now, t0;
	char line[128];

	srand48_r(time(NULL) ^ syscall(SYS_gettid), &rd);
	if (write(ready_p[1], "", 1) != 1 || poll(&pfd, 1, -1) < 0)
		exit(1);
	ub = done_bytes;
	if (pre) {
		p = pre;
	} else {
		p = allocate(bytes);
		ub += bytes / 8;
	}
	for (int rep = 0; rep < 1; rep++)
		ub += do_rw_once(p, bytes, &rd, readonly, &rep, 1);
	gettimeofday(&now, NULL);
	snprintf(line, sizeof(line), "%lu bytes / %lu usecs = %lu KB/s\n", ub, usec(&start, &now),
		 ((ub * 1000000) >> 10) / usec(&start, &now));
	if (write(1, line, strlen(line)) < 0)
		exit(1);
	if (!pre) {
		gettimeofday(&t0, NULL);
		munmap(p, bytes);
		gettimeofday(&now, NULL);
		snprintf(line, sizeof(line), "%lu usecs to free memory\n", usec(&t0, &now));
		if (write(1, line, strlen(line)) < 0)
			exit(1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long i, n;
	pthread_t tid[256];
	char buf[512];

	for (i = 1; i < (unsigned long)argc - 1; i++) {
		if (!strcmp(argv[i], "--runtime"))
			runtime = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "-n"))
			nr_task = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "-t"))
			nr_thread = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--prealloc"))
			prealloc = 1;
		else if (!strcmp(argv[i], "--prefault"))
			prefault = 1;
		else if (!strcmp(argv[i], "--random"))
			rnd = 1;
		else if (!strcmp(argv[i], "--readonly"))
			readonly = 1;
		else if (!strcmp(argv[i], "-U"))
			hugetlb = 1;
		else if (!strcmp(argv[i], "-j"))	/* as upstream: set by options, so not constants */
			step = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "-e"))
			opt_delay = strtoul(argv[++i], NULL, 10);
	}
	bytes = strtoul(argv[argc - 1], NULL, 10);
	gettimeofday(&start, NULL);
	fd = open("/dev/zero", (readonly ? O_RDONLY : O_RDWR) | O_CREAT, 0666);
	if (pipe(ready_p) || pipe(wake_p))
		return 1;
	if (prealloc) {
		pre = allocate(bytes);
		done_bytes = bytes / 8;
	}
	if (!nr_task)
		nr_task = 1;
	for (i = 0; i < nr_task; i++) {
		if (fork() == 0) {
			if (!nr_thread) {
				do_units(NULL);
				exit(0);
			}
			for (n = 0; n < nr_thread; n++)
				pthread_create(&tid[n], NULL, do_units, NULL);
			for (n = 0; n < nr_thread; n++)
				pthread_join(tid[n], NULL);
			exit(0);
		}
	}
	n = nr_task * (nr_thread ? nr_thread : 1);
	while (n > 0) {
		ssize_t r = read(ready_p[0], buf, n < sizeof(buf) ? n : sizeof(buf));

		if (r <= 0)
			break;
		n -= r;
	}
	if (write(wake_p[1], "", 1) != 1)
		return 1;
	while (wait(NULL) > 0)
		;
	return 0;
}
C
cat >"$work/ref-aim9.c" <<'C'
/* reference: AIM9's brk/page/fork/exec tests built like LKP's s9110 (-O -std=gnu89
 * -D_POSIX_SOURCE, sbrk/brk undeclared); independent code */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int flag;
static void alarmed(int s) { flag = 0; }

static int brk_test(int arg)
{
	char *oldbrk = (char *)sbrk(0);
	int i, j;

	if ((int)sbrk(1024 * 1024) == -1)
		return -1;
	for (i = 0; i < arg; i++) {
		if ((int)sbrk(-4096 * 16) == -1)
			return -1;
		for (j = 0; j < 16; j++)
			if ((int)sbrk(4096) == -1)
				return -1;
	}
	return brk(oldbrk);
}

static int page_test(int arg)
{
	char *oldbrk = (char *)sbrk(0);
	int i, j, k;

	if ((int)sbrk(1024 * 1024) == -1)
		return -1;
	for (i = 0; i < arg; i++) {
		if ((int)sbrk(-4096 * 16) == -1)
			return -1;
		for (j = 0; j < 16; j++) {
			char *cp = (char *)sbrk(4096);

			if ((long)cp == -1)
				return -1;
			for (k = 0; k < 4096; k += 128)
				cp[k] = ' ';
		}
	}
	return brk(oldbrk);
}

static int wait_all(void)
{
	int st;

	while (wait(&st) > 0 || errno == EINTR)
		;
	return 0;
}

static int fork_test(int arg)
{
	int i;

	for (i = 0; i < arg; i++) {
		int pid = fork();

		if (pid < 0)
			return -1;
		if (pid == 0)
			exit(0);
		wait_all();
	}
	return 0;
}

static int exec_test(int arg)
{
	int i;

	for (i = 0; i < arg; i++) {
		int pid = fork();

		if (pid < 0)
			return -1;
		if (pid == 0) {
			execl("./true", "true", (char *)0);
			exit(127);
		}
		wait_all();
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct tms t;
	long hz = sysconf(_SC_CLK_TCK), count = 0, begin, delta;
	int (*fn)(int) = 0, arg = 0, factor = 0;
	double rate;

	if (!strcmp(argv[1], "brk_test")) { fn = brk_test; arg = 1000; factor = 17000; }
	if (!strcmp(argv[1], "page_test")) { fn = page_test; arg = 100; factor = 1700; }
	if (!strcmp(argv[1], "fork_test")) { fn = fork_test; arg = 100; factor = 100; }
	if (!strcmp(argv[1], "exec_test")) { fn = exec_test; arg = 5; factor = 5; }
	if (!fn)
		return 2;
	signal(SIGALRM, alarmed);
	system("sync;sync;sync");
	flag = 1;
	alarm(atoi(argv[2]));
	begin = (long)times(&t) * 1000 / hz;
	while (flag) {
		if (fn(arg) < 0) {
			printf("%s Skipping\n", argv[1]);
			return 1;
		}
		count++;
	}
	delta = (long)times(&t) * 1000 / hz - begin;
	rate = 1000.0 * count / delta;
	printf("%6d %-14s %10.2f %10ld %10.5f %15.2f\n", 1, argv[1], delta / 1000.0, count, rate,
	       rate * factor);
	return 0;
}
C
cc -O -o "$work/ref-usemem" "$work/ref-usemem.c" -lpthread
cc -O -std=gnu89 -D_POSIX_SOURCE -no-pie -w -o "$work/ref-aim9" "$work/ref-aim9.c"
printf '#!/bin/sh\n' >"$work/true" && chmod +x "$work/true"

S=$((size_mb << 20))
# name|usemem arguments (the case script's line for N = 2; random cases on 1/8 of the memory).
# The sequential read-only cases map the zero page: they cost page tables only, and upstream
# sizes them from PTE_LIMIT (far above MemTotal); at SIZE/2 one pass takes ~80 ms, which is
# noise, so they read 8 x SIZE.
cases=(
	"anon-w-seq|-n 2 $((S / 2))"
	"anon-w-seq-mt|-t 2 $((S / 2))"
	"anon-w-rand|-n 2 --random $((S / 16))"
	"anon-w-rand-mt|-t 2 --random $((S / 16))"
	"anon-r-seq|-n 2 --readonly $((S * 4))"
	"anon-r-seq-mt|-t 2 --readonly $((S * 4))"
	"anon-r-rand|-n 2 --readonly --random $((S / 16))"
	"anon-r-rand-mt|-t 2 --readonly --random $((S / 16))"
	"anon-rx-seq-mt|-t 2 --prealloc --readonly $((S * 8))"
	"anon-rx-rand-mt|-t 2 --prealloc --readonly --random $((S / 16))"
	"anon-cow-seq|-n 2 --prealloc --prefault $((S / 3))"
	"anon-cow-rand|-n 2 --prealloc --prefault --random $((S / 24))"
	"anon-cow-seq-mt|-t 2 --prealloc --prefault $S"
	"anon-cow-rand-mt|-t 2 --prealloc --prefault --random $((S / 8))"
	"anon-wx-seq-mt|-t 2 --prealloc $S"
	"anon-wx-rand-mt|-t 2 --prealloc --random $((S / 16))"
)
aim=(brk_test page_test fork_test exec_test)
aim_time=${AIM_TIME:-2}
if [ -n "${ONLY:-}" ]; then
	keep=()
	for c in "${cases[@]}"; do [[ " $ONLY " == *" ${c%%|*} "* ]] && keep+=("$c"); done
	cases=("${keep[@]}")
	keep=()
	for t in "${aim[@]}"; do [[ " $ONLY " == *" $t "* ]] && keep+=("$t"); done
	aim=("${keep[@]}")
fi

kbs() { awk '/ bytes \/ / { s += $(NF - 1) } END { print s + 0 }'; }
ops() { awk '{ print $6 }'; }

# one CASE-or-TEST run of IMPL (kprof|ref|ref2; ref2 is the reference again): its metric
measure() {
	local impl=$1 name=$2 args=$3
	case $impl:$name in
	kprof:*_test) "$BIN/singleuser" "$name" testtime="$aim_time" | ops ;;
	ref*:*_test) (cd "$work" && ./ref-aim9 "$name" "$aim_time") | ops ;;
	# shellcheck disable=SC2086
	kprof:*) "$BIN/usemem" --runtime 60 $args | kbs ;;
	# shellcheck disable=SC2086
	ref*:*) "$work/ref-usemem" --runtime 60 $args | kbs ;;
	esac
}

declare -A vals
names=()
for c in "${cases[@]}"; do names+=("${c%%|*}"); done
names+=("${aim[@]}")
echo "== $rounds interleaved rounds, usemem cases on ${size_mb} MiB (2 workers)" >&2
for r in $(seq "$rounds"); do
	# each implementation takes each position in turn, so drift and warm-up hit all three
	case $((r % 3)) in
	1) order="kprof ref ref2" ;;
	2) order="ref2 kprof ref" ;;
	0) order="ref ref2 kprof" ;;
	esac
	for c in "${cases[@]}" "${aim[@]}"; do
		name=${c%%|*} args=${c#*|}
		for impl in $order; do
			vals[$name.$impl]+="$(measure "$impl" "$name" "$args") "
		done
	done
	echo "   round $r done" >&2
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# per-round ratios A_i / B_i, one per line
ratios() {
	paste <(echo "${vals[$1]}" | tr ' ' '\n' | grep .) <(echo "${vals[$2]}" | tr ' ' '\n' | grep .) |
		awk '$2 > 0 { print $1 / $2 }'
}
printf '%-18s %12s %12s %7s %7s %13s %7s  %s\n' case kprof reference ratio r-ratio "r-range" "A/A" ""
for name in "${names[@]}"; do
	k=$(echo "${vals[$name.kprof]}" | median)
	f=$(echo "${vals[$name.ref]}" | median)
	rr=$(ratios "$name.kprof" "$name.ref" | median)
	range=$(ratios "$name.kprof" "$name.ref" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f-%.2f", lo, hi }')
	aa=$(ratios "$name.ref2" "$name.ref" | median)
	awk -v n="$name" -v k="$k" -v f="$f" -v rr="$rr" -v range="$range" -v aa="$aa" 'BEGIN {
		r = f > 0 ? k / f : 0
		verdict = (r >= 0.95 && r <= 1.05) ? "" : "outside 0.95-1.05"
		if (verdict != "" && (aa < 0.95 || aa > 1.05))
			verdict = verdict " (so is A/A: noise)"
		printf "%-18s %12.0f %12.0f %7.3f %7.3f %13s %7.3f  %s\n", n, k, f, r, rr, range, aa, verdict }'
done
echo "(ratio: median kprof / median reference; r-ratio, r-range: median and range of the per-round"
echo " ratios; A/A: the reference against itself, the same way: the noise floor of this machine)"

[ -z "${ONLY:-}" ] || exit 0
runs=3
echo "== kprof run anon-w-seq-mt (defaults), $runs runs, with and without profiling"
for mode in --no-profile ""; do
	start=$(date +%s.%N)
	# shellcheck disable=SC2086
	out=$("$KPROF" -q run anon-w-seq-mt --runs "$runs" $mode -o "$work/p${mode:-prof}" 2>/dev/null)
	end=$(date +%s.%N)
	tp=$(echo "$out" | awk '/vm-scalability.throughput/ { print $2 }')
	printf '%-14s wall %6.2f s for %d runs, throughput %s KB/s\n' "${mode:-profiled}" \
		"$(echo "$end - $start" | bc)" "$runs" "$tp"
	eval "wall_${mode:+plain}=$(echo "$end - $start" | bc)"
	eval "tp_${mode:+plain}=$tp"
done
awk -v a="$wall_" -v b="$wall_plain" -v c="$tp_" -v d="$tp_plain" \
	'BEGIN { printf "profiling overhead: wall x%.2f, throughput x%.2f\n", a / b, c / d }'
