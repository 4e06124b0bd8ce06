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
# in turn, so drift hits all three. Reported per case:
#   ratio    median kprof / median reference (throughput, > 1: kprof faster; the reference's
#            median of both its runs);
#   r-ratio  the median of the per-round ratios (kprof against the geometric mean of the round's
#            two reference runs), and r-CI a distribution-free confidence interval of that median
#            (order statistics of the per-round ratios, >= 90%);
#   A/A      the median of the per-round ratios of the reference's second run to its first: this
#            machine's noise floor (a little wider than r-ratio's: two single runs);
#   cpu      the median per-round ratio of CPU time per operation, reference / kprof (> 1: kprof
#            needs less), from wait4()'s rusage of each program and the children it reaped
#            (user + system: descheduling does not count, unlike the throughput's wall time;
#            usemem: per byte it reports, AIM9: per loop; the reference's system("sync")
#            shell adds ~14 ms, 0.35% of a 4-s test), and cpu A/A, its noise floor;
#   verdict  `within`: r-ratio within 0.95-1.05; otherwise `noise` when r-CI holds 1 and cpu is
#            within 0.95-1.05 (the same work per operation, a difference this run cannot tell
#            from noise), `unresolved` when r-CI holds 1 but cpu does not agree, `DIFFERENT`
#            when r-CI excludes 1 (a difference to explain); no verdict with fewer than 5
#            rounds (r-CI is then the range, marked ~).
# On a VM a sub-second case moves by 10-20% from run to run: a verdict wants a quiet machine
# and >= 15 rounds. The hugetlb cases need a hugetlb reservation and truncate a loop
# filesystem: `kprof run` covers those.
#
# Usage: bench/workload-throughput.sh [ROUNDS] [SIZE_MB]   (defaults 5, 256); KPROF=./kprof
#   ONLY="brk_test page_test"  measure only these cases/tests (and skip part 3)
#   AIM_TIME=4                 seconds per AIM9 test (default 2)
#   RAW=FILE                   also write every run there: "round case impl metric cpu-us/op"
# The verdict run: AIM_TIME=4 bench/workload-throughput.sh 15 256
#   (a round took 116 s at load 4 on the 2-vCPU VM, about 65 s expected when quiet: ~17-29 min)
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
cat >"$work/cputime.c" <<'C'
/* cputime FILE CMD...: run CMD; when it has exited, write to FILE the user + system CPU time
 * in microseconds of CMD and every descendant it reaped (wait4's rusage) */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	pid_t pid;
	FILE *f;
	int st;

	if (argc < 3)
		return 2;
	pid = fork();
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &st, 0, &ru) != pid || !(f = fopen(argv[1], "w")))
		return 2;
	fprintf(f, "%ld\n", (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000L +
		ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	return fclose(f) || !WIFEXITED(st) || WEXITSTATUS(st);
}
C
cc -O -o "$work/cputime" "$work/cputime.c"
cc -O -o "$work/ref-usemem" "$work/ref-usemem.c" -lpthread
cc -O -std=gnu89 -D_POSIX_SOURCE -no-pie -w -o "$work/ref-aim9" "$work/ref-aim9.c"
printf '#!/bin/sh\n' >"$work/true" && chmod +x "$work/true"

S=$((size_mb << 20))
# name|usemem arguments (the case script's line for N = 2). The sequential read-only cases map
# the zero page: they cost page tables only, and upstream sizes them from PTE_LIMIT (far above
# MemTotal), so they read 2 x SIZE per worker (anon-rx-seq-mt: 4 x SIZE, shared). The random
# cases are sized to run >= ~0.3 s here (at 1/16 of SIZE they took 60-90 ms, most of it the
# programs' start and the faults).
cases=(
	"anon-w-seq|-n 2 $((S / 2))"
	"anon-w-seq-mt|-t 2 $((S / 2))"
	"anon-w-rand|-n 2 --random $((S / 4))"
	"anon-w-rand-mt|-t 2 --random $((S / 4))"
	"anon-r-seq|-n 2 --readonly $((S * 2))"
	"anon-r-seq-mt|-t 2 --readonly $((S * 2))"
	"anon-r-rand|-n 2 --readonly --random $((S / 8))"
	"anon-r-rand-mt|-t 2 --readonly --random $((S / 8))"
	"anon-rx-seq-mt|-t 2 --prealloc --readonly $((S * 4))"
	"anon-rx-rand-mt|-t 2 --prealloc --readonly --random $((S / 4))"
	"anon-cow-seq|-n 2 --prealloc --prefault $((S / 3))"
	"anon-cow-rand|-n 2 --prealloc --prefault --random $((S / 6))"
	"anon-cow-seq-mt|-t 2 --prealloc --prefault $S"
	"anon-cow-rand-mt|-t 2 --prealloc --prefault --random $((S / 4))"
	"anon-wx-seq-mt|-t 2 --prealloc $S"
	"anon-wx-rand-mt|-t 2 --prealloc --random $((S / 4))"
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

# a program's output -> "metric operations": usemem: the sum of the workers' KB/s and of the
# bytes they report; singleuser: ops/sec and loops
kbs() { awk '/ bytes \/ / { s += $(NF - 1); b += $1 } END { print s + 0, b + 0 }'; }
ops() { awk '{ print $6, $4 }'; }

# one CASE-or-TEST run of IMPL (kprof|ref|ref2; ref2 is the reference again):
# "metric cpu-microseconds-per-operation" (ARGS split into words on purpose)
# shellcheck disable=SC2086
measure() {
	local impl=$1 name=$2 args=$3 out
	case $impl:$name in
	kprof:*_test) out=$("$work/cputime" "$work/cpu" "$BIN/singleuser" "$name" \
		testtime="$aim_time" | ops) ;;
	ref*:*_test) out=$(cd "$work" && ./cputime cpu ./ref-aim9 "$name" "$aim_time" | ops) ;;
	kprof:*) out=$("$work/cputime" "$work/cpu" "$BIN/usemem" --runtime 60 $args | kbs) ;;
	ref*:*) out=$("$work/cputime" "$work/cpu" "$work/ref-usemem" --runtime 60 $args | kbs) ;;
	esac
	awk -v cpu="$(cat "$work/cpu")" '{ printf "%s %.6g\n", $1, ($2 > 0 ? cpu / $2 : 0) }' <<<"$out"
}

