"""A correct engine (fakelib's first legal move) whose first start is slow: `slow_first.py
SECONDS FILE`. When FILE does not exist, it creates it and sleeps SECONDS before it reads its
input (so its handshake takes that long); when FILE exists it starts at once. A test sees the
first start's time (a match's handshake before its games) in what the command reports."""
import os
import sys
import time
import fakelib

args = fakelib.arguments()
if len(args) != 2:
    sys.stderr.write("slow_first: usage: slow_first.py SECONDS FILE\n")
    sys.exit(2)
try:
    fd = os.open(args[1], os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    os.close(fd)
    time.sleep(float(args[0]))
except FileExistsError:
    pass

fakelib.run(name="slow_first")
