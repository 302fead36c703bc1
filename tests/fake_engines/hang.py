"""Starts a child of its own (both must be killed), plays two good moves, then never answers."""
import subprocess
import sys
import time
import fakelib

# A grandchild of the client, in the engine's process group; its command line carries this
# process's arguments so a test can find it.
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"] + sys.argv[1:])


def go(n, move):
    if n >= 3:
        sys.stderr.write("fake engine: thinking forever\n")
        sys.stderr.flush()
        time.sleep(3600)
    return move


fakelib.run(name="hang", on_go=go)
