#!/usr/bin/env python3
"""bench/timed.py OUT CMD...: run CMD with its stdout in OUT (stderr discarded) and print
"WALL USER SYS MAXRSS_KIB MINFLT" for it, exiting with its status.

WALL runs from just before the spawn to the reaping (time.perf_counter), the rest is wait4's
rusage of that one child. GNU time's %e is cut down to 10 ms (0.209 s prints as 0.20), which
flattered a 0.2 s run by up to 5%, and timing around GNU time from the shell adds its start and
the shell's fork (~7-9 ms here) to every run: both bias the ratio of a fast tool to a slow one.
Spawning `true` this way takes ~2 ms. The peak RSS is the larger of the command's and this
script's own (~14 MB: the spawned child is this process until it execs), and the minor faults
include the child's few before its exec.
"""
import os
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: timed.py OUT CMD...")
    out, cmd = sys.argv[1], sys.argv[2:]
    with open(out, "wb") as stdout, open(os.devnull, "wb") as devnull:
        t0 = time.perf_counter()
        child = subprocess.Popen(cmd, stdout=stdout, stderr=devnull)
        _, status, ru = os.wait4(child.pid, 0)
        t1 = time.perf_counter()
    child.returncode = os.waitstatus_to_exitcode(status)
    print("%.4f %.4f %.4f %d %d" % (t1 - t0, ru.ru_utime, ru.ru_stime, ru.ru_maxrss,
                                    ru.ru_minflt))
    sys.exit(child.returncode if child.returncode >= 0 else 128 - child.returncode)


main()
