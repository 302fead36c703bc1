"""A good engine slow to start and steady after: `slow_start.py SECONDS MS`. Every process
sleeps SECONDS before it reads its input (so each handshake takes that long, as a big engine's
start does), then takes MS milliseconds over every move (asleep, so the machine's load hardly
changes its pace). It declares two int parameters, `a` (0, -100..100) and `b` (5, 0..10), and
plays legal move number (a + b) mod (the number of legal moves), the moves in fakelib's order,
so the parameters change its games. A test compares the time a session says it will take with
the time it took."""
import sys
import time
import fakelib

args = fakelib.arguments()
if len(args) != 2:
    sys.stderr.write("slow_start: usage: slow_start.py SECONDS MS\n")
    sys.exit(2)
time.sleep(float(args[0]))
PAUSE = float(args[1]) / 1000.0


def go(n, move):
    time.sleep(PAUSE)
    return move


def choose(moves):
    """Legal move number a + b (mod their number)."""
    v = fakelib.state.values
    return moves[(v["a"] + v["b"]) % len(moves)]


fakelib.run(
    name="slow_start",
    on_go=go,
    params=lambda: [("a", 0, -100, 100), ("b", 5, 0, 10)],
    choose=choose,
)
