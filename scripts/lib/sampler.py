"""A sampling profiler for a Python program, from the standard library alone.

``python scripts/lib/sampler.py OUT [--paused] -m module [args...]`` runs ``module`` as
``python -m`` would, with a timer on the process's CPU time (``ITIMER_PROF``) that
interrupts it every ``SAMPLER_INTERVAL_MS`` milliseconds of CPU (default 1; the
kernel rounds it up to its tick, often 4 ms); each interrupt counts the Python stack
it finds. When the program ends (as the server does after SIGTERM) ``OUT`` gets one
line per distinct stack, ``file:function;file:function;... count``, outermost first:
the "collapsed" format flame graph tools read.

Why not cProfile: cProfile's cost is per call, so it inflates functions called often
(every one of the server's hundreds of calls per action costs as much again), and
its tottime puts a C call's time on its caller only in part. A sample costs the same
wherever it lands, so the shares are those of the program running alone. Python
handles a signal only where it checks for one (a call, a loop's jump back): time in a
C function or a system call is counted there, after it returns, mostly in the
function that made the call, sometimes in the next one it calls. So the stages of a
stack are right and a small function's own share may hold some of its caller's C
time. (The usual sampling profilers read another process's memory, which a container
may forbid; this needs nothing but a signal.)

With ``--paused`` it samples only while switched on: SIGUSR1 switches it on, SIGUSR2
off (``scripts/bench-server --sample`` samples its measured phases only, not the
setting up of its tables).

Only the main thread is sampled (signals are handled there), which is where the
server's trio loop runs.
"""

from __future__ import annotations

import atexit
import collections
import os
import runpy
import signal
import sys
from types import FrameType

counts: collections.Counter[str] = collections.Counter()


def _sample(_signum: int, frame: FrameType | None) -> None:
    names = []
    while frame is not None:
        code = frame.f_code
        names.append(f"{os.path.basename(code.co_filename)}:{code.co_name}")
        frame = frame.f_back
    names.reverse()
    counts[";".join(names)] += 1


def _write(path: str) -> None:
    signal.setitimer(signal.ITIMER_PROF, 0)
    with open(path, "w", encoding="utf-8") as out:
        for stack, count in counts.most_common():
            out.write(f"{stack} {count}\n")


def main() -> None:
    args = sys.argv[1:]
    paused = len(args) > 1 and args[1] == "--paused"
    if paused:
        del args[1]
    if len(args) < 3 or args[1] != "-m":
        raise SystemExit("usage: sampler.py OUT [--paused] -m module [args...]")
    out, module = args[0], args[2]
    interval = float(os.environ.get("SAMPLER_INTERVAL_MS", "1")) / 1000

    def switch(signum: int, _frame: FrameType | None) -> None:
        on = interval if signum == signal.SIGUSR1 else 0.0
        signal.setitimer(signal.ITIMER_PROF, on, on)

    atexit.register(_write, out)
    signal.signal(signal.SIGPROF, _sample)
    signal.signal(signal.SIGUSR1, switch)
    signal.signal(signal.SIGUSR2, switch)
    if not paused:
        signal.setitimer(signal.ITIMER_PROF, interval, interval)
    sys.argv = [module, *args[3:]]
    sys.path[0] = os.getcwd()  # as ``python -m`` has it, not this folder
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