declare -A vals cpus
names=()
for c in "${cases[@]}"; do names+=("${c%%|*}"); done
names+=("${aim[@]}")
echo "== $rounds interleaved rounds, usemem cases on ${size_mb} MiB (2 workers)," \
	"AIM9 tests of ${aim_time} s; $(date -u +%H:%M:%S) UTC, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
t0=$(date +%s)
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
			read -r v u <<<"$(measure "$impl" "$name" "$args")"
			[ -z "${RAW:-}" ] || echo "$r $name $impl $v $u" >>"$RAW"
			vals[$name.$impl]+="$v "
			cpus[$name.$impl]+="$u "
		done
	done
	echo "   round $r done ($(( $(date +%s) - t0 )) s)" >&2
done

median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# per-round ratios A_i / B_i, one per line; with a third list C, A_i / sqrt(B_i x C_i)
ratios() {
	paste <(echo "$1" | tr ' ' '\n' | grep .) <(echo "$2" | tr ' ' '\n' | grep .) \
		<(echo "${3:-$2}" | tr ' ' '\n' | grep .) |
		awk '$2 > 0 && $3 > 0 { print $1 / sqrt($2 * $3) }'
}
# the per-round ratios -> "LO-HI": a confidence interval of their median from order statistics,
# [x(k), x(n+1-k)] with the largest k such that P(Binomial(n, 1/2) < k) <= 5% (>= 90% coverage);
# with fewer than 5 rounds there is none: "~" and the range
median_ci() {
	sort -g | awk '{ v[NR] = $1 } END {
		n = NR; k = 0; c = 0; p = 0.5 ^ n
		for (j = 0; j < n; j++) { c += p; if (c > 0.05) break; k = j + 1; p = p * (n - j) / (j + 1) }
		if (k < 1) { k = 1; few = "~" }	# fewer than 5 rounds: the range, marked
		printf "%s%.2f-%.2f", few, v[k], v[n + 1 - k] }'
}
printf '%-16s %11s %11s %6s %7s %10s %6s %6s %7s  %s\n' case kprof reference ratio r-ratio r-CI \
	"A/A" cpu "cpu A/A" verdict
