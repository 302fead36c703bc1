"""Finishes the handshake, then exits when asked for its first move."""
import sys
import fakelib


def go(n, move):
    sys.stderr.write("fake engine: no move in me\n")
    sys.stderr.flush()
    sys.exit(4)


fakelib.run(name="exit-at-once", on_go=go)
