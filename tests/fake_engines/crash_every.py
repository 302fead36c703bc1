"""A good engine that dies in its N-th game: `crash_every.py N` (N >= 1, default 3).

It declares two int parameters, `a` (0, -100..100) and `b` (5, 0..10), and plays legal move
number (a + b) mod (the number of legal moves), the moves in fakelib's order (by square, the
captures only when there are any), so the parameters change its games. It counts the
`new-game` commands this process received; when asked for a move in the N-th game it writes
a line on standard error (its last words: the game and the values of a and b) and exits at
once with status 3 (os._exit: nothing more is flushed or said). A new process counts from
zero again: a pool of them fails one game in every N it plays.
"""
import os
import sys
import fakelib

N = fakelib.count_argument(3)


def go(n, move):
    st = fakelib.state
    if st.games >= N:
        sys.stderr.write(
            f"crash_every: exiting in game {st.games} (a={st.values['a']} b={st.values['b']})\n"
        )
        sys.stderr.flush()
        os._exit(3)
    return move


def choose(moves):
    """Legal move number a + b (mod their number)."""
    v = fakelib.state.values
    return moves[(v["a"] + v["b"]) % len(moves)]


fakelib.run(
    name="crash_every",
    on_go=go,
    params=lambda: [("a", 0, -100, 100), ("b", 5, 0, 10)],
    choose=choose,
)
