"""A good engine (fakelib's first legal move) that writes the cores it may run on, as one line
to the file its first argument names (`cores.py FILE`): `start 0,1` when it starts, before it
answers anything, then `0` or `0,1` at every `go`."""
import os
import fakelib

OUT = fakelib.arguments()[0]


def cores():
    return ",".join(str(c) for c in sorted(os.sched_getaffinity(0)))


def go(n, move):
    with open(OUT, "a") as f:
        f.write(cores() + "\n")
    return move


with open(OUT, "a") as f:
    f.write("start " + cores() + "\n")
fakelib.run(name="cores", on_go=go)
