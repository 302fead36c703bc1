"""A good engine that hangs in its N-th game: `hang_every.py N` (N >= 1, default 3).

As crash_every.py (int parameters `a` 0 in -100..100 and `b` 5 in 0..10; it plays legal move
number (a + b) mod (the number of legal moves)), but on the first move of the N-th game this
process plays (counting its `new-game` commands) it writes a line on standard error and then
sleeps for an hour (for ever, to a client) without reading its input: it answers nothing,
not `stop`, `ping` or `quit`, and only a kill ends it. A new process counts from zero again.
"""
import sys
import time
import fakelib

N = fakelib.count_argument(3)


def go(n, move):
    st = fakelib.state
    if st.games >= N:
        sys.stderr.write(
            f"hang_every: hanging in game {st.games} (a={st.values['a']} b={st.values['b']})\n"
        )
        sys.stderr.flush()
        time.sleep(3600)
    return move


def choose(moves):
    """Legal move number a + b (mod their number)."""
    v = fakelib.state.values
    return moves[(v["a"] + v["b"]) % len(moves)]


fakelib.run(
    name="hang_every",
    on_go=go,
    params=lambda: [("a", 0, -100, 100), ("b", 5, 0, 10)],
    choose=choose,
)
