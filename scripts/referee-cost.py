#!/usr/bin/env python3
"""The referee's own CPU time, beside its programs': runs a command (a
`reversi leaderboard` or `reversi match`), and once it has exited (before
it is reaped) reads its user and system time and those of the children it
waited for from /proc.

    scripts/referee-cost.py reversi leaderboard ... --out board
"""
import os
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")

start = time.monotonic()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)
wall = time.monotonic() - start
with open(f"/proc/{child.pid}/stat") as f:
    fields = f.read().rsplit(")", 1)[1].split()
# After the name: utime, stime, cutime, cstime are fields 14-17 (1-based).
utime, stime, cutime, cstime = (int(x) / TICK for x in fields[11:15])
child.wait()
print(f"wall {wall:.1f} s; referee {utime:.2f} s user + {stime:.2f} s system; "
      f"its programs {cutime:.2f} s user + {cstime:.2f} s system; exit {child.returncode}")
