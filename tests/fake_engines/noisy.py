"""A correct engine (the first legal move) that floods its standard error, which must not matter."""
import sys
import fakelib


def go(n, move):
    for i in range(2000):
        sys.stderr.write(f"noise {n}.{i}: " + "x" * 60 + "\n")
    sys.stderr.flush()
    return move


fakelib.run(name="noisy", on_go=go)
