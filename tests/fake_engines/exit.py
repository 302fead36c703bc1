"""Plays two good moves, then exits mid-game with a word on standard error."""
import sys
import fakelib


def go(n, move):
    if n >= 3:
        sys.stderr.write("fake engine: giving up\n")
        sys.stderr.flush()
        sys.exit(3)
    return move


fakelib.run(name="exit", on_go=go)