for name in "${names[@]}"; do
	k=$(echo "${vals[$name.kprof]}" | median)
	# kprof against both runs of the reference (their geometric mean in each round): the same
	# binary twice, so the comparison's noise is that of 1.5 runs where A/A's is of 2
	f=$(echo "${vals[$name.ref]} ${vals[$name.ref2]}" | median)
	rr=$(ratios "${vals[$name.kprof]}" "${vals[$name.ref]}" "${vals[$name.ref2]}" | median)
	ci=$(ratios "${vals[$name.kprof]}" "${vals[$name.ref]}" "${vals[$name.ref2]}" | median_ci)
	aa=$(ratios "${vals[$name.ref2]}" "${vals[$name.ref]}" | median)
	# CPU time per operation: reference / kprof, so that > 1 means kprof is the cheaper, as above
	cr=$(ratios "${cpus[$name.kprof]}" "${cpus[$name.ref]}" "${cpus[$name.ref2]}" |
		awk '$1 > 0 { print 1 / $1 }' | median)
	ca=$(ratios "${cpus[$name.ref]}" "${cpus[$name.ref2]}" | median)
	awk -v n="$name" -v k="$k" -v f="$f" -v rr="$rr" -v ci="$ci" -v aa="$aa" -v cr="$cr" \
		-v ca="$ca" 'BEGIN {
		few = sub(/^~/, "", ci); split(ci, b, "-")
		if (rr >= 0.95 && rr <= 1.05) v = "within"
		else if (few) v = "(too few rounds)"
		else if (b[1] <= 1 && b[2] >= 1) v = (cr >= 0.95 && cr <= 1.05) ? "noise" : "unresolved"
		else v = "DIFFERENT"
		printf "%-16s %11.0f %11.0f %6.3f %7.3f %10s %6.3f %6.3f %7.3f  %s\n", n, k, f,
			(f > 0 ? k / f : 0), rr, (few ? "~" : "") ci, aa, cr, ca, v }'
done
echo "(ratio: median kprof / median reference; r-ratio, r-CI: median of the per-round ratios and"
echo " its >= 90% confidence interval; A/A: the reference against itself, the noise floor; cpu:"
echo " CPU time per operation, reference / kprof, and its A/A; verdict: see the header)"
echo "== $(( $(date +%s) - t0 )) s; load $(cut -d' ' -f1-3 /proc/loadavg)"

[ -z "${ONLY:-}" ] || exit 0
runs=3
echo "== kprof run anon-w-seq-mt (defaults), $runs runs, with and without profiling"
declare -A wall tput
for mode in --no-profile --profile; do
	start=$(date +%s.%N)
	flag=${mode/--profile/}
	# shellcheck disable=SC2086
	out=$("$KPROF" -q run anon-w-seq-mt --runs "$runs" $flag -o "$work/p$mode" 2>/dev/null)
	end=$(date +%s.%N)
	wall[$mode]=$(echo "$end - $start" | bc)
	tput[$mode]=$(echo "$out" | awk '/vm-scalability.throughput/ { print $2 }')
	printf '%-14s wall %6.2f s for %d runs, throughput %s KB/s\n' "${mode#--}" "${wall[$mode]}" \
		"$runs" "${tput[$mode]}"
done
awk -v a="${wall[--profile]}" -v b="${wall[--no-profile]}" -v c="${tput[--profile]}" \
	-v d="${tput[--no-profile]}" \
	'BEGIN { printf "profiling overhead: wall x%.2f, throughput x%.2f\n", a / b, c / d }'
