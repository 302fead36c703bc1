"""A good engine (fakelib's first legal move) that writes, at every `go`, the cores it may run
on as one line to the file its first argument names: `cores.py FILE` (`0` or `0,1`)."""
import os
import fakelib

OUT = fakelib.arguments()[0]


def go(n, move):
    with open(OUT, "a") as f:
        f.write(",".join(str(c) for c in sorted(os.sched_getaffinity(0))) + "\n")
    return move


fakelib.run(name="cores", on_go=go)
