"""A good engine that plays on the clock it is given: `clock.py SHARE`. At every `go` it
takes SHARE of the time its last `level` line allows for the move (`move-time=T`: T;
`time=L inc=I`: L / 30 + I, as checkers-ga's own search plans), asleep, then answers; it
reports `info depth=D` with D the whole milliseconds it took / 10 + 1, so a deeper search is
one that took longer. SHARE 0.3 keeps to its clock; SHARE 2 takes twice its time and loses
every game on time. Without a clock it takes no time. It declares two int parameters, `a`
(0, -100..100) and `b` (5, 0..10), and plays legal move number (a + b) mod (the number of
legal moves), so the parameters change its games."""
import sys
import time
import fakelib

args = fakelib.arguments()
if len(args) != 1:
    sys.stderr.write("clock: usage: clock.py SHARE\n")
    sys.exit(2)
SHARE = float(args[0])


def budget():
    level = fakelib.state.level
    if "move-time" in level:
        return float(level["move-time"])
    if "time" in level:
        return float(level["time"]) / 30 + float(level.get("inc") or 0)
    return 0.0


def go(n, move):
    took = SHARE * budget()
    time.sleep(took)
    fakelib.state.depth = int(took * 100) + 1
    return move


def choose(moves):
    """Legal move number a + b (mod their number)."""
    v = fakelib.state.values
    return moves[(v["a"] + v["b"]) % len(moves)]


fakelib.run(
    name="clock",
    on_go=go,
    params=lambda: [("a", 0, -100, 100), ("b", 5, 0, 10)],
    choose=choose,
)
